import { Inject, Injectable, Logger } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import type { Request } from 'express';
import { randomBytes } from 'node:crypto';
import { In, IsNull, LessThanOrEqual, Repository } from 'typeorm';
import type { AuthenticatedUser } from '../../common/auth/index.js';
import { Clock } from '../../common/clock/index.js';
import { type ConsoleLocale, isConsoleLocale } from '../../common/i18n/index.js';
import { CryptoService } from '../../common/crypto/index.js';
import { NotLoggedInError } from '../../common/errors/index.js';
import { servedOverHttps } from '../../common/http/index.js';
import { APP_CONFIG, type AppConfig, REST_NAMESPACE } from '../../config/index.js';
import { readDatetime, selectRows } from '../../database/index.js';
import { capabilityColumns, type CapabilityColumns, readCapabilities } from './role-capabilities-sql.js';
import { ApplicationPasswordEntity } from './application-password.entity.js';
import { readSessionTokens, type SessionCookie, sessionCookie } from './console-session-cookie.js';
import { ConsoleSessionEntity } from './console-session.entity.js';
import { TwoFactorCodeError, TwoFactorRequiredError } from './accounts/account.errors.js';
import { AccountService } from './accounts/account.service.js';
import { InvalidNonceError } from './identity.errors.js';
import { PasswordCheck } from './password-check.js';
import { RoleCapabilityEntity } from './role-capability.entity.js';
import { UserEntity } from './user.entity.js';

/**
 * A session's last use is written at most this often, and at most every tenth of the idle timeout:
 * the idle timeout then counts from the last use to within 10 % (with a minute's resolution and a
 * 60 s timeout, an active session ended 60 s after sign-in).
 */
export function touchIntervalMs(settings: AppConfig['session']): number {
  return Math.min(60_000, settings.idleTimeoutSeconds * 100);
}
/** Expired sessions deleted per sign-in at most, so a sign-in never does unbounded work. */
const PURGE_BATCH = 100;
/** Live sessions one application password (or one user's account password) may hold; a new sign-in ends the oldest beyond it. */
export const MAX_SESSIONS_PER_PASSWORD = 20;

/** A live session: who it is, and when it ends at the latest. */
export interface ConsoleSession {
  id: number;
  user: AuthenticatedUser;
  displayName: string;
  /** The user's console language (`en`, `de`), or null: follow the browser */
  locale: ConsoleLocale | null;
  /** Sign-in + SESSION_TTL_SECONDS: the session ends then however active it is. */
  endsAt: Date;
  /** When it ends unless used again (idle timeout, at most endsAt). */
  expiresAt: Date;
  /** The user has no account password yet (signed in with an application password): the console asks for one first. */
  mustSetPassword: boolean;
}

interface SessionRow extends CapabilityColumns {
  session_id: number;
  created_at: Date | string;
  last_seen_at: Date | string;
  expires_at: Date | string;
  user_id: number;
  user_login: string;
  display_name: string;
  role: string;
  console_locale: string | null;
  must_set_password: number | string;
}

/**
 * Admin console sessions: sign in with a login and an application password or the account password (and a
 * two-factor code when it is on), get a random token (the HttpOnly cookie) and a nonce derived from it (what the console sends as `X-WP-Nonce`).
 *
 * Stored server-side, only as a keyed hash of the token; every request reads the session fresh,
 * joined with its application password and user, so signing out, revoking the password, a changed
 * role or an expired session count from the next request on every instance. Nothing is cached.
 */
@Injectable()
export class ConsoleSessionService {
  private readonly logger = new Logger(ConsoleSessionService.name);
  private readonly lookupSql: string;
  private readonly roleCapabilitiesTable: string;
  private readonly restPath: string;

