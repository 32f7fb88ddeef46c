import { Injectable } from '@nestjs/common';
import { isDuplicateKeyError } from '../../../database/index.js';
import type { GatewayMode } from '../../gateways/index.js';
import {
  InvalidPaymentStateError,
  isTerminal,
  MAX_INT,
  PaymentAftermathService,
  PaymentLedgerService,
  type PaymentPatch,
  PaymentQueriesService,
  type PaymentRecord,
  type PaymentStatus,
  type TransitionOutcome,
} from '../../payments/index.js';
import { RecordNotReadyError } from '../webhook.errors.js';
import type { EffectResult, PaymentLookup, PaymentSubject, Verdict, WebhookAction } from './webhook-action.js';

/** What the applier needs of an event for its log lines. */
export interface ActionEvent {
  /** Who asks, for the ledger: `webhook:<provider>` */
  source: string;
  type: string;
  /** The callback's mode (null on section B's route) */
  mode: GatewayMode | null;
  /** The event's payment-log context, for a record of `mode` */
  context(mode: GatewayMode | null): Record<string, unknown>;
}

type Tied = { payment: PaymentRecord } | { settled: EffectResult };

/**
 * The one place provider events change payments (docs/decisions.md §8, docs/architecture.md): a
 * source's `WebhookAction` is tied to its record, checked, and applied through
 * `PaymentLedgerService`, and every outcome (`processed`, `ignored`, `rejected`) with its log line
 * is written here. Nothing an event says is applied before its record is found, is of the
 * event's gateway and mode, and holds the provider object the event is about. Every effect is
 * idempotent and monotone (the status machine never moves a record backwards; renewals are one
 * row per invoice), so an event applied twice, or late, changes nothing more.
 */
@Injectable()
export class WebhookActionApplier {
  constructor(
    private readonly ledger: PaymentLedgerService,
    private readonly payments: PaymentQueriesService,
    private readonly aftermath: PaymentAftermathService,
  ) {}

  async apply(action: WebhookAction, event: ActionEvent): Promise<EffectResult> {
    if (action.kind === 'nothing_to_do') {
      if (!action.logged) return { status: 'ignored', paymentId: null, reason: action.why };
      return this.ignore(event, action.why ?? 'nothing to do');
    }
    const tied = await this.tie(action.subject, event);
    if ('settled' in tied) return tied.settled;
    const { payment } = tied;
    const verdict = action.verify?.(payment) ?? (action.prepare ? await action.prepare(payment) : null);
    if (verdict) return this.settle(event, payment, verdict);

    switch (action.kind) {
      case 'payment_succeeded': {
        const patch: PaymentPatch = { amountReceived: action.amountReceived };
        if (action.providerCaptureRef !== undefined) patch.providerCaptureRef = action.providerCaptureRef;
        // A provider call where the slice needs one, before the ledger's transaction.
        const chargeRef = action.providerChargeRef ? await action.providerChargeRef(payment) : null;
        if (chargeRef) patch.providerChargeRef = chargeRef;
        const card = action.card ? await action.card(payment) : null;
        if (card) Object.assign(patch, { cardBrand: card.brand, cardLast4: card.last4 });
        return this.move(event, payment, 'completed', patch);
      }
      case 'payment_failed':
        return this.move(event, payment, 'failed', action.reason ? { failureReason: action.reason } : {});
      case 'payment_processing':
      case 'setup_succeeded':
        return this.move(event, payment, 'processing', {});
      case 'payment_canceled':
        return this.move(event, payment, 'canceled', {});
      case 'subscription_renewed':
        return this.renew(event, payment, action);
      case 'subscription_state_changed':
        return this.subscriptionState(event, payment, action);
      case 'aftermath_changed': {
        // Nothing the event says is applied: only what the provider answers when asked again.
        const found = await action.reread(payment);
        if (!found) return { status: 'ignored', paymentId: payment.id, reason: 'the provider holds nothing to read for it' };
        await this.aftermath.apply(found, event.source);
        return { status: 'processed', paymentId: payment.id };
      }
    }
  }

  // --- tying an event to its record ---------------------------------------------------------------

  private async tie(subject: PaymentSubject, event: ActionEvent): Promise<Tied> {
    const payment = await this.find(subject.find, subject.of?.gateway);
    if (!payment) {
      if (subject.unknown === 'ignored') return { settled: await this.ignore(event, 'names no known payment') };
      return { settled: await this.unknownPayment(event) };
    }
    const reject = async (why: string): Promise<Tied> => ({ settled: await this.reject(event, payment, why) });
    if (subject.of && (payment.gateway !== subject.of.gateway || payment.mode !== subject.of.mode)) {
      return reject(`the record is a ${payment.gateway} ${payment.mode} payment`);
    }
    if (subject.subscriptionPayment) {
      if (payment.frequency === 'one-time') return reject('the record is not a subscription payment');
      if (payment.parent_payment_id !== null) return reject('the record is a renewal, not the subscription payment');
    }
    const holds = subject.holds;
    if (holds) {
      const stored = payment[holds.field];
      if (holds.ref !== null && stored === holds.ref) return { payment };
      if (stored || holds.ref === null) return reject(holds.other);
      if (holds.whenNone === 'retry' && !isTerminal(payment.status)) throw new RecordNotReadyError();
      return reject(holds.none);
    }
    return { payment };
  }

  private find(lookup: PaymentLookup, gateway: string | undefined): Promise<PaymentRecord | null> {
    if ('paymentId' in lookup) return this.payments.findById(lookup.paymentId);
    if ('transactionId' in lookup) return this.payments.findByTransactionId(lookup.transactionId);
    if (!gateway) throw new Error('A provider reference names a record only together with its gateway.');
    if ('providerPaymentRef' in lookup) return this.payments.findByProviderRef(gateway, lookup.providerPaymentRef);
    if ('providerCaptureRef' in lookup) return this.payments.findByCaptureRef(gateway, lookup.providerCaptureRef);
    return this.payments.findSubscriptionPayment(gateway, lookup.subscriptionRef);
  }

