import { Inject, Injectable, Logger } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { randomBytes } from 'node:crypto';
import { type EntityManager, In, IsNull, LessThanOrEqual, MoreThan, Not, Repository } from 'typeorm';
import type { ConsoleLocale } from '../../../common/i18n/index.js';
import { Clock } from '../../../common/clock/index.js';
import { CryptoService } from '../../../common/crypto/index.js';
import { ConflictError, InvalidParamsError } from '../../../common/errors/index.js';
import { APP_CONFIG, type AppConfig } from '../../../config/index.js';
import { ConsoleSessionEntity } from '../console-session.entity.js';
import { UserEntity } from '../user.entity.js';
import { AccountEmails, type EmailedPurpose, setPasswordLink } from './account-emails.js';
import { accountPasswordLengthOk, dummyPasswordCheck, hashAccountPassword, needsRehash, verifyAccountPassword } from './account-password.js';
import { AccountTokenEntity, type AccountTokenPurpose, RecoveryCodeEntity, SET_PASSWORD_PURPOSES } from './account-token.entity.js';
import { AccountTokenInvalidError, passwordLengthError, TwoFactorChallengeExpiredError } from './account.errors.js';
import { base32Encode, generateTotpSecret, matchTotp, otpauthUri } from './totp.js';

/** How long each kind of token lives (docs/security.md "Accounts"). */
export const TOKEN_LIFETIME_MS: Readonly<Record<AccountTokenPurpose, number>> = {
  reset: 60 * 60 * 1000,
  invite: 7 * 24 * 60 * 60 * 1000,
  setup: 24 * 60 * 60 * 1000,
  two_factor: 5 * 60 * 1000,
};
/** Reset emails per account and hour at most; further requests are answered alike and send nothing. */
export const RESET_EMAILS_PER_HOUR = 3;
/** Wrong codes one two-factor challenge takes before it ends (the failed-login limit counts them too). */
export const TWO_FACTOR_ATTEMPTS = 5;
export const RECOVERY_CODE_COUNT = 10;
const ADMINISTRATOR = 'administrator';

/** What a set-password link is for, and whose it is (no secret in it). */
export interface SetPasswordTokenInfo {
  purpose: 'reset' | 'invite' | 'setup';
  login: string;
  display_name: string;
  expires_at: string;
}

/** A user's invitation not used yet: until when its link works, and when its email left (null: queued or failed). */
export interface OpenInvitation {
  expiresAt: Date;
  sentAt: Date | null;
}

/**
 * Account passwords, set-password tokens and two-factor sign-in (docs/security.md "Accounts").
 *
 * Account tokens are random 256-bit strings stored only as a keyed hash (HMAC, purpose
 * `account-token`), used once (a conditional update claims them), with an expiry per purpose.
 * `issueToken` is the one way to make one; the team's invitations (`invite`) use it.
 */
@Injectable()
export class AccountService {
  private readonly logger = new Logger(AccountService.name);