  constructor(
    @InjectRepository(ConsoleSessionEntity) private readonly sessions: Repository<ConsoleSessionEntity>,
    @InjectRepository(ApplicationPasswordEntity) passwords: Repository<ApplicationPasswordEntity>,
    @InjectRepository(UserEntity) private readonly users: Repository<UserEntity>,
    @InjectRepository(RoleCapabilityEntity) roleCapabilities: Repository<RoleCapabilityEntity>,
    private readonly passwordCheck: PasswordCheck,
    private readonly accounts: AccountService,
    private readonly crypto: CryptoService,
    private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {
    this.restPath = `/${config.restRoot}/${REST_NAMESPACE}`;
    const table = (repository: Repository<object>) => `\`${repository.metadata.tableName}\``;
    this.roleCapabilitiesTable = table(roleCapabilities);
    this.lookupSql =
      'SELECT `s`.`id` AS `session_id`, `s`.`created_at`, `s`.`last_seen_at`, `s`.`expires_at`,' +
      ' `u`.`id` AS `user_id`, `u`.`user_login`, `u`.`display_name`, `u`.`role`, `u`.`console_locale`, ' +
      capabilityColumns(this.roleCapabilitiesTable, '`u`.`role`') +
      ',' +
      ' CASE WHEN `u`.`password_hash` IS NULL THEN 1 ELSE 0 END AS `must_set_password`' +
      ` FROM ${table(sessions)} \`s\`` +
      ` LEFT JOIN ${table(passwords)} \`p\` ON \`p\`.\`id\` = \`s\`.\`application_password_id\` AND \`p\`.\`user_id\` = \`s\`.\`user_id\`` +
      ` INNER JOIN ${table(users)} \`u\` ON \`u\`.\`id\` = \`s\`.\`user_id\`` +
      ' WHERE `s`.`token_hash` = ? AND `s`.`expires_at` > ?' +
      // A session of an application password lives only while that password does.
      ' AND (`s`.`application_password_id` IS NULL OR `p`.`id` IS NOT NULL)';
  }

  /**
   * The console's sign-in (PasswordCheck: the failed-login limit, 401 for any mismatch) with an
   * application password or the account password. A user with two-factor sign-in on gets 401
   * `checkout_two_factor_required` with a 5-minute challenge instead (see `signInTwoFactor`);
   * otherwise a session opens, tied to the application password that matched, if any.
   */
  async signIn(login: string, password: string, ip: string | undefined): Promise<{ token: string; session: ConsoleSession }> {
    const { userId, applicationPasswordId } = await this.passwordCheck.verifyConsole(login, password, ip);
    const user = await this.accounts.findUser(userId);
    if (user?.twoFactorEnabledAt) {
      await this.accounts.purgeEndedTokens();
      const challenge = await this.accounts.issueToken(userId, 'two_factor', undefined, applicationPasswordId);
      throw new TwoFactorRequiredError(challenge.token, challenge.expiresAt);
    }
    return this.open(userId, applicationPasswordId);
  }

  /**
   * The second step: the challenge of the first and a TOTP code (or a recovery code). A wrong code
   * is a failed login of the client (and one of TWO_FACTOR_ATTEMPTS of the challenge).
   */
  async signInTwoFactor(challenge: string, code: string, ip: string | undefined): Promise<{ token: string; session: ConsoleSession }> {
    const redeemed = await this.passwordCheck.limited(ip, async () => {
      const result = await this.accounts.redeemChallenge(challenge, code);
      return result === 'wrong_code' ? null : result;
    });
    if (!redeemed) throw new TwoFactorCodeError();
    return this.open(redeemed.user.id, redeemed.applicationPasswordId);
  }

  /**
   * The session of a request that changes the account (cookie and nonce required, as for any
   * change): 401 without them, 403 `rest_cookie_invalid_nonce` for another session's nonce.
   */
  async requireSession(tokens: readonly string[], nonce: string | undefined): Promise<ConsoleSession> {
    if (tokens.length === 0 || nonce === undefined) throw new NotLoggedInError();
    return (await this.current(tokens, nonce)).session;
  }

  private async open(userId: number, applicationPasswordId: number | null): Promise<{ token: string; session: ConsoleSession }> {
    await this.purgeExpired();
    const token = randomBytes(32).toString('base64url');
    const now = this.clock.now();
    await this.sessions.insert({
      tokenHash: this.hashToken(token),
      userId,
      applicationPasswordId,
      createdAt: now,
      lastSeenAt: now,
      expiresAt: sessionExpiry(now, now, this.config.session),
    });
    await this.endOldestBeyondLimit(userId, applicationPasswordId);
    // For the team screen's "last sign-in".
    await this.users.update({ id: userId }, { lastSignInAt: now });
    const session = await this.resolve(token);
    // Only a password revoked in the last few milliseconds gets here.
    if (!session) throw new Error('the new console session could not be read back');
    this.logger.log({ user_id: userId, session_id: session.id, credential: applicationPasswordId === null ? 'account_password' : 'application_password' }, 'console session opened');
    return { token, session };
  }

  /**
   * The session cookie as the browser of this request gets it: `__Host-` behind HTTPS, as the
   * browser sees the scheme (the request's, X-Forwarded-Proto behind TRUST_PROXY, or an https
   * PUBLIC_BASE_URL).
   */
  cookieFor(request: Pick<Request, 'secure'>, maxAgeSeconds?: number): SessionCookie {
    return sessionCookie(servedOverHttps(request, this.config.publicBaseUrl), this.restPath, maxAgeSeconds);
  }

  /** The session tokens the request carries under this request's cookie name (several when some were planted). */
  tokensOf(request: Pick<Request, 'secure' | 'headers'>): string[] {
    return readSessionTokens(request, this.cookieFor(request).name);
  }

  /** Of the tokens a request carries, the one whose session the nonce belongs to, or null. */
  tokenForNonce(tokens: readonly string[], nonce: string): string | null {
    return tokens.find((token) => this.nonceMatches(token, nonce)) ?? null;
  }

  /**
   * The session of GET /auth/session. A nonce, when sent, must be the session's own (of the tokens
   * sent, the one it matches); without one the answer is the first token's live session, with its
   * nonce (how a reloaded console gets it back; the guard let only a same-origin request get here,
   * and only such a page can read the answer).
   */
  async current(tokens: readonly string[], nonce: string | undefined): Promise<{ token: string; session: ConsoleSession }> {
    if (tokens.length === 0) throw new NotLoggedInError();
    if (nonce !== undefined) {
      const token = this.tokenForNonce(tokens, nonce);
      if (!token) throw new InvalidNonceError();
      const session = await this.resolve(token);
      if (!session) throw new NotLoggedInError();
      return { token, session };
    }
    for (const token of tokens) {
      const session = await this.resolve(token);
      if (session) return { token, session };
    }
    throw new NotLoggedInError();
  }

  /** Sign-out (DELETE /auth/session): the cookie and its nonce, as for any change. Idempotent for a session that already ended. */
  async end(tokens: readonly string[], nonce: string | undefined): Promise<void> {
    if (tokens.length === 0 || nonce === undefined) throw new NotLoggedInError();
    const token = this.tokenForNonce(tokens, nonce);
    if (!token) throw new InvalidNonceError();
    const result = await this.sessions.delete({ tokenHash: In(this.tokenHashes(token)) });
    if (result.affected) this.logger.log('console session closed');
  }

  /** The live session of a token, or null (unknown, signed out, expired, or its password revoked). */
  async resolve(token: string): Promise<ConsoleSession | null> {
    const now = this.clock.now();
    let first: SessionRow | undefined;
    // A session opened under CHECKOUT_SECRET_PREVIOUS (a rotation) is looked up by its hash under that secret too.
    for (const hash of this.tokenHashes(token)) {
      [first] = await selectRows<SessionRow>(this.sessions.manager, this.lookupSql, [hash, now]);
      if (first) break;
    }
    if (!first) return null;
    const createdAt = readDatetime(first.created_at);
    const lastSeenAt = readDatetime(first.last_seen_at);
    let expiresAt = readDatetime(first.expires_at);
    if (now.getTime() - lastSeenAt.getTime() >= touchIntervalMs(this.config.session)) {
      expiresAt = sessionExpiry(createdAt, now, this.config.session);
      await this.sessions.update({ id: Number(first.session_id) }, { lastSeenAt: now, expiresAt });
    }
    const capabilities = await readCapabilities(first, first.role, this.sessions.manager, this.roleCapabilitiesTable);
    return {
      id: Number(first.session_id),
      user: { id: Number(first.user_id), login: first.user_login, role: first.role, capabilities },
      displayName: first.display_name,
      locale: isConsoleLocale(first.console_locale) ? first.console_locale : null,
      mustSetPassword: Number(first.must_set_password) === 1,
      endsAt: new Date(createdAt.getTime() + this.config.session.ttlSeconds * 1000),
      expiresAt,
    };
  }

  /**
   * The session's nonce: a keyed HMAC of its token under a purpose of its own. Only this service can
   * make it, it is the same for the whole session (so a reloaded console can be given it again),
   * and it tells nothing about the token or its stored hash.
   */
  nonceFor(token: string): string {
    return this.crypto.hmac('console-session-nonce', token).toString('base64url');
  }

  /** Constant-time comparison of a presented nonce with the token's own. */
  nonceMatches(token: string, nonce: string): boolean {
    return this.crypto.hmacCandidates('console-session-nonce', token).some((candidate) => this.crypto.safeEqual(candidate.toString('base64url'), nonce));
  }

  /** Deletes up to PURGE_BATCH sessions that have ended (on each sign-in: the table cannot grow without bound). */
  async purgeExpired(): Promise<number> {
    const ended = await this.sessions.find({ select: { id: true }, where: { expiresAt: LessThanOrEqual(this.clock.now()) }, take: PURGE_BATCH });
    if (ended.length === 0) return 0;
    await this.sessions.delete({ id: In(ended.map((row) => row.id)) });
    return ended.length;
  }

  private async endOldestBeyondLimit(userId: number, applicationPasswordId: number | null): Promise<void> {
    const surplus = await this.sessions.find({
      select: { id: true },
      // Per application password, and per user for the sessions of the account password.
      where: applicationPasswordId === null ? { userId, applicationPasswordId: IsNull() } : { applicationPasswordId },
      // Newest first by creation time, then id: ids are not in creation order across the servers
      // of a distributed engine (docs/scaling.md).
      order: { createdAt: 'DESC', id: 'DESC' },
      skip: MAX_SESSIONS_PER_PASSWORD,
      take: PURGE_BATCH,
    });
    if (surplus.length > 0) await this.sessions.delete({ id: In(surplus.map((row) => row.id)) });
  }

  private hashToken(token: string): string {
    return this.crypto.hmac('console-session', token).toString('hex');
  }

  /** The token's hash under the current secret, then under CHECKOUT_SECRET_PREVIOUS during a rotation. */
  private tokenHashes(token: string): string[] {
    return this.crypto.hmacCandidates('console-session', token).map((hash) => hash.toString('hex'));
  }
}

/** When a session used at `now` ends unless used again: the earlier of its hard end and the idle timeout. */
export function sessionExpiry(createdAt: Date, now: Date, settings: AppConfig['session']): Date {
  const hardEnd = createdAt.getTime() + settings.ttlSeconds * 1000;
  const idleEnd = now.getTime() + settings.idleTimeoutSeconds * 1000;
  return new Date(Math.min(hardEnd, idleEnd));
}
