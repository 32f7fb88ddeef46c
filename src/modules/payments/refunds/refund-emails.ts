import { Injectable, type OnModuleInit } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { FormsService } from '../../forms/index.js';
import { buildRefundEmail, MailService } from '../../mail/index.js';
import { Outbox, type OutboxDelivery, type OutboxFailure, type OutboxHandler, OutboxWorker } from '../../outbox/index.js';
import { PayerLinks } from '../../payer-links/index.js';
import { InstallationService, SettingsService } from '../../settings/index.js';
import { PaymentLogRepository } from '../payment-log.repository.js';
import { PaymentRepository } from '../payment.repository.js';
import { RefundRepository } from './refund.repository.js';

/** The outbox topic of a succeeded refund's payer email. */
export const REFUND_EMAILS_TOPIC = 'refund_emails';

interface RefundEmailDue {
  refund_id: number;
}

/**
 * The payer's email about a succeeded refund (made here or read from the provider), written to the
 * outbox in the transaction that marks the refund succeeded, as the completion emails are: a crash
 * delays it, never loses it; a stable Message-ID per refund. Form-less records and records without
 * a payer email send nothing.
 */
@Injectable()
export class RefundEmails implements OnModuleInit, OutboxHandler<RefundEmailDue> {
  readonly topic = REFUND_EMAILS_TOPIC;

  constructor(
    private readonly forms: FormsService,
    private readonly mail: MailService,
    private readonly logs: PaymentLogRepository,
    private readonly payments: PaymentRepository,
    private readonly refunds: RefundRepository,
    private readonly outbox: Outbox,
    private readonly worker: OutboxWorker,
    private readonly installation: InstallationService,
    private readonly links: PayerLinks,
    private readonly settings: SettingsService,
  ) {}

  onModuleInit(): void {
    this.worker.register(this);
  }

  /** Inside the transaction that marks the refund succeeded. */
  async schedule(manager: EntityManager, refundId: number): Promise<void> {
    await this.outbox.add(manager, { topic: this.topic, key: `refund-${refundId}`, payload: { refund_id: refundId } satisfies RefundEmailDue });
  }

  messageId(refundId: number): string {
    return this.mail.messageId(`refund-${refundId}.payer.${this.installation.id()}`);
  }

  async handle(delivery: OutboxDelivery<RefundEmailDue>): Promise<void> {
    const refund = await this.refunds.findById(delivery.payload.refund_id);
    const payment = refund ? await this.payments.findById(refund.paymentId) : null;
    const form = payment?.formId ? await this.forms.findById(payment.formId) : null;
    if (!refund || !payment || !form || !payment.emailAddress) return;
    const message = buildRefundEmail(
      form,
      {
        payment_id: payment.id,
        refund_amount: refund.amount,
        currency: refund.currency,
        email_address: payment.emailAddress,
        first_name: payment.firstName,
        full: payment.amountRefunded >= (payment.amountReceived ?? 0),
        refunded_at: refund.updatedAt.toISOString(),
      },
      { fromAddress: this.mail.fromAddress, manageUrl: await this.links.manageUrl(payment.emailAddress), locale: payment.locale ?? (await this.settings.payerLanguage()) },
    );
    await this.mail.send([{ ...message, messageId: this.messageId(refund.id) }]);
    await this.logs.record({
      paymentId: payment.id,
      level: 'info',
      event: 'refund_email_sent',
      message: `Refund email sent for refund ${refund.id}.`,
      context: { refund_id: refund.id, attempt: delivery.attempt, message_id: this.messageId(refund.id) },
    });
  }

  async attemptFailed(delivery: OutboxDelivery<RefundEmailDue>, failure: OutboxFailure): Promise<void> {
    const refund = await this.refunds.findById(delivery.payload.refund_id);
    if (!refund) return;
    await this.logs.record({
      paymentId: refund.paymentId,
      level: 'warning',
      event: 'refund_email_failed',
      message: `The refund email could not be sent (attempt ${delivery.attempt} of ${delivery.maxAttempts}).`,
      context: { refund_id: refund.id, attempt: delivery.attempt, next_attempt_at: failure.nextAttemptAt?.toISOString() ?? null, reason: failure.reason },
    });
  }
}
