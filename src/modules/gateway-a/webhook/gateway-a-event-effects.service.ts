import { Injectable } from '@nestjs/common';
import { DomainError } from '../../../common/errors/index.js';
import { isDuplicateKeyError } from '../../../database/index.js';
import type { GatewayMode } from '../../gateways/index.js';
import {
  InvalidPaymentStateError,
  isTerminal,
  MAX_INT,
  PaymentLedgerService,
  type PaymentPatch,
  PaymentQueriesService,
  type PaymentRecord,
  type PaymentStatus,
  type TransitionOutcome,
} from '../../payments/index.js';
import { InstallationScope } from '../client/installation-scope.js';
import type { EffectResult } from '../../webhooks/index.js';
import { isRecurring } from '../client/recurring-interval.js';
import { GatewayASubscriptionsService } from '../checkout/gateway-a-subscriptions.service.js';
import { type GatewayAEvent, idField, integerField, invoiceSubscription, type JsonObject, metadataInstallationId, metadataPaymentId, stringField } from './gateway-a-event.js';
import { SubscriptionStateRepository } from './subscription-state.repository.js';
import type { GatewayAWebhookEvent } from './webhook-contract.js';

const GATEWAY = 'gateway_a';
const SOURCE = 'webhook:gateway_a';

/** The record field that holds the provider id of the event's object. */
type RefField = 'provider_payment_ref' | 'provider_subscription_ref';

/** The record an event is about, or the answer already given (ignored, rejected). */
type Located = { payment: PaymentRecord } | { settled: EffectResult };

/**
 * 503: the event is this installation's and names a subscription payment that does not hold the
 * subscription yet: its creation (`ensureSubscription`) is still being recorded. The provider's
 * redelivery finds it recorded.
 */
export class EventNotReadyError extends DomainError {
  constructor() {
    super('checkout_unavailable', 503, 'The payment this event is about is not ready for it yet; deliver it again later.');
  }
}

/**
 * The effects of the 12 contract events on payment records (docs/decisions.md §8). Nothing an event says
 * is trusted until it is tied to an object this installation created (hardening issue):
 * - its metadata carries this installation's id (two sites on one gateway account receive each
 *   other's signed events, and their payment ids collide) — otherwise `ignored`;
 * - the record it names is a gateway-A payment of the event's mode and holds that very object
 *   (intent, setup intent or subscription id) — otherwise `rejected` (a record that holds no
 *   object yet is never given one by an event);
 * - amounts and currencies equal the record's: a payment intent's amount and currency, a first
 *   invoice's recurring amount plus setup fee, a renewal's currency; every amount fits the
 *   record's columns — otherwise `rejected`.
 * Every effect is idempotent and monotone (the status machine never moves a record backwards;
 * renewals are one row per invoice; subscription statuses only move forward in event time), so an
 * event applied twice, or late, changes nothing more. Gateway calls (`ensureSubscription`) happen
 * outside transactions.
 */
@Injectable()
export class GatewayAEventEffectsService {
  constructor(
    private readonly ledger: PaymentLedgerService,
    private readonly payments: PaymentQueriesService,
    private readonly subscriptions: GatewayASubscriptionsService,
    private readonly states: SubscriptionStateRepository,
    private readonly scope: InstallationScope,
  ) {}

  apply(type: GatewayAWebhookEvent, event: GatewayAEvent, mode: GatewayMode): Promise<EffectResult> {
    switch (type) {
      case 'payment_intent.succeeded':
        return this.paymentIntent(event, mode, 'completed');
      case 'payment_intent.processing':
        return this.paymentIntent(event, mode, 'processing');
      case 'payment_intent.payment_failed':
        return this.paymentIntent(event, mode, 'failed');
      case 'payment_intent.canceled':
        return this.paymentIntent(event, mode, 'canceled');
      case 'setup_intent.succeeded':
        return this.setupIntentSucceeded(event, mode);
      case 'setup_intent.setup_failed':
        return this.setupIntent(event, mode, 'failed');
      case 'setup_intent.canceled':
        return this.setupIntent(event, mode, 'canceled');
      case 'invoice.paid':
        return this.invoice(event, mode, 'completed');
      case 'invoice.payment_failed':
        return this.invoice(event, mode, 'failed');
      case 'customer.subscription.created':
      case 'customer.subscription.updated':
      case 'customer.subscription.deleted':
        return this.subscription(event, mode);
    }
  }