  constructor(
    @InjectRepository(UserEntity) private readonly users: Repository<UserEntity>,
    @InjectRepository(AccountTokenEntity) private readonly tokens: Repository<AccountTokenEntity>,
    @InjectRepository(RecoveryCodeEntity) private readonly recoveryCodes: Repository<RecoveryCodeEntity>,
    @InjectRepository(ConsoleSessionEntity) private readonly sessions: Repository<ConsoleSessionEntity>,
    private readonly emails: AccountEmails,
    private readonly crypto: CryptoService,
    private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  // ---- account passwords ------------------------------------------------------------------

  /**
   * The user whose account password `password` is, or null. A login that does not exist or has no
   * account password still costs one scrypt check, so the time does not tell them apart.
   */
  async checkAccountPassword(login: string, password: string): Promise<UserEntity | null> {
    const user = await this.users.findOne({ where: { login } });
    if (!user?.passwordHash) return dummyPasswordCheck(password).then(() => null);
    if (!(await verifyAccountPassword(password, user.passwordHash))) return null;
    if (needsRehash(user.passwordHash)) {
      await this.users.update({ id: user.id, passwordHash: user.passwordHash }, { passwordHash: await hashAccountPassword(password) });
    }
    return user;
  }

  /** Whether the user's account password is `password` (false when they have none). */
  async passwordMatches(user: UserEntity, password: string): Promise<boolean> {
    if (!user.passwordHash) return dummyPasswordCheck(password);
    return verifyAccountPassword(password, user.passwordHash);
  }

  async findUser(userId: number): Promise<UserEntity | null> {
    return this.users.findOne({ where: { id: userId } });
  }

  /** Stores a new account password (scrypt) and ends the user's reset links. */
  async setPassword(userId: number, password: string, manager: EntityManager = this.users.manager, field = 'password'): Promise<void> {
    if (!accountPasswordLengthOk(password)) throw passwordLengthError(field);
    const passwordHash = await hashAccountPassword(password);
    await manager.update(UserEntity, { id: userId }, { passwordHash, passwordChangedAt: this.clock.now() });
    await manager.update(AccountTokenEntity, { userId, purpose: In([...SET_PASSWORD_PURPOSES]), usedAt: IsNull() }, { usedAt: this.clock.now() });
  }

  /**
   * Change password (a signed-in user): the current one must match (when they have one; a user who
   * signed in with an application password and has none sets their first one here). The user's
   * other sessions end; `keepSessionId` stays.
   */
  async changePassword(user: UserEntity, newPassword: string, keepSessionId: number): Promise<void> {
    if (!accountPasswordLengthOk(newPassword)) throw passwordLengthError('new_password');
    await this.users.manager.transaction(async (manager) => {
      await this.setPassword(user.id, newPassword, manager, 'new_password');
      await manager.delete(ConsoleSessionEntity, { userId: user.id, id: Not(keepSessionId) });
    });
    this.logger.log({ user_id: user.id }, 'account password changed; other sessions ended');
  }

  /** Whether any administrator has an account password (a setup link works only while none has). */
  async administratorHasPassword(manager: EntityManager = this.users.manager): Promise<boolean> {
    return manager.exists(UserEntity, { where: { role: ADMINISTRATOR, passwordHash: Not(IsNull()) } });
  }

  // ---- tokens -----------------------------------------------------------------------------

  /**
   * Creates a single-use token for `userId` and returns it (the only time it exists in clear). Pass
   * the manager of the transaction that also writes what sends it (an outbox email).
   */
  async issueToken(
    userId: number,
    purpose: AccountTokenPurpose,
    manager: EntityManager = this.tokens.manager,
    applicationPasswordId: number | null = null,
  ): Promise<{ token: string; id: number; expiresAt: Date }> {
    const token = randomBytes(32).toString('base64url');
    const now = this.clock.now();
    const expiresAt = new Date(now.getTime() + TOKEN_LIFETIME_MS[purpose]);
    const result = await manager.insert(AccountTokenEntity, {
      tokenHash: this.hashToken(token),
      userId,
      purpose,
      applicationPasswordId,
      attempts: 0,
      createdAt: now,
      expiresAt,
      usedAt: null,
    });
    return { token, id: Number(result.identifiers[0].id), expiresAt };
  }

  /**
   * An invitation (for the users API): a 7-day set-password link emailed through the outbox, in
   * `manager`'s transaction (the one that creates the user).
   */
  async sendSetPasswordEmail(manager: EntityManager, userId: number, purpose: EmailedPurpose): Promise<void> {
    const { token, id } = await this.issueToken(userId, purpose, manager);
    await this.emails.schedule(manager, id, purpose, token);
  }

  /**
   * Inside the transaction that creates (or re-invites) the user: the user's earlier invitation
   * links end, a new `invite` token (7 days) is made and its email goes to the outbox.
   */
  async invite(manager: EntityManager, userId: number): Promise<void> {
    await manager.update(AccountTokenEntity, { userId, purpose: 'invite', usedAt: IsNull() }, { usedAt: this.clock.now() });
    await this.sendSetPasswordEmail(manager, userId, 'invite');
  }

  /**
   * Each user's newest invitation not used or ended yet (expired or not), with when its email left
   * (null: still queued, or failed). Users without one are absent.
   */
  async openInvitations(userIds: readonly number[], manager: EntityManager = this.tokens.manager): Promise<Map<number, OpenInvitation>> {
    if (userIds.length === 0) return new Map();
    const rows = await manager.find(AccountTokenEntity, { where: { userId: In([...userIds]), purpose: 'invite', usedAt: IsNull() }, order: { id: 'ASC' } });
    const newest = new Map<number, AccountTokenEntity>();
    for (const row of rows) newest.set(row.userId, row);
    const sent = await this.emails.sentAt(manager, [...newest.values()]);
    return new Map([...newest].map(([userId, row]) => [userId, { expiresAt: row.expiresAt, sentAt: sent.get(row.id) ?? null }]));
  }

  /** In the transaction deleting the user: their account tokens and recovery codes (the foreign keys cascade too; this does not rely on them). */
  async deleteAccountDataOf(manager: EntityManager, userId: number): Promise<void> {
    await manager.delete(AccountTokenEntity, { userId });
    await manager.delete(RecoveryCodeEntity, { userId });
  }

  /** The live, unused set-password token, or 400 `checkout_token_invalid`. */
  async describeSetPasswordToken(token: string): Promise<SetPasswordTokenInfo> {
    const { row, user } = await this.liveSetPasswordToken(token);
    return { purpose: row.purpose as SetPasswordTokenInfo['purpose'], login: user.login, display_name: user.displayName, expires_at: row.expiresAt.toISOString() };
  }

  /**
   * Sets the password a `reset`, `invite` or `setup` token is for: the token is used up, the user's
   * other set-password tokens end, and every session of the user ends (a reset means someone else
   * may know the old password). A setup token also needs that no administrator has an account
   * password yet. Returns the login, for the console to sign in with.
   */
  async setPasswordWithToken(token: string, password: string, profile: { displayName?: string; email?: string } = {}): Promise<{ login: string }> {
    if (!accountPasswordLengthOk(password)) throw passwordLengthError('password');
    const { row, user } = await this.liveSetPasswordToken(token);
    const passwordHash = await hashAccountPassword(password);
    await this.users.manager.transaction(async (manager) => {
      if (row.purpose === 'setup' && (await this.administratorHasPassword(manager))) throw new AccountTokenInvalidError();
      await this.claimToken(manager, row);
      const now = this.clock.now();
      const changes: Partial<UserEntity> = { passwordHash, passwordChangedAt: now };
      if (row.purpose !== 'reset' && profile.displayName) changes.displayName = profile.displayName;
      if (row.purpose !== 'reset' && profile.email) changes.email = profile.email;
      await manager.update(UserEntity, { id: user.id }, changes);
      await manager.update(AccountTokenEntity, { userId: user.id, purpose: In([...SET_PASSWORD_PURPOSES]), usedAt: IsNull() }, { usedAt: now });
      if (row.purpose === 'setup') await manager.update(AccountTokenEntity, { purpose: 'setup', usedAt: IsNull() }, { usedAt: now });
      await manager.delete(ConsoleSessionEntity, { userId: user.id });
    });
    this.logger.log({ user_id: user.id, purpose: row.purpose }, 'account password set with a link; sessions ended');
    return { login: user.login };
  }

  /**
   * A reset request: for the account of that login (or, failing that, the accounts of that email
   * address) a 1-hour link is emailed through the outbox, at most RESET_EMAILS_PER_HOUR per account.
   * The caller answers the same whatever happened here.
   */
  async requestPasswordReset(loginOrEmail: string): Promise<void> {
    let users = await this.users.find({ where: { login: loginOrEmail }, take: 1 });
    if (users.length === 0 && loginOrEmail.includes('@')) users = await this.users.find({ where: { email: loginOrEmail }, order: { id: 'ASC' }, take: 5 });
    const since = new Date(this.clock.now().getTime() - 60 * 60 * 1000);
    for (const user of users) {
      if (!user.email) continue;
      const recent = await this.tokens.count({ where: { userId: user.id, purpose: 'reset', createdAt: MoreThan(since) } });
      if (recent >= RESET_EMAILS_PER_HOUR) {
        this.logger.warn({ user_id: user.id }, 'password reset not sent: the hourly limit of this account is reached');
        continue;
      }
      await this.users.manager.transaction((manager) => this.sendSetPasswordEmail(manager, user.id, 'reset'));
      this.logger.log({ user_id: user.id }, 'password reset link emailed');
    }
  }

  /**
   * Boot: while no administrator has an account password and CHECKOUT_ADMIN_PASSWORD is not set,
   * prints a setup link for `admin` (24 hours, single use; it stops working once any administrator
   * has an account password). Each boot in that state prints a new one.
   */
  async printSetupLinkIfNeeded(): Promise<void> {
    if (this.config.adminPassword !== undefined || (await this.administratorHasPassword())) return;
    const admin = await this.users.findOne({ where: { role: ADMINISTRATOR }, order: { id: 'ASC' } });
    if (!admin) return;
    const { token } = await this.issueToken(admin.id, 'setup');
    process.stdout.write(
      `\nCheckout API: create the administrator's account (user "${admin.login}") in the console within 24 hours:\n` +
        `${setPasswordLink(this.config.publicBaseUrl, token)}\n` +
        'The link works once, and only until an administrator has an account password.\n\n',
    );
  }

  /** Sets CHECKOUT_ADMIN_PASSWORD as the first-boot admin's account password. */
  async setInitialPassword(userId: number, password: string): Promise<void> {
    await this.users.update({ id: userId }, { passwordHash: await hashAccountPassword(password), passwordChangedAt: this.clock.now() });
  }

  // ---- two-factor -------------------------------------------------------------------------

  /** A new secret for the user to enrol (not active until `confirmTwoFactor`): shown once, stored sealed. */
  async startTwoFactor(user: UserEntity): Promise<{ secret: string; otpauth_uri: string }> {
    if (!user.passwordHash) throw new ConflictError('checkout_invalid_state', 'Set an account password first.');
    if (user.twoFactorEnabledAt) throw new ConflictError('checkout_invalid_state', 'Two-factor sign-in is already on. Turn it off first to enrol a new authenticator.');
    const secret = generateTotpSecret();
    await this.users.update({ id: user.id }, { twoFactorPendingSecret: this.crypto.encrypt(secret) });
    return { secret, otpauth_uri: otpauthUri('Checkout', user.login, secret) };
  }

  /** Confirms the enrolment with a code of the new secret: two-factor is on, and the recovery codes are made (returned once). */
  async confirmTwoFactor(user: UserEntity, code: string): Promise<string[]> {
    if (!user.twoFactorPendingSecret || user.twoFactorEnabledAt) throw new ConflictError('checkout_invalid_state', 'Start the enrolment first.');
    const secret = this.crypto.decrypt(user.twoFactorPendingSecret);
    const step = matchTotp(secret, code.trim(), this.clock.now().getTime(), null);
    if (step === null) throw new InvalidParamsError({ code: 'code does not match the new secret: check the time of your device and try the current code' });
    const codes = Array.from({ length: RECOVERY_CODE_COUNT }, () => newRecoveryCode());
    const now = this.clock.now();
    await this.users.manager.transaction(async (manager) => {
      await manager.update(
        UserEntity,
        { id: user.id },
        { twoFactorSecret: user.twoFactorPendingSecret, twoFactorPendingSecret: null, twoFactorEnabledAt: now, twoFactorLastStep: step },
      );
      await manager.delete(RecoveryCodeEntity, { userId: user.id });
      await manager.insert(
        RecoveryCodeEntity,
        codes.map((value) => ({ userId: user.id, codeHash: this.hashRecoveryCode(value), secretKeyId: this.crypto.keyId, createdAt: now, usedAt: null })),
      );
    });
    this.logger.log({ user_id: user.id }, 'two-factor sign-in turned on');
    return codes;
  }

  /**
   * New recovery codes for a user with two-factor sign-in on: the old ones (used or not) are
   * deleted and ten new ones stored hashed, in one transaction; returned once.
   */
  async regenerateRecoveryCodes(user: UserEntity): Promise<string[]> {
    if (!user.twoFactorEnabledAt) throw new ConflictError('checkout_invalid_state', 'Two-factor sign-in is off: there are no recovery codes to renew.');
    const codes = Array.from({ length: RECOVERY_CODE_COUNT }, () => newRecoveryCode());
    const now = this.clock.now();
    await this.users.manager.transaction(async (manager) => {
      await manager.delete(RecoveryCodeEntity, { userId: user.id });
      await manager.insert(
        RecoveryCodeEntity,
        codes.map((value) => ({ userId: user.id, codeHash: this.hashRecoveryCode(value), secretKeyId: this.crypto.keyId, createdAt: now, usedAt: null })),
      );
    });
    this.logger.log({ user_id: user.id }, 'recovery codes renewed');
    return codes;
  }

  /** Whether `code` is the user's current TOTP code (a step not used before; then recorded). Recovery codes are not accepted here. */
  async checkTotp(user: UserEntity, code: string): Promise<boolean> {
    return /^\d{6}$/.test(code.replace(/\s+/g, '')) && this.checkSecondFactor(user, code);
  }

  async disableTwoFactor(user: UserEntity): Promise<void> {
    await this.users.manager.transaction(async (manager) => {
      await manager.update(UserEntity, { id: user.id }, { twoFactorSecret: null, twoFactorPendingSecret: null, twoFactorEnabledAt: null, twoFactorLastStep: null });
      await manager.delete(RecoveryCodeEntity, { userId: user.id });
    });
    this.logger.log({ user_id: user.id }, 'two-factor sign-in turned off');
  }

  /** The user's console language (`en`, `de`), or null to follow the browser's. */
  async setConsoleLocale(user: UserEntity, locale: ConsoleLocale | null): Promise<{ locale: ConsoleLocale | null }> {
    await this.users.update({ id: user.id }, { consoleLocale: locale });
    return { locale };
  }

  async twoFactorStatus(user: UserEntity): Promise<{ enabled: boolean; enabled_at: string | null; recovery_codes_left: number }> {
    const left = user.twoFactorEnabledAt ? await this.recoveryCodes.count({ where: { userId: user.id, usedAt: IsNull() } }) : 0;
    return { enabled: user.twoFactorEnabledAt !== null, enabled_at: user.twoFactorEnabledAt?.toISOString() ?? null, recovery_codes_left: left };
  }

  /**
   * Whether `code` is the user's current TOTP code (a step not used before; it is then recorded) or
   * one of their unused recovery codes (then used up). Each claim is a conditional update, so two
   * requests cannot both use one code.
   */
  async checkSecondFactor(user: UserEntity, code: string): Promise<boolean> {
    if (!user.twoFactorSecret) return false;
    const trimmed = code.replace(/\s+/g, '');
    if (/^\d{6}$/.test(trimmed)) {
      const step = matchTotp(this.crypto.decrypt(user.twoFactorSecret), trimmed, this.clock.now().getTime(), user.twoFactorLastStep);
      if (step === null) return false;
      const claimed = await this.users
        .createQueryBuilder()
        .update(UserEntity)
        .set({ twoFactorLastStep: step })
        .where('id = :id', { id: user.id })
        .andWhere('(two_factor_last_step IS NULL OR two_factor_last_step < :step)', { step })
        .execute();
      return Boolean(claimed.affected);
    }
    const normalised = normaliseRecoveryCode(code);
    if (normalised === null) return false;
    const hashes = this.crypto.hmacCandidates('recovery-code', normalised).map((hash) => hash.toString('hex'));
    const used = await this.recoveryCodes.update({ userId: user.id, codeHash: In(hashes), usedAt: IsNull() }, { usedAt: this.clock.now() });
    if (used.affected) this.logger.log({ user_id: user.id }, 'recovery code used');
    return Boolean(used.affected);
  }

  /**
   * The second sign-in step: the live challenge and its user, after `check` accepted the code.
   * A wrong code counts against the challenge (TWO_FACTOR_ATTEMPTS) and the caller's failed-login limit.
   */
  async redeemChallenge(challenge: string, code: string): Promise<{ user: UserEntity; applicationPasswordId: number | null } | 'wrong_code'> {
    const row = await this.tokens.findOne({ where: { tokenHash: In(this.tokenHashes(challenge)), purpose: 'two_factor' } });
    if (!row || row.usedAt !== null || row.expiresAt.getTime() <= this.clock.now().getTime() || row.attempts >= TWO_FACTOR_ATTEMPTS) {
      throw new TwoFactorChallengeExpiredError();
    }
    const user = await this.users.findOne({ where: { id: row.userId } });
    if (!user?.twoFactorEnabledAt) throw new TwoFactorChallengeExpiredError();
    if (!(await this.checkSecondFactor(user, code))) {
      await this.tokens.increment({ id: row.id }, 'attempts', 1);
      return 'wrong_code';
    }
    await this.claimToken(this.tokens.manager, row).catch(() => {
      throw new TwoFactorChallengeExpiredError();
    });
    return { user, applicationPasswordId: row.applicationPasswordId };
  }

  /** Deletes tokens that ended more than a day ago (a sign-in does this, a batch at a time). */
  async purgeEndedTokens(): Promise<void> {
    const before = new Date(this.clock.now().getTime() - 24 * 60 * 60 * 1000);
    const ended = await this.tokens.find({ select: { id: true }, where: { expiresAt: LessThanOrEqual(before) }, take: 100 });
    if (ended.length > 0) await this.tokens.delete({ id: In(ended.map((row) => row.id)) });
  }

  private async liveSetPasswordToken(token: string): Promise<{ row: AccountTokenEntity; user: UserEntity }> {
    const row = await this.tokens.findOne({ where: { tokenHash: In(this.tokenHashes(token)), purpose: In([...SET_PASSWORD_PURPOSES]) } });
    if (!row || row.usedAt !== null || row.expiresAt.getTime() <= this.clock.now().getTime()) throw new AccountTokenInvalidError();
    if (row.purpose === 'setup' && (await this.administratorHasPassword())) throw new AccountTokenInvalidError();
    const user = await this.users.findOne({ where: { id: row.userId } });
    if (!user) throw new AccountTokenInvalidError();
    return { row, user };
  }

  /** Marks a token used, unless another request did first (then 400 `checkout_token_invalid`). */
  private async claimToken(manager: EntityManager, row: AccountTokenEntity): Promise<void> {
    const result = await manager.update(AccountTokenEntity, { id: row.id, usedAt: IsNull() }, { usedAt: this.clock.now() });
    if (!result.affected) throw new AccountTokenInvalidError();
  }

  private hashToken(token: string): string {
    return this.crypto.hmac('account-token', token).toString('hex');
  }

  /** A token's stored hash under the current secret, then under CHECKOUT_SECRET_PREVIOUS during a rotation. */
  private tokenHashes(token: string): string[] {
    return this.crypto.hmacCandidates('account-token', token).map((hash) => hash.toString('hex'));
  }

  private hashRecoveryCode(code: string): string {
    return this.crypto.hmac('recovery-code', code).toString('hex');
  }
}

/** `xxxxx-xxxxx`: 10 base32 characters (50 bits), lower case, easy to read out and type. */
function newRecoveryCode(): string {
  const raw = base32Encode(randomBytes(7)).slice(0, 10).toLowerCase();
  return `${raw.slice(0, 5)}-${raw.slice(5)}`;
}

/** A typed recovery code in its stored form (dashes, spaces and case ignored), or null when it cannot be one. */
function normaliseRecoveryCode(code: string): string | null {
  const raw = code.replace(/[\s-]+/g, '').toLowerCase();
  if (!/^[a-z2-7]{10}$/.test(raw)) return null;
  return `${raw.slice(0, 5)}-${raw.slice(5)}`;
}
