import { Inject, Injectable, Logger, type OnModuleDestroy } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { Transporter } from 'nodemailer';
import { DomainError } from '../../common/errors/index.js';
import { ensurePrivateDirAsync, PRIVATE_FILE_MODE } from '../../common/storage/index.js';
import { APP_CONFIG, type AppConfig } from '../../config/index.js';
import type { PaymentForm } from '../forms/index.js';
import { buildPaymentEmails, type EmailMessage, type PaymentEmailFacts } from './payment-email.builder.js';

export type MailTransportKind = 'smtp' | 'outbox';

export interface SentEmail {
  kind: EmailMessage['kind'];
  to: string;
  subject: string;
  message_id: string;
  /** File name under `<DATA_DIR>/outbox/` when no SMTP server is configured */
  outbox_file?: string;
}

export class MailDeliveryError extends DomainError {
  constructor() {
    super('checkout_mail_failed', 502, 'The mail server could not be reached or refused the message.');
  }
}

/**
 * Sends email through nodemailer: SMTP when SMTP_URL is set, otherwise each message is written as
 * an `.eml` file to `<DATA_DIR>/outbox/`, so a new install can open what it would have sent.
 */
@Injectable()
export class MailService implements OnModuleDestroy {
  private readonly logger = new Logger(MailService.name);
  private smtp: Transporter | null = null;
  private outbox: Transporter | null = null;

  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  get transportKind(): MailTransportKind {
    return this.config.smtpUrl ? 'smtp' : 'outbox';
  }

  get outboxDir(): string {
    return resolve(join(this.config.dataDir, 'outbox'));
  }

  /** Sender address of the site: `checkout@<host of PUBLIC_BASE_URL>`. */
  get fromAddress(): string {
    return `checkout@${new URL(this.config.publicBaseUrl).hostname}`;
  }

  /** A Message-ID of this site: `<{localPart}@{host of PUBLIC_BASE_URL}>` (`localPart` a dot-atom). */
  messageId(localPart: string): string {
    return `<${localPart}@${new URL(this.config.publicBaseUrl).hostname}>`;
  }

  /**
   * The emails a completed payment of `form` sends (see buildPaymentEmails), built and sent. Payment
   * completion and the builder's test email both come through here.
   */
  async sendPaymentEmails(form: Pick<PaymentForm, 'id' | 'title' | 'settings'>, payment: PaymentEmailFacts, subjectPrefix?: string): Promise<SentEmail[]> {
    return this.send(buildPaymentEmails(form, payment, { fromAddress: this.fromAddress, subjectPrefix }));
  }

  /** Sends the messages in order; the first failure stops and is a 502 `checkout_mail_failed`. */
  async send(messages: EmailMessage[]): Promise<SentEmail[]> {
    const sent: SentEmail[] = [];
    for (const message of messages) sent.push(await this.sendOne(message));
    return sent;
  }

  /** Connects to the SMTP server and authenticates (no message sent): for `doctor`. False without SMTP_URL. */
  async verifySmtp(): Promise<boolean> {
    if (this.transportKind !== 'smtp') return false;
    await this.smtpTransport().verify();
    return true;
  }

  async onModuleDestroy(): Promise<void> {
    this.smtp?.close();
    this.outbox?.close();
  }

  private async sendOne(message: EmailMessage): Promise<SentEmail> {
    const options = { from: message.from, to: message.to, replyTo: message.replyTo, subject: message.subject, text: message.text, html: message.html, messageId: message.messageId };
    const result: SentEmail = { kind: message.kind, to: message.to, subject: message.subject, message_id: '' };
    if (this.transportKind === 'smtp') {
      try {
        const info = (await this.smtpTransport().sendMail(options)) as { messageId: string };
        result.message_id = info.messageId;
      } catch (error) {
        // The SMTP URL may carry credentials: log the failure, never the URL.
        this.logger.error({ err: { message: (error as Error).message, code: (error as { code?: string }).code } }, 'SMTP delivery failed');
        throw new MailDeliveryError();
      }
    } else {
      const info = (await this.outboxTransport().sendMail(options)) as { messageId: string; message: Buffer };
      const file = `${new Date().toISOString().replace(/[:.]/g, '-')}-${message.kind}-${randomUUID().slice(0, 8)}.eml`;
      // Messages hold payer names and emails: a 0700 outbox (when created here) of 0600 files.
      await ensurePrivateDirAsync(this.outboxDir);
      await writeFile(join(this.outboxDir, file), info.message, { mode: PRIVATE_FILE_MODE, flag: 'wx' });
      result.message_id = info.messageId;
      result.outbox_file = file;
    }
    this.logger.log({ kind: message.kind, transport: this.transportKind, message_id: result.message_id }, 'email sent');
    return result;
  }

  private smtpTransport(): Transporter {
    this.smtp ??= nodemailer().createTransport({ url: this.config.smtpUrl, connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 20_000 });
    return this.smtp;
  }

  private outboxTransport(): Transporter {
    this.outbox ??= nodemailer().createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
    return this.outbox;
  }
}

/**
 * nodemailer, loaded when the first email is sent or SMTP is verified: most processes never send
 * one, and loading it costs boot time and memory (docs/benchmarks.md).
 */
function nodemailer(): typeof import('nodemailer') {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded on first use on purpose (see above)
  return require('nodemailer') as typeof import('nodemailer');
}
