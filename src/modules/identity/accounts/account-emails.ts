import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import type { EntityManager, Repository } from 'typeorm';
import { Clock } from '../../../common/clock/index.js';
import { CryptoService } from '../../../common/crypto/index.js';
import { escapeHtml } from '../../../common/html/index.js';
import { APP_CONFIG, type AppConfig } from '../../../config/index.js';
import { type EmailMessage, MailService } from '../../mail/index.js';
import { Outbox, type OutboxDelivery, type OutboxHandler, OutboxWorker } from '../../outbox/index.js';
import { UserEntity } from '../user.entity.js';
import { AccountTokenEntity } from './account-token.entity.js';

/** The outbox topic of the emails that carry a set-password link (reset, invitation). */
export const ACCOUNT_EMAILS_TOPIC = 'account_emails';

export type EmailedPurpose = 'reset' | 'invite';

interface AccountEmailDue {
  token_id: number;
  purpose: EmailedPurpose;
  /** The link's token, sealed with the installation's key: the outbox table never holds it readable. */
  sealed_token: string;
}

function emailKey(tokenId: number): string {
  return `account-token-${tokenId}`;
}

/** The console's set-password screen for a token; the token travels in the fragment, which no server or log sees. */
export function setPasswordLink(publicBaseUrl: string, token: string): string {
  return `${publicBaseUrl}/admin/set-password#token=${token}`;
}

/**
 * Emails with a set-password link, written to the outbox in the transaction that creates the token
 * (a crash delays the email, never loses it). The token is sealed in the item; the handler opens it
 * only to write the email, and sends nothing for a token that was used or has expired meanwhile.
 */
@Injectable()
export class AccountEmails implements OnModuleInit, OutboxHandler<AccountEmailDue> {
  readonly topic = ACCOUNT_EMAILS_TOPIC;

  constructor(
    @InjectRepository(AccountTokenEntity) private readonly tokens: Repository<AccountTokenEntity>,
    @InjectRepository(UserEntity) private readonly users: Repository<UserEntity>,
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

  /** Inside the transaction that created the token row `tokenId`. */
  async schedule(manager: EntityManager, tokenId: number, purpose: EmailedPurpose, token: string): Promise<void> {
    await this.outbox.add(manager, {
      topic: this.topic,
      key: emailKey(tokenId),
      payload: { token_id: tokenId, purpose, sealed_token: this.crypto.encrypt(token) } satisfies AccountEmailDue,
    });
  }

  /**
   * When the emails of these tokens left: the outbox's finish time of a sent item, null while it is
   * queued or after it failed. An item purged some time after it was sent counts as sent when the
   * token was made (the outbox keeps no other trace of it).
   */
  async sentAt(manager: EntityManager, tokens: readonly { id: number; createdAt: Date }[]): Promise<Map<number, Date | null>> {
    const items = await this.outbox.statusOf(manager, this.topic, tokens.map((token) => emailKey(token.id)));
    return new Map(
      tokens.map((token) => {
        const item = items.get(emailKey(token.id));
        if (!item) return [token.id, token.createdAt];
        return [token.id, item.status === 'sent' ? item.finishedAt : null];
      }),
    );
  }

  async handle(delivery: OutboxDelivery<AccountEmailDue>): Promise<void> {
    const row = await this.tokens.findOne({ where: { id: delivery.payload.token_id } });
    if (!row || row.usedAt !== null || row.expiresAt.getTime() <= this.clock.now().getTime()) return;
    const user = await this.users.findOne({ where: { id: row.userId } });
    if (!user) return;
    const link = setPasswordLink(this.config.publicBaseUrl, this.crypto.decrypt(delivery.payload.sealed_token));
    const message = buildAccountEmail(delivery.payload.purpose, { login: user.login, displayName: user.displayName, email: user.email, link }, this.mail.fromAddress);
    await this.mail.send([{ ...message, messageId: this.mail.messageId(`account-token-${row.id}`) }]);
  }
}

/** The email of a reset or an invitation: plain words, the link, what to do when it was not asked for. */
export function buildAccountEmail(
  purpose: EmailedPurpose,
  user: { login: string; displayName: string; email: string; link: string },
  fromAddress: string,
): EmailMessage {
  const lines =
    purpose === 'reset'
      ? {
          subject: 'Reset your Checkout password',
          body: [
            `Hello ${user.displayName},`,
            `Someone asked to reset the password of your Checkout account (login: ${user.login}).`,
            'Open this link within one hour to choose a new password:',
          ],
          after: 'If you did not ask for this, ignore this email: your password stays as it is.',
        }
      : {
          subject: 'You are invited to Checkout',
          body: [`Hello ${user.displayName},`, `An account on Checkout was created for you (login: ${user.login}).`, 'Open this link within 7 days to choose your password:'],
          after: 'If you did not expect this, ignore this email.',
        };
  const text = [...lines.body, user.link, lines.after].join('\n\n');
  const html =
    lines.body.map((line) => `<p>${escapeHtml(line)}</p>`).join('') +
    `<p><a href="${escapeHtml(user.link)}">${escapeHtml(lines.subject)}</a></p><p>${escapeHtml(lines.after)}</p>`;
  // 'admin': to a person of the site's team (not a payer).
  return { kind: 'admin', from: { name: 'Checkout', address: fromAddress }, to: user.email, subject: lines.subject, text, html };
}