  // --- effects ------------------------------------------------------------------------------------

  private async move(event: ActionEvent, payment: PaymentRecord, to: PaymentStatus, patch: PaymentPatch): Promise<EffectResult> {
    // The record, as just read, already is what the event says (a repeat): applied at that read,
    // with no transaction or lock (nothing to write; what a later writer does comes after it).
    if (this.ledger.changesNothing(payment, to, patch)) return { status: 'processed', paymentId: payment.id };
    let outcome: TransitionOutcome;
    let from: PaymentStatus;
    try {
      ({ outcome, from } = await this.ledger.transition(payment.id, to, { source: event.source, reason: event.type, patch, tolerateRefusal: true }));
    } catch (error) {
      // The provider id in the patch is already linked to another record.
      if (!isDuplicateKeyError(error)) throw error;
      return this.reject(event, payment, patch.providerCaptureRef ? 'the capture is linked to another payment' : 'the provider reference is linked to another payment');
    }
    if (outcome === 'applied' || outcome === 'unchanged') return { status: 'processed', paymentId: payment.id };
    return { status: 'ignored', paymentId: payment.id, reason: `a ${from} payment does not become ${to}` };
  }

  /** A later invoice: one renewal row of its own, with the amount it charged, in the subscription's currency. */
  private async renew(event: ActionEvent, payment: PaymentRecord, action: Extract<WebhookAction, { kind: 'subscription_renewed' }>): Promise<EffectResult> {
    // A provider call where the slice needs one, before the ledger's transaction.
    const fee = action.applicationFee ? await action.applicationFee(payment) : null;
    const chargeRef = action.providerChargeRef ? await action.providerChargeRef(payment) : null;
    try {
      const renewal = await this.ledger.recordRenewal(payment.id, {
        invoiceRef: action.invoiceRef,
        amount: action.amount,
        currency: action.currency,
        status: action.status,
        applicationFeeAmount: fee !== null && isStorableAmount(fee) ? fee : null,
        providerChargeRef: chargeRef,
        ...(action.failedAttempt ? { failedAttempt: action.failedAttempt } : {}),
        source: event.source,
      });
      if (renewal.outcome === 'ignored' || renewal.outcome === 'refused') {
        return { status: 'ignored', paymentId: renewal.payment.id, reason: `the renewal is already ${renewal.payment.status}` };
      }
      return { status: 'processed', paymentId: renewal.payment.id };
    } catch (error) {
      if (!(error instanceof InvalidPaymentStateError)) throw error;
      return this.reject(event, payment, error.message);
    }
  }

  /** Stored with the first payment unless the slice's event order says newer news was stored already. */
  private async subscriptionState(event: ActionEvent, payment: PaymentRecord, action: Extract<WebhookAction, { kind: 'subscription_state_changed' }>): Promise<EffectResult> {
    const { status, schedule, isCurrent } = action;
    const patch = { subscriptionStatus: status, ...(schedule ? { subscriptionCancelAtPeriodEnd: schedule.atPeriodEnd, subscriptionCancelsAt: schedule.cancelsAt } : {}) };
    const result = await this.ledger.recordProviderDetailsIf(payment.id, patch, event.source, isCurrent);
    if (result.applied) return { status: 'processed', paymentId: payment.id };
    await this.ledger.log({
      paymentId: payment.id,
      level: 'info',
      event: 'webhook_out_of_order',
      message: `${event.type} (${status}) is older than the subscription status already stored; ignored.`,
      context: event.context(event.mode),
    });
    return { status: 'ignored', paymentId: payment.id, reason: 'older than the subscription status already stored' };
  }

  // --- outcomes (the one copy of reject / ignore) ---------------------------------------------------

  private settle(event: ActionEvent, payment: PaymentRecord, verdict: NonNullable<Verdict>): Promise<EffectResult> | EffectResult {
    if ('reject' in verdict) return this.reject(event, payment, verdict.reject, verdict.details);
    return { status: 'ignored', paymentId: payment.id, reason: verdict.ignore };
  }

  /** The event disagrees with the record it names: logged, the record untouched. */
  private async reject(event: ActionEvent, payment: PaymentRecord, why: string, details: Record<string, unknown> = {}): Promise<EffectResult> {
    await this.ledger.log({
      paymentId: payment.id,
      level: 'warning',
      event: 'webhook_contract_mismatch',
      message: `${event.type} not applied: ${why}.`,
      context: { ...event.context(payment.mode), ...details },
    });
    return { status: 'rejected', paymentId: payment.id, reason: why };
  }

  private async ignore(event: ActionEvent, why: string): Promise<EffectResult> {
    await this.ledger.log({ paymentId: null, level: 'info', event: 'webhook_ignored', message: `${event.type} ignored: ${why}.`, context: event.context(event.mode) });
    return { status: 'ignored', paymentId: null, reason: why };
  }

  private async unknownPayment(event: ActionEvent): Promise<EffectResult> {
    await this.ledger.log({ paymentId: null, level: 'warning', event: 'webhook_unknown_payment', message: `${event.type} names no known payment; ignored.`, context: event.context(event.mode) });
    return { status: 'ignored', paymentId: null, reason: 'names no known payment' };
  }
}

/** Amounts the payment's integer columns can hold (a provider may send more). */
export function isStorableAmount(amount: number): boolean {
  return amount >= 0 && amount <= MAX_INT;
}