  // --- payment and setup intents ------------------------------------------------------------------

  private async paymentIntent(event: GatewayAEvent, mode: GatewayMode, to: PaymentStatus): Promise<EffectResult> {
    const intent = event.object;
    const located = await this.locateIntent(event, mode, intent);
    if ('settled' in located) return located.settled;
    const { payment } = located;

    const amount = integerField(intent, 'amount');
    const currency = stringField(intent, 'currency')?.toUpperCase() ?? null;
    if (amount !== payment.amount || currency !== payment.currency) {
      return this.reject(event, payment, 'amount or currency differs from the record', { event_amount: amount, event_currency: currency });
    }
    const patch: PaymentPatch = {};
    if (to === 'completed') {
      const received = integerField(intent, 'amount_received') ?? amount;
      if (!inRange(received)) return this.reject(event, payment, 'amount_received is out of range');
      patch.amountReceived = received;
    }
    return this.move(event, payment, to, patch);
  }

  private async setupIntent(event: GatewayAEvent, mode: GatewayMode, to: PaymentStatus): Promise<EffectResult> {
    const located = await this.locateIntent(event, mode, event.object);
    if ('settled' in located) return located.settled;
    if (!isRecurring(located.payment.frequency)) return this.reject(event, located.payment, 'a setup intent does not pay a one-time payment');
    return this.move(event, located.payment, to, {});
  }

  /**
   * A subscription gets its subscription now (the payer may never come back to the checkout
   * route) and then waits, processing, for its first invoice. A SetupIntent of a one-time record
   * is not ours to act on: it charged nothing, so it must never complete the payment.
   */
  private async setupIntentSucceeded(event: GatewayAEvent, mode: GatewayMode): Promise<EffectResult> {
    const located = await this.locateIntent(event, mode, event.object);
    if ('settled' in located) return located.settled;
    const { payment } = located;
    if (!isRecurring(payment.frequency)) {
      return this.reject(event, payment, 'a setup intent cannot pay a one-time payment');
    }
    if (!isTerminal(payment.status) && !payment.provider_subscription_ref) {
      try {
        // A gateway call: no transaction is open here. A gateway failure (502) leaves the event
        // unfinished, so the provider's redelivery tries again.
        await this.subscriptions.ensureSubscription(payment);
      } catch (error) {
        if (!(error instanceof InvalidPaymentStateError)) throw error;
        return this.reject(event, payment, `the subscription cannot be created: ${error.message}`);
      }
    }
    return this.move(event, payment, 'processing', {});
  }

  /** The record an intent event is about; it must hold the intent and, when both are known, its customer. */
  private async locateIntent(event: GatewayAEvent, mode: GatewayMode, intent: JsonObject): Promise<Located> {
    const intentId = stringField(intent, 'id');
    if (!intentId) return { settled: await this.ignore(event, mode, 'the intent has no id') };
    const located = await this.locate(event, mode, intent.metadata, 'provider_payment_ref', intentId, () => this.payments.findByProviderRef(GATEWAY, intentId));
    if ('settled' in located) return located;
    const customer = idField(intent, 'customer');
    const storedCustomer = located.payment.provider_customer_ref;
    if (customer && storedCustomer && customer !== storedCustomer) return { settled: await this.reject(event, located.payment, 'the customer differs from the record') };
    return located;
  }

  // --- invoices -----------------------------------------------------------------------------------

