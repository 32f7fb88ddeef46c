import { Injectable, type OnModuleInit } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { type EntityManager, In, IsNull, MoreThanOrEqual, Not, Repository } from 'typeorm';
import { FormsService, type Frequency, type PaymentForm } from '../forms/index.js';
import { buildRenewalEndedEmail, buildRenewalFailedEmail, MailService } from '../mail/index.js';
import { Outbox, type OutboxDelivery, type OutboxFailure, type OutboxHandler, OutboxWorker } from '../outbox/index.js';
import { PayerLinks } from '../payer-links/index.js';
import { InstallationService, SettingsService } from '../settings/index.js';
import { PaymentLogRepository } from './payment-log.repository.js';
import { type PaymentRecord, toPaymentRecord } from './payment-record.js';
import { PaymentEntity } from './payment.entity.js';
import { PaymentRepository } from './payment.repository.js';

/** A renewal still unpaid, as the dashboard lists it. */
export interface UnpaidRenewal {
  renewal_id: number;
  payment_id: number;
  /** Minor units of `currency` */
  amount: number;
  currency: string;
  invoice: string | null;
  failed_at: string;
  /** The subscription's status at the provider (`past_due`, `unpaid`, `canceled`…) */
  subscription_status: string | null;
}

/** How far back the dashboard looks for unpaid renewals (the provider's retries end within it). */
const UNPAID_RENEWAL_WINDOW_MS = 30 * 24 * 3600_000;

/** The outbox topic of the payer's failed-renewal emails (one per failed attempt, one when the provider gives up). */
export const RENEWAL_NOTICES_TOPIC = 'renewal_notices';

/** A failed payment attempt of a renewal invoice, as the provider counts it. */
export interface RenewalAttempt {
  /** The provider's attempt count (≥ 1) */
  count: number;
  /** When the provider tries again; null when it does not */
  nextAttemptAt: Date | null;
}

/** The subscription statuses that mean the provider gave up on an unpaid invoice, after `past_due`. */
const GAVE_UP: readonly string[] = ['canceled', 'unpaid'];

type RenewalNoticeDue =
  | { kind: 'failed'; payment_id: number; renewal_id: number; invoice: string; attempt: number; next_attempt_at: string | null }
  | { kind: 'ended'; payment_id: number; status: string };

/**
 * The payer's emails about a subscription whose renewal is not paid (docs/payments.md, "Failed
 * renewals"; docs/decisions.md §23). Written to the outbox in the ledger's transaction that records
 * what the provider said, under a key that makes each one once:
 * - `renewal-failed-{invoice}-{attempt}`: a failed attempt of a renewal invoice (the provider's
 *   `attempt_count`), so a redelivered event, or the subscription update that follows it, writes
 *   nothing more, and the next failed attempt of the same invoice is told again;
 * - `renewal-ended-{payment}`: the provider gave up (`past_due` → `canceled` or `unpaid`), once per
 *   subscription.
 * The payment log of the subscription's payment says each one (`renewal_payment_failed`,
 * `renewal_given_up`) at that moment, whether or not the email is sent: the form's
 * `email.renewal_failure_emails: false` turns the emails off (read when sending). The email carries
 * the payer's manage link (`PayerLinks`) to update the card.
 */
