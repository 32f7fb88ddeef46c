import { Injectable, type OnModuleInit } from '@nestjs/common';
import { ApiProperty } from '@nestjs/swagger';
import { Clock } from '../../common/clock/index.js';
import { NotFoundError } from '../../common/errors/index.js';
import { FormsService, type Frequency } from '../forms/index.js';
import { buildReceiptEmail, MailService } from '../mail/index.js';
import { Outbox, type OutboxDelivery, type OutboxFailure, type OutboxHandler, OutboxWorker } from '../outbox/index.js';
import { PayerLinks } from '../payer-links/index.js';
import { InstallationService, SettingsService } from '../settings/index.js';
import { InvalidPaymentStateError } from './payment-ledger.service.js';
import { PaymentLogRepository } from './payment-log.repository.js';
import { type PaymentRecord, toPaymentRecord } from './payment-record.js';
import { PaymentTransactions } from './payment-transactions.js';
import { PaymentRepository } from './payment.repository.js';

/** The outbox topic of a receipt sent again on the merchant's request. */
export const RECEIPT_EMAILS_TOPIC = 'receipt_emails';

/** A second request this soon after one (a double click, a retry) queues nothing more. */
export const RECEIPT_RESEND_WINDOW_MS = 60_000;

interface ReceiptDue {
  payment_id: number;
  /** Who asked (a user id), for the log */
  user_id: number;
}

/** POST /administration/payments/{id}/receipt */
export class ReceiptResendAnswerDto {
  @ApiProperty({ example: true })
  success: boolean;

  @ApiProperty({ description: 'In the merchant’s words', example: 'The receipt is on its way to ada@example.com.' })
  message: string;

  @ApiProperty({ type: 'integer', example: 42 })
  payment_id: number;

  @ApiProperty({ description: 'Where it goes: the payer’s address', example: 'ada@example.com' })
  email_address: string;

  @ApiProperty({ description: 'false when the same receipt was asked for less than a minute or two before: nothing more is sent', example: true })
  queued: boolean;
}

/**
 * The payer's receipt sent again from the console (issue 31 item 3; docs/admin-console.md): the
 * merchant's name, the form, the amount, the payment reference, the provider's reference and the
 * payer's manage link. The request writes an outbox item (no money moves, no provider is called);
 * its key is the payment and the minute, and a request while the previous minute's item exists
 * queues nothing, so a double click sends one email. Only a completed payment of a form with a
 * payer address has a receipt (409 otherwise).
 */
@Injectable()
export class ReceiptEmails implements OnModuleInit, OutboxHandler<ReceiptDue> {
  readonly topic = RECEIPT_EMAILS_TOPIC;

  constructor(
    private readonly forms: FormsService,
    private readonly mail: MailService,
    private readonly logs: PaymentLogRepository,
    private readonly payments: PaymentRepository,
    private readonly transactions: PaymentTransactions,
    private readonly outbox: Outbox,
    private readonly worker: OutboxWorker,
    private readonly installation: InstallationService,
    private readonly links: PayerLinks,
    private readonly settings: SettingsService,
    private readonly clock: Clock,
  ) {}

  onModuleInit(): void {
    this.worker.register(this);
  }

  /** Queues the payer's receipt of payment `paymentId`, asked by user `userId`. */
  async resend(paymentId: number, userId: number): Promise<ReceiptResendAnswerDto> {
    const row = await this.payments.findById(paymentId);
    if (!row) throw new NotFoundError('Payment');
    const payment = toPaymentRecord(row);
    const email = receiptAddress(payment);
    const window = Math.floor(this.clock.now().getTime() / RECEIPT_RESEND_WINDOW_MS);
    const key = `receipt-${paymentId}-${window}`;
    const queued = await this.transactions.run(async (manager) => {
      // The payment's row lock serialises two clicks on MySQL/MariaDB (SQLite runs one transaction at a time).
      await this.payments.lockById(manager, paymentId);
      const recent = await this.outbox.statusOf(manager, this.topic, [key, `receipt-${paymentId}-${window - 1}`]);
      if (recent.size > 0) return false;
      await this.outbox.add(manager, { topic: this.topic, key, payload: { payment_id: paymentId, user_id: userId } satisfies ReceiptDue });
      await this.logs.record({ paymentId, level: 'info', event: 'receipt_requested', message: `User ${userId} asked for the receipt to be sent again.`, context: { user_id: userId } }, manager);
      return true;
    });
    return {
      success: true,
      message: queued ? `The receipt is on its way to ${email}.` : `The receipt was already sent to ${email} a moment ago; nothing more was sent.`,
      payment_id: paymentId,
      email_address: email,
      queued,
    };
  }

  messageId(due: ReceiptDue, attemptKey: string): string {
    return this.mail.messageId(`receipt-${due.payment_id}-${attemptKey}.payer.${this.installation.id()}`);
  }

  async handle(delivery: OutboxDelivery<ReceiptDue>): Promise<void> {
    const row = await this.payments.findById(delivery.payload.payment_id);
    const payment = row ? toPaymentRecord(row) : null;
    const form = payment?.form_id ? await this.forms.findById(payment.form_id) : null;
    if (!payment || !form || !payment.email_address) return;
    const message = buildReceiptEmail(
      form,
      {
        payment_id: payment.id,
        amount: payment.amount_received ?? payment.amount,
        currency: payment.currency,
        frequency: payment.frequency as Frequency,
        amount_refunded: payment.amount_refunded,
        email_address: payment.email_address,
        first_name: payment.first_name,
        provider_reference: providerReference(payment),
        paid_at: payment.created_at,
        manage_url: await this.links.manageUrl(payment.email_address),
      },
      { fromAddress: this.mail.fromAddress, locale: row!.locale ?? (await this.settings.payerLanguage()) },
    );
    const messageId = this.messageId(delivery.payload, delivery.key);
    await this.mail.send([{ ...message, messageId }]);
    await this.logs.record({
      paymentId: payment.id,
      level: 'info',
      event: 'receipt_sent',
      message: 'Receipt sent to the payer.',
      context: { user_id: delivery.payload.user_id, attempt: delivery.attempt, message_id: messageId },
    });
  }

  async attemptFailed(delivery: OutboxDelivery<ReceiptDue>, failure: OutboxFailure): Promise<void> {
    await this.logs.record({
      paymentId: delivery.payload.payment_id,
      level: 'warning',
      event: 'receipt_failed',
      message: `The receipt could not be sent (attempt ${delivery.attempt} of ${delivery.maxAttempts}).`,
      context: { attempt: delivery.attempt, next_attempt_at: failure.nextAttemptAt?.toISOString() ?? null, reason: failure.reason },
    });
  }
}

/** The payer's address of a payment that has a receipt; 409 otherwise. */
function receiptAddress(payment: PaymentRecord): string {
  if (payment.form_id === null) throw new InvalidPaymentStateError('This payment was not made with a form, so it has no receipt to send.');
  if (!payment.email_address) throw new InvalidPaymentStateError('This payment has no payer email address to send a receipt to.');
  if (payment.status !== 'completed') throw new InvalidPaymentStateError(`A ${payment.status} payment has no receipt: only a completed payment has one.`);
  return payment.email_address;
}

/** The provider's id of what took the money: a capture, the charge (a PaymentIntent), else the payment's own object. */
function providerReference(payment: PaymentRecord): string | null {
  return payment.provider_capture_ref ?? payment.provider_charge_ref ?? payment.provider_payment_ref;
}