  /**
   * The first invoice (`billing_reason: subscription_create`) completes or fails the subscription's
   * payment when it charges exactly the recurring amount plus the setup fee. Any later invoice is a
   * renewal row of its own with the amount it charged (a price changed at the gateway still
   * charged that), in the subscription's currency. The subscription status is left to the
   * subscription events.
   */
  private async invoice(event: GatewayAEvent, mode: GatewayMode, to: 'completed' | 'failed'): Promise<EffectResult> {
    const invoice = event.object;
    const invoiceId = stringField(invoice, 'id');
    const { subscriptionRef, metadata } = invoiceSubscription(invoice);
    if (!invoiceId || !subscriptionRef) return this.ignore(event, mode, 'the invoice belongs to no subscription');
    const located = await this.locateSubscription(event, mode, metadata, subscriptionRef);
    if ('settled' in located) return located.settled;
    const { payment } = located;

    const currency = stringField(invoice, 'currency')?.toUpperCase() ?? null;
    const amount = integerField(invoice, to === 'completed' ? 'amount_paid' : 'amount_due');
    if (amount === null || !currency) return this.reject(event, payment, 'the invoice has no amount or currency');
    if (!inRange(amount)) return this.reject(event, payment, 'the invoice amount is out of range', { event_amount: amount });
    if (currency !== payment.currency) return this.reject(event, payment, 'the invoice currency differs from the record', { event_currency: currency });

    if (stringField(invoice, 'billing_reason') === 'subscription_create') {
      const firstCharge = payment.amount + (payment.setup_amount ?? 0);
      if (amount !== firstCharge) return this.reject(event, payment, 'the first invoice amount differs from the record', { event_amount: amount });
      return this.move(event, payment, to, to === 'completed' ? { amountReceived: amount } : {});
    }

    // The invoice carries no fee at the pinned API version: read it from the invoice's payment
    // (a gateway call, before the ledger's transaction).
    const applicationFeeAmount = boundedOrNull(await this.subscriptions.renewalFee(payment, invoiceId));
    try {
      const renewal = await this.ledger.recordRenewal(payment.id, {
        invoiceRef: invoiceId,
        amount,
        currency,
        status: to,
        applicationFeeAmount,
        source: SOURCE,
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

  // --- subscriptions ------------------------------------------------------------------------------

  /**
   * Stores the subscription's status with its first payment, unless an event created later was
   * applied already (one row per subscription keeps the last applied event's time).
   */
  private async subscription(event: GatewayAEvent, mode: GatewayMode): Promise<EffectResult> {
    const subscription = event.object;
    const subscriptionRef = stringField(subscription, 'id');
    const status = stringField(subscription, 'status');
    if (!subscriptionRef || !status || status.length > 30) return this.ignore(event, mode, 'the subscription has no id or status');
    const located = await this.locateSubscription(event, mode, subscription.metadata, subscriptionRef);
    if ('settled' in located) return located.settled;
    const { payment } = located;

    const facts = { gateway: GATEWAY, subscriptionRef, paymentId: payment.id, status, eventId: event.id, eventCreatedAt: new Date(event.created * 1000) };
    const result = await this.ledger.recordProviderDetailsIf(payment.id, { subscriptionStatus: status }, SOURCE, (manager) => this.states.claimIfCurrent(manager, facts));
    if (result.applied) return { status: 'processed', paymentId: payment.id };
    await this.ledger.log({
      paymentId: payment.id,
      level: 'info',
      event: 'webhook_out_of_order',
      message: `${event.type} (${status}) is older than the subscription status already stored; ignored.`,
      context: this.context(event, mode),
    });
    return { status: 'ignored', paymentId: payment.id, reason: 'older than the subscription status already stored' };
  }

  /** The first payment of a subscription; one that holds no subscription yet is still being recorded (503, retry). */
  private locateSubscription(event: GatewayAEvent, mode: GatewayMode, metadata: unknown, subscriptionRef: string): Promise<Located> {
    return this.locate(event, mode, metadata, 'provider_subscription_ref', subscriptionRef, () => this.payments.findSubscriptionPayment(GATEWAY, subscriptionRef));
  }

  // --- shared -------------------------------------------------------------------------------------

  /**
   * The record an event's object belongs to: the one named by `metadata.checkout_payment_id`
   * (else the one holding the object's id), provided the metadata carries this installation's id
   * and the record is a gateway-A payment of `mode` that holds exactly this object.
   */
  private async locate(
    event: GatewayAEvent,
    mode: GatewayMode,
    metadata: unknown,
    refField: RefField,
    ref: string,
    byRef: () => Promise<PaymentRecord | null>,
  ): Promise<Located> {
    if (metadataInstallationId(metadata) !== this.scope.id) {
      return { settled: await this.ignore(event, mode, 'the object was not created by this installation') };
    }
    const namedId = metadataPaymentId(metadata);
    const payment = namedId !== null ? await this.payments.findById(namedId) : await byRef();
    if (!payment) return { settled: await this.unknownPayment(event, mode) };
    if (payment.gateway !== GATEWAY || payment.mode !== mode) {
      return { settled: await this.reject(event, payment, `the record is a ${payment.gateway} ${payment.mode} payment`) };
    }
    if (refField === 'provider_subscription_ref') {
      if (!isRecurring(payment.frequency)) return { settled: await this.reject(event, payment, 'the record is not a subscription payment') };
      if (payment.parent_payment_id !== null) return { settled: await this.reject(event, payment, 'the record is a renewal, not the subscription payment') };
    }
    const stored = payment[refField];
    if (stored === ref) return { payment };
    if (stored) return { settled: await this.reject(event, payment, `the record holds another ${refField}`) };
    // A subscription is created (and then stored) by this service; its first events can overtake
    // the write. Intents are stored before the payer can act on them, so one missing is not ours.
    if (refField === 'provider_subscription_ref' && !isTerminal(payment.status)) throw new EventNotReadyError();
    return { settled: await this.reject(event, payment, `the record holds no ${refField}`) };
  }

  private async move(event: GatewayAEvent, payment: PaymentRecord, to: PaymentStatus, patch: PaymentPatch): Promise<EffectResult> {
    let outcome: TransitionOutcome;
    try {
      ({ outcome } = await this.ledger.transition(payment.id, to, { source: SOURCE, reason: event.type, patch, tolerateRefusal: true }));
    } catch (error) {
      // The provider id in the patch is already linked to another record.
      if (!isDuplicateKeyError(error)) throw error;
      return this.reject(event, payment, 'the provider reference is linked to another payment');
    }
    if (outcome === 'applied' || outcome === 'unchanged') return { status: 'processed', paymentId: payment.id };
    return { status: 'ignored', paymentId: payment.id, reason: `a ${payment.status} payment does not become ${to}` };
  }

  private async reject(event: GatewayAEvent, payment: PaymentRecord, why: string, details: Record<string, unknown> = {}): Promise<EffectResult> {
    await this.ledger.log({
      paymentId: payment.id,
      level: 'warning',
      event: 'webhook_contract_mismatch',
      message: `${event.type} not applied: ${why}.`,
      context: { ...this.context(event, payment.mode), ...details },
    });
    return { status: 'rejected', paymentId: payment.id, reason: why };
  }

  private async ignore(event: GatewayAEvent, mode: GatewayMode, why: string): Promise<EffectResult> {
    await this.ledger.log({ paymentId: null, level: 'info', event: 'webhook_ignored', message: `${event.type} ignored: ${why}.`, context: this.context(event, mode) });
    return { status: 'ignored', paymentId: null, reason: why };
  }

  private async unknownPayment(event: GatewayAEvent, mode: GatewayMode): Promise<EffectResult> {
    await this.ledger.log({ paymentId: null, level: 'warning', event: 'webhook_unknown_payment', message: `${event.type} names no known payment; ignored.`, context: this.context(event, mode) });
    return { status: 'ignored', paymentId: null, reason: 'names no known payment' };
  }

  private context(event: GatewayAEvent, mode: GatewayMode): Record<string, unknown> {
    return { source: SOURCE, event_id: event.id, event_type: event.type, mode, object_id: stringField(event.object, 'id') };
  }
}

/** Amounts our integer columns can hold (a provider may send more). */
function inRange(amount: number): boolean {
  return amount >= 0 && amount <= MAX_INT;
}

function boundedOrNull(amount: number | null): number | null {
  return amount !== null && inRange(amount) ? amount : null;
}