@Injectable()
export class RenewalNotices implements OnModuleInit, OutboxHandler<RenewalNoticeDue> {
  readonly topic = RENEWAL_NOTICES_TOPIC;

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
    @InjectRepository(PaymentEntity) private readonly entities: Repository<PaymentEntity>,
  ) {}

  onModuleInit(): void {
    this.worker.register(this);
  }

  /**
   * In the transaction that recorded a failed renewal `renewal` of `parent` (the parent's row
   * locked): the payer's email is due and the log says it, once per invoice attempt.
   */
  async failed(manager: EntityManager, parent: PaymentRecord, renewal: PaymentRecord, invoiceRef: string, attempt: RenewalAttempt): Promise<void> {
    const key = `renewal-failed-${invoiceRef}-${attempt.count}`;
    if (!(await this.isNew(manager, key))) return;
    const next = attempt.nextAttemptAt?.toISOString() ?? null;
    await this.logs.record(
      {
        paymentId: parent.id,
        level: 'warning',
        event: 'renewal_payment_failed',
        message: `Renewal payment ${renewal.id} failed (attempt ${attempt.count}); ${next ? `the provider tries again at ${next}` : 'the provider makes no further attempt'}.`,
        context: { renewal_id: renewal.id, invoice: invoiceRef, attempt: attempt.count, next_attempt_at: next, amount: renewal.amount, currency: renewal.currency },
      },
      manager,
    );
    if (parent.form_id === null || !parent.email_address) return;
    await this.outbox.add(manager, {
      topic: this.topic,
      key,
      payload: { kind: 'failed', payment_id: parent.id, renewal_id: renewal.id, invoice: invoiceRef, attempt: attempt.count, next_attempt_at: next } satisfies RenewalNoticeDue,
    });
  }

  /**
   * In the transaction that stores a subscription status (the row locked, `previous` read under
   * the lock): the provider gave up when a `past_due` subscription becomes `canceled` or `unpaid`.
   */
  async statusChanged(manager: EntityManager, payment: PaymentRecord, previous: string | null, status: string): Promise<void> {
    if (previous !== 'past_due' || !GAVE_UP.includes(status)) return;
    const key = `renewal-ended-${payment.id}`;
    if (!(await this.isNew(manager, key))) return;
    await this.logs.record(
      {
        paymentId: payment.id,
        level: 'warning',
        event: 'renewal_given_up',
        message: `The provider stopped trying to collect the renewal: the subscription went from past_due to ${status}.`,
        context: { status },
      },
      manager,
    );
    if (payment.form_id === null || !payment.email_address) return;
    await this.outbox.add(manager, { topic: this.topic, key, payload: { kind: 'ended', payment_id: payment.id, status } satisfies RenewalNoticeDue });
  }

  /** Whether no item of `key` was written (items are kept 30 days after sending). */
  private async isNew(manager: EntityManager, key: string): Promise<boolean> {
    return !(await this.outbox.statusOf(manager, this.topic, [key])).has(key);
  }

  /**
   * The newest renewals still failed (created in the last 30 days, so read through the status and
   * creation index), with their subscription's status: the dashboard's notifications.
   */
  async unpaidRenewals(limit: number, now: Date): Promise<UnpaidRenewal[]> {
    const renewals = await this.entities.find({
      select: { id: true, parentPaymentId: true, amount: true, currency: true, providerPaymentRef: true, createdAt: true },
      where: { status: 'failed', createdAt: MoreThanOrEqual(new Date(now.getTime() - UNPAID_RENEWAL_WINDOW_MS)), parentPaymentId: Not(IsNull()) },
      order: { createdAt: 'DESC', id: 'DESC' },
      take: limit,
    });
    if (renewals.length === 0) return [];
    const parents = await this.entities.find({ select: { id: true, subscriptionStatus: true }, where: { id: In([...new Set(renewals.map((row) => row.parentPaymentId!))]) } });
    const status = new Map(parents.map((parent) => [parent.id, parent.subscriptionStatus]));
    return renewals.map((row) => ({
      renewal_id: row.id,
      payment_id: row.parentPaymentId!,
      amount: row.amount,
      currency: row.currency,
      invoice: row.providerPaymentRef,
      failed_at: row.createdAt.toISOString(),
      subscription_status: status.get(row.parentPaymentId!) ?? null,
    }));
  }

  messageId(due: RenewalNoticeDue): string {
    const what = due.kind === 'failed' ? `renewal-failed-${due.renewal_id}-${due.attempt}` : `renewal-ended-${due.payment_id}`;
    return this.mail.messageId(`${what}.payer.${this.installation.id()}`);
  }

  async handle(delivery: OutboxDelivery<RenewalNoticeDue>): Promise<void> {
    const due = delivery.payload;
    const row = await this.payments.findById(due.payment_id);
    const payment = row ? toPaymentRecord(row) : null;
    const form = payment?.form_id ? await this.forms.findById(payment.form_id) : null;
    if (!payment || !form || !payment.email_address) return;
    if (!sendsRenewalEmails(form)) {
      await this.logs.record({ paymentId: payment.id, level: 'info', event: 'renewal_email_off', message: "The payer's failed-renewal email is not sent: the form's setting turns it off.", context: { kind: due.kind } });
      return;
    }
    const base = { payment_id: payment.id, currency: payment.currency, frequency: payment.frequency as Frequency, email_address: payment.email_address, first_name: payment.first_name };
    const manageUrl = await this.links.manageUrl(payment.email_address);
    const options = { fromAddress: this.mail.fromAddress, locale: row!.locale ?? (await this.settings.payerLanguage()) };
    const message =
      due.kind === 'failed'
        ? buildRenewalFailedEmail(
            form,
            {
              ...base,
              amount: await this.renewalAmount(due.renewal_id, payment.amount),
              invoice_reference: due.invoice,
              attempt: due.attempt,
              next_attempt_at: due.next_attempt_at,
              manage_url: manageUrl,
            },
            options,
          )
        : buildRenewalEndedEmail(form, { ...base, amount: payment.amount, status: due.status, manage_url: manageUrl }, options);
    const messageId = this.messageId(due);
    await this.mail.send([{ ...message, messageId }]);
    await this.logs.record({
      paymentId: payment.id,
      level: 'info',
      event: 'renewal_email_sent',
      message: due.kind === 'failed' ? `Failed-renewal email sent to the payer (attempt ${due.attempt}).` : 'The payer was told the subscription payment was given up.',
      context: { kind: due.kind, attempt: delivery.attempt, message_id: messageId },
    });
  }

  async attemptFailed(delivery: OutboxDelivery<RenewalNoticeDue>, failure: OutboxFailure): Promise<void> {
    await this.logs.record({
      paymentId: delivery.payload.payment_id,
      level: 'warning',
      event: 'renewal_email_failed',
      message: `The failed-renewal email could not be sent (attempt ${delivery.attempt} of ${delivery.maxAttempts}).`,
      context: { kind: delivery.payload.kind, attempt: delivery.attempt, next_attempt_at: failure.nextAttemptAt?.toISOString() ?? null, reason: failure.reason },
    });
  }

  private async renewalAmount(renewalId: number, fallback: number): Promise<number> {
    return (await this.payments.findById(renewalId))?.amount ?? fallback;
  }
}

/** A form sends failed-renewal emails unless its `email.renewal_failure_emails` is false. */
export function sendsRenewalEmails(form: Pick<PaymentForm, 'settings'>): boolean {
  return form.settings.email.renewal_failure_emails !== false;
}
