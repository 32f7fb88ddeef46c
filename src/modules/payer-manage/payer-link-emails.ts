import { Injectable, type OnModuleInit } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { CryptoService } from '../../common/crypto/index.js';
import { escapeHtml } from '../../common/html/index.js';
import { FailureCounter } from '../../common/rate-limit/index.js';
import { RedisConnection } from '../../common/redis/index.js';
import { FormsService } from '../forms/index.js';
import { type EmailMessage, MailService } from '../mail/index.js';
import { Outbox, type OutboxDelivery, type OutboxHandler, OutboxWorker } from '../outbox/index.js';
import { PayerLinks } from '../payer-links/index.js';
import { PaymentQueriesService } from '../payments/index.js';
import { addressKey } from './payer-manage.service.js';

/** The outbox topic of a requested manage link. */
export const PAYER_LINK_EMAILS_TOPIC = 'payer_link_emails';
/** Links one address is sent per window at most (further requests get the same answer and send nothing). */
export const PAYER_LINK_REQUESTS_PER_ADDRESS = 3;
const PAYER_LINK_REQUEST_WINDOW_MS = 60 * 60 * 1000;

interface PayerLinkDue {
  /** The address, sealed (the outbox table holds no address in the clear: a request may name anyone's) */
  sealed_email: string;
}

/**
 * A fresh manage link by email, asked for on `/pay/manage` or from a link too old to act. The answer
 * is the same whether or not the address paid here: the request is written to the outbox (at most
 * PAYER_LINK_REQUESTS_PER_ADDRESS per address an hour, the client's own limit aside), and the
 * worker sends the link only to an address with payments on this site.
 */
@Injectable()
export class PayerLinkEmails implements OnModuleInit, OutboxHandler<PayerLinkDue> {
  readonly topic = PAYER_LINK_EMAILS_TOPIC;
  private readonly perAddress: FailureCounter;

  constructor(
    private readonly links: PayerLinks,
    private readonly crypto: CryptoService,
    private readonly queries: PaymentQueriesService,
    private readonly forms: FormsService,
    private readonly mail: MailService,
    private readonly outbox: Outbox,
    private readonly worker: OutboxWorker,
    private readonly dataSource: DataSource,
    redis: RedisConnection,
  ) {
    this.perAddress = new FailureCounter('payer-link-requests', PAYER_LINK_REQUESTS_PER_ADDRESS, PAYER_LINK_REQUEST_WINDOW_MS, redis);
  }

  onModuleInit(): void {
    this.worker.register(this);
  }

  /** Asks for a link to `email`; says nothing about whether it will be sent. */
  async request(email: string): Promise<void> {
    const key = addressKey(this.crypto, email);
    if ((await this.perAddress.retryAfterSeconds(key)) > 0) return;
    await this.perAddress.record(key);
    await this.outbox.add(this.dataSource.manager, { topic: this.topic, key: `link-${randomUUID()}`, payload: { sealed_email: this.crypto.encrypt(email.trim().toLowerCase()) } satisfies PayerLinkDue });
  }

  async handle(delivery: OutboxDelivery<PayerLinkDue>): Promise<void> {
    const email = this.crypto.decrypt(delivery.payload.sealed_email);
    const [latest] = await this.queries.findByPayerEmail(email, 1);
    if (!latest) return;
    const form = latest.form_id === null ? null : await this.forms.findById(latest.form_id);
    const url = await this.links.manageUrl(email);
    const message: EmailMessage = {
      kind: 'payer',
      from: { name: form?.settings.email.from_name || 'Payments', address: this.mail.fromAddress },
      to: email,
      ...(form ? { replyTo: form.settings.email.email_to } : {}),
      subject: 'Your link to manage your payments',
      text: ['Hello,', '', 'Here is the link you asked for, to see your receipts and manage your subscriptions:', url, '', 'It works for 30 days. If you did not ask for it, you can ignore this email.', ''].join('\n'),
      html: [
        '<!doctype html><html><body style="font-family:system-ui,sans-serif;color:#0f172a">',
        '<p>Hello,</p><p>Here is the link you asked for, to see your receipts and manage your subscriptions:</p>',
        `<p><a href="${escapeHtml(url)}">Manage your payments</a></p>`,
        '<p>It works for 30 days. If you did not ask for it, you can ignore this email.</p></body></html>',
      ].join('\n'),
      messageId: this.mail.messageId(`${delivery.key}.payer-link`),
    };
    await this.mail.send([message]);
  }
}
