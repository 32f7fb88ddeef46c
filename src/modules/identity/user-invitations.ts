import { Inject, Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { InjectRepository } from '@nestjs/typeorm';
import { type EntityManager, IsNull, MoreThan, Repository } from 'typeorm';
import { Clock } from '../../common/clock/index.js';
import { CryptoService } from '../../common/crypto/index.js';
import { escapeHtml } from '../../common/html/index.js';
import { APP_CONFIG, type AppConfig } from '../../config/index.js';
import { type EmailMessage, MailService } from '../mail/index.js';
import { Outbox, type OutboxDelivery, type OutboxHandler, OutboxWorker } from '../outbox/index.js';
import { UserInvitationEntity } from './user-invitation.entity.js';
import { UserEntity } from './user.entity.js';

/** The outbox topic of invitation emails. */
export const USER_INVITATIONS_TOPIC = 'user_invitations';
/** How long an invitation's set-password link works. */
export const INVITATION_VALIDITY_MS = 7 * 24 * 60 * 60 * 1000;
/** The console's page the link opens; the token rides in the fragment, which no server, log or Referer sees. */
export const SET_PASSWORD_PATH = '/admin/set-password';

interface InvitationDue {
  invitation_id: number;
}

/** A valid invitation token's user, for the set-password page (docs/administration.md, "Team"). */
export interface InvitedUser {
  userId: number;
  login: string;
  displayName: string;
  expiresAt: Date;
}

/**
 * Invitations of new teammates: the row is written with the user, the email through the outbox.
 *
 * The token is made when the email is written, never before: only its keyed hash is stored (on the
 * invitation row, replacing any earlier one), so neither the outbox nor the database ever holds a
 * token in clear. A retry after a failed send makes a new token (the failed one never left); a
 * crash after sending and before the outbox mark sends a second email whose link replaces the
 * first's. The link is `{PUBLIC_BASE_URL}/admin/set-password#invitation=<token>`.
 *
 * The set-password route (issue 30's accounts part) reads a token with `find` and spends it with
 * `consume`, inside the transaction that sets the password: single use, 7 days.
 */
@Injectable()
export class UserInvitations implements OnModuleInit, OutboxHandler<InvitationDue> {
  readonly topic = USER_INVITATIONS_TOPIC;
  private readonly logger = new Logger(UserInvitations.name);

  constructor(
    @InjectRepository(UserInvitationEntity) private readonly invitations: Repository<UserInvitationEntity>,
    private readonly outbox: Outbox,
    private readonly worker: OutboxWorker,
    private readonly mail: MailService,
    private readonly crypto: CryptoService,
    private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  onModuleInit(): void {
    this.worker.register(this);
  }

  /**
   * Inside the transaction that creates (or re-invites) the user: a new invitation, valid 7 days,
   * and its email in the outbox. Earlier unused invitations of the user stop working.
   */
  async open(manager: EntityManager, userId: number, invitedBy: number | null): Promise<UserInvitationEntity> {
    await manager.delete(UserInvitationEntity, { userId, usedAt: IsNull() });
    const now = this.clock.now();
    const invitation = await manager.save(
      manager.create(UserInvitationEntity, { userId, invitedBy, tokenHash: null, createdAt: now, sentAt: null, expiresAt: new Date(now.getTime() + INVITATION_VALIDITY_MS), usedAt: null }),
    );
    await this.outbox.add(manager, { topic: this.topic, key: `invitation-${invitation.id}`, payload: { invitation_id: invitation.id } satisfies InvitationDue });
    return invitation;
  }

  /** The user's invitation not used yet (expired or not), or null. */
  openInvitationOf(manager: EntityManager, userId: number): Promise<UserInvitationEntity | null> {
    return manager.findOne(UserInvitationEntity, { where: { userId, usedAt: IsNull() }, order: { id: 'DESC' } });
  }

  /** Whose invitation a token is, while it is unused and unexpired; null otherwise (the same for any failure). */
  async find(manager: EntityManager, token: string): Promise<InvitedUser | null> {
    if (!/^[A-Za-z0-9_-]{43}$/.test(token)) return null;
    const invitation = await manager.findOne(UserInvitationEntity, { where: { tokenHash: this.hashToken(token), usedAt: IsNull(), expiresAt: MoreThan(this.clock.now()) } });
    if (!invitation) return null;
    const user = await manager.findOne(UserEntity, { where: { id: invitation.userId } });
    return user ? { userId: user.id, login: user.login, displayName: user.displayName, expiresAt: invitation.expiresAt } : null;
  }

  /**
   * Spends a token: marks its invitation used, once (a conditional update, so two requests with the
   * same token cannot both succeed). Call it in the transaction that sets the password; null when
   * the token is unknown, used, replaced or expired.
   */
  async consume(manager: EntityManager, token: string): Promise<InvitedUser | null> {
    const invited = await this.find(manager, token);
    if (!invited) return null;
    const now = this.clock.now();
    const result = await manager.update(UserInvitationEntity, { tokenHash: this.hashToken(token), usedAt: IsNull(), expiresAt: MoreThan(now) }, { usedAt: now });
    return result.affected === 1 ? invited : null;
  }

  async handle(delivery: OutboxDelivery<InvitationDue>): Promise<void> {
    const manager = this.invitations.manager;
    const invitation = await manager.findOne(UserInvitationEntity, { where: { id: delivery.payload.invitation_id } });
    // Used, replaced by a newer invitation, deleted with its user, or expired: nothing to send.
    if (!invitation || invitation.usedAt !== null || invitation.expiresAt.getTime() <= this.clock.now().getTime()) return;
    const user = await manager.findOne(UserEntity, { where: { id: invitation.userId } });
    if (!user) return;
    const inviter = invitation.invitedBy === null ? null : await manager.findOne(UserEntity, { where: { id: invitation.invitedBy } });
    const token = randomBytes(32).toString('base64url');
    await manager.update(UserInvitationEntity, { id: invitation.id }, { tokenHash: this.hashToken(token), sentAt: this.clock.now() });
    await this.mail.send([
      {
        ...buildInvitationEmail({
          to: user.email,
          displayName: user.displayName,
          login: user.login,
          role: user.role,
          inviter: inviter?.displayName ?? null,
          link: `${this.config.publicBaseUrl}${SET_PASSWORD_PATH}#invitation=${token}`,
          expiresAt: invitation.expiresAt,
          fromAddress: this.mail.fromAddress,
          site: new URL(this.config.publicBaseUrl).host,
        }),
        messageId: this.mail.messageId(`invitation-${invitation.id}.${delivery.attempt}`),
      },
    ]);
    this.logger.log({ user_id: user.id, invitation_id: invitation.id }, 'invitation email sent');
  }

  private hashToken(token: string): string {
    return this.crypto.hmac('user-invitation', token).toString('hex');
  }
}

export interface InvitationEmailFacts {
  to: string;
  displayName: string;
  login: string;
  role: string;
  inviter: string | null;
  link: string;
  expiresAt: Date;
  fromAddress: string;
  site: string;
}

/** The invitation email: who invited whom to which site as what, the link, and until when it works. */
export function buildInvitationEmail(facts: InvitationEmailFacts): EmailMessage {
  const who = facts.inviter ? `${facts.inviter} invited you` : 'You are invited';
  const until = `${facts.expiresAt.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
  const text = [
    `Hello ${facts.displayName},`,
    '',
    `${who} to the payments console of ${facts.site} as ${facts.role}. Your login is ${facts.login}.`,
    '',
    `Choose your password here (the link works once, until ${until}):`,
    facts.link,
    '',
    'If you did not expect this email, ignore it: nothing happens without the link.',
  ].join('\n');
  const html =
    `<p>Hello ${escapeHtml(facts.displayName)},</p>` +
    `<p>${escapeHtml(who)} to the payments console of ${escapeHtml(facts.site)} as ${escapeHtml(facts.role)}. Your login is <strong>${escapeHtml(facts.login)}</strong>.</p>` +
    `<p><a href="${escapeHtml(facts.link)}">Choose your password</a> (the link works once, until ${escapeHtml(until)}).</p>` +
    '<p>If you did not expect this email, ignore it: nothing happens without the link.</p>';
  return { kind: 'admin', from: { name: facts.site, address: facts.fromAddress }, to: facts.to, subject: `Your invitation to the payments console of ${facts.site}`, text, html };
}
