import { Injectable, type OnModuleInit } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { FormsService, type Frequency } from '../forms/index.js';
import { buildPaymentEmails, MailService } from '../mail/index.js';
import { Outbox, type OutboxDelivery, type OutboxFailure, type OutboxHandler, OutboxWorker } from '../outbox/index.js';
import { PayerLinks } from '../payer-links/index.js';
import { InstallationService, SettingsService } from '../settings/index.js';
import { PaymentLogRepository } from './payment-log.repository.js';
import { type PaymentRecord, toPaymentRecord } from './payment-record.js';
import { PaymentRepository } from './payment.repository.js';

/** The outbox topic of a completed payment's emails. */
export const PAYMENT_EMAILS_TOPIC = 'payment_emails';

interface PaymentEmailsDue {
  payment_id: number;
  /** When the payment became completed (ISO 8601 UTC): the email's date of the payment. */
  completed_at: string;
}

/**
 * The form's owner notification and payer confirmation of a payment that first becomes completed
 * (the same builder the test-email route uses). "Emails due" is an outbox item written in the
 * transaction that completes the payment, so a crash after that commit delays the emails and
 * never loses them; the outbox worker sends them, retries a failure with backoff and gives up
 * after OUTBOX_MAX_ATTEMPTS. Each email carries a stable Message-ID (installation, payment,
 * kind), so the one resend a crash between sending and marking can cause is recognisable, and
 * an email already sent is not sent again by a retry of the other. The outcome is in the
 * payment log (`emails_sent` / `emails_failed`). Form-less records (admin charges) and records
 * without a payer email send nothing.
 */
@Injectable()
export class PaymentCompletionEmails implements OnModuleInit, OutboxHandler<PaymentEmailsDue> {
  readonly topic = PAYMENT_EMAILS_TOPIC;

  constructor(
    private readonly forms: FormsService,
    private readonly mail: MailService,
    private readonly logs: PaymentLogRepository,
    private readonly payments: PaymentRepository,
    private readonly outbox: Outbox,
    private readonly worker: OutboxWorker,
    private readonly installation: InstallationService,
    private readonly links: PayerLinks,
    private readonly settings: SettingsService,
  ) {}

  onModuleInit(): void {
    this.worker.register(this);
  }

  /** Inside the transaction that completes `payment` (`manager` is its): the emails are due once it commits. */
  async schedule(manager: EntityManager, payment: PaymentRecord): Promise<void> {
    if (payment.form_id === null || !payment.email_address) return;
    await this.outbox.add(manager, { topic: this.topic, key: `payment-${payment.id}`, payload: { payment_id: payment.id, completed_at: payment.updated_at } satisfies PaymentEmailsDue });
  }

  /** Resolves once every email due now has been attempted (tests). */
  settled(): Promise<void> {
    return this.worker.drain();
  }

  /** `<payment-42.admin.{installation id}@{host of PUBLIC_BASE_URL}>`: the same for every attempt. */
  messageId(paymentId: number, kind: string): string {
    return this.mail.messageId(`payment-${paymentId}.${kind}.${this.installation.id()}`);
  }

  async handle(delivery: OutboxDelivery<PaymentEmailsDue>): Promise<void> {
    const { payment_id: paymentId, completed_at: completedAt } = delivery.payload;
    const row = await this.payments.findById(paymentId);
    const payment = row ? toPaymentRecord(row) : null;
    const form = payment?.form_id ? await this.forms.findById(payment.form_id) : null;
    if (!payment || !form || !payment.email_address) return;
    const plan = payment.plan_index === null ? undefined : form.settings.plans[payment.plan_index];
    const messages = buildPaymentEmails(
      form,
      {
        payment_id: payment.id,
        amount: payment.amount,
        currency: payment.currency,
        frequency: payment.frequency as Frequency,
        plan_title: plan?.title ?? null,
        plan_index: plan ? payment.plan_index : null,
        gateway: payment.gateway,
        payment_method: payment.payment_method,
        mode: payment.mode,
        email_address: payment.email_address,
        first_name: payment.first_name,
        last_name: payment.last_name,
        custom_fields: payment.custom_fields,
        completed_at: completedAt,
      },
      { fromAddress: this.mail.fromAddress, manageUrl: await this.links.manageUrl(payment.email_address), locale: row!.locale ?? (await this.settings.payerLanguage()) },
    );
    for (const message of messages) {
      if (delivery.progress.includes(message.kind)) continue;
      await this.mail.send([{ ...message, messageId: this.messageId(payment.id, message.kind) }]);
      await delivery.stepDone(message.kind);
    }
    const kinds = messages.map((message) => message.kind);
    await this.logs.record({
      paymentId,
      level: 'info',
      event: 'emails_sent',
      message: `Payment emails sent: ${kinds.join(', ')}.`,
      context: { kinds, attempt: delivery.attempt, message_ids: kinds.map((kind) => this.messageId(paymentId, kind)) },
    });
  }

  async attemptFailed(delivery: OutboxDelivery<PaymentEmailsDue>, failure: OutboxFailure): Promise<void> {
    const { attempt, maxAttempts } = delivery;
    const retry = failure.nextAttemptAt ? `next attempt at ${failure.nextAttemptAt.toISOString()}` : 'no further attempt';
    await this.logs.record({
      paymentId: delivery.payload.payment_id,
      level: 'warning',
      event: 'emails_failed',
      message: `The payment emails could not be sent (attempt ${attempt} of ${maxAttempts}; ${retry}).`,
      context: { attempt, max_attempts: maxAttempts, next_attempt_at: failure.nextAttemptAt?.toISOString() ?? null, sent_kinds: [...delivery.progress], reason: failure.reason },
    });
  }
}
