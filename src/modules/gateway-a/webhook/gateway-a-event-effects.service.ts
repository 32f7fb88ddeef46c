import { Injectable } from '@nestjs/common';
import { isDuplicateKeyError } from '../../../database/index.js';
import type { GatewayMode } from '../../gateways/index.js';
import {
  InvalidPaymentStateError,
  isTerminal,
  PaymentLedgerService,
  type PaymentPatch,
  PaymentQueriesService,
  type PaymentRecord,
  type PaymentStatus,
  type TransitionOutcome,
} from '../../payments/index.js';
import type { EffectResult } from '../../webhooks/index.js';
import { isRecurring } from '../client/recurring-interval.js';
import { GatewayASubscriptionsService } from '../checkout/gateway-a-subscriptions.service.js';
import { type GatewayAEvent, idField, integerField, invoiceSubscription, type JsonObject, metadataPaymentId, stringField } from './gateway-a-event.js';
import { SubscriptionStateRepository } from './subscription-state.repository.js';
import type { GatewayAWebhookEvent } from './webhook-contract.js';

const GATEWAY = 'gateway_a';
const SOURCE = 'webhook:gateway_a';

/** The record field that holds the provider id of the event's object. */
type RefField = 'provider_payment_ref' | 'provider_subscription_ref';

/** The record an event is about; `settled` when the event was answered already (rejected or ignored). */
type Located = { payment: PaymentRecord; missingRef: string | null } | { settled: EffectResult } | null;

/**
 * The effects of the 12 contract events on payment records (decisions §8): `processed` (the
 * record moved or learnt something, or already was there), `ignored` (unknown payment, a late
 * event, an invoice without a subscription), `rejected` (the event disagrees with the record:
 * amount, currency, reference, customer or mode; logged as a contract mismatch). Every effect is
 * idempotent and monotone (the status machine never moves a record backwards; renewals are one row
 * per invoice; subscription statuses only move forward in event time), so an event applied twice,
 * or late, changes nothing more. Gateway calls (`ensureSubscription`) happen outside transactions.
 */
@Injectable()
export class GatewayAEventEffectsService {
  constructor(
    private readonly ledger: PaymentLedgerService,
    private readonly payments: PaymentQueriesService,
    private readonly subscriptions: GatewayASubscriptionsService,
    private readonly states: SubscriptionStateRepository,
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
    if (!located || 'settled' in located) return located?.settled ?? this.unknownPayment(event, mode);
    const { payment } = located;

    const amount = integerField(intent, 'amount');
    const currency = stringField(intent, 'currency')?.toUpperCase() ?? null;
    if (amount !== payment.amount || currency !== payment.currency) {
      return this.reject(event, payment, 'amount or currency differs from the record', { event_amount: amount, event_currency: currency });
    }
    const patch: PaymentPatch = {};
    if (located.missingRef) patch.providerPaymentRef = located.missingRef;
    if (to === 'completed') patch.amountReceived = integerField(intent, 'amount_received') ?? amount;
    return this.move(event, payment, to, patch);
  }

  private async setupIntent(event: GatewayAEvent, mode: GatewayMode, to: PaymentStatus): Promise<EffectResult> {
    const located = await this.locateIntent(event, mode, event.object);
    if (!located || 'settled' in located) return located?.settled ?? this.unknownPayment(event, mode);
    return this.move(event, located.payment, to, located.missingRef ? { providerPaymentRef: located.missingRef } : {});
  }

  /**
   * A subscription gets its subscription now (the payer may never come back to the checkout
   * route) and then waits, processing, for its first invoice. A SetupIntent of a one-time record
   * is not ours to act on: it charged nothing, so it must never complete the payment.
   */
  private async setupIntentSucceeded(event: GatewayAEvent, mode: GatewayMode): Promise<EffectResult> {
    const located = await this.locateIntent(event, mode, event.object);
    if (!located || 'settled' in located) return located?.settled ?? this.unknownPayment(event, mode);
    let { payment } = located;
    if (!isRecurring(payment.frequency)) {
      return this.reject(event, payment, 'a setup intent cannot pay a one-time payment');
    }
    if (!isTerminal(payment.status) && !payment.provider_subscription_ref) {
      try {
        if (located.missingRef) payment = await this.ledger.recordProviderDetails(payment.id, { providerPaymentRef: located.missingRef }, SOURCE);
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

  /**
   * The record an intent event is about: the one named by `metadata.checkout_payment_id` (its
   * stored intent id, when it has one, must be the event's), else the one holding the intent id.
   */
  private async locateIntent(event: GatewayAEvent, mode: GatewayMode, intent: JsonObject): Promise<Located> {
    const intentId = stringField(intent, 'id');
    if (!intentId) return { settled: await this.ignore(event, mode, 'the intent has no id') };
    const located = await this.locate(event, mode, intent.metadata, 'provider_payment_ref', intentId, () => this.payments.findByProviderRef(GATEWAY, intentId));
    if (!located || 'settled' in located) return located;
    const customer = idField(intent, 'customer');
    const storedCustomer = located.payment.provider_customer_ref;
    if (customer && storedCustomer && customer !== storedCustomer) return { settled: await this.reject(event, located.payment, 'the customer differs from the record') };
    return located;
  }

  // --- invoices -----------------------------------------------------------------------------------

  /**
   * The first invoice (`billing_reason: subscription_create`) completes or fails the subscription's
   * payment; any later invoice is a renewal row of its own. The subscription status is left to the
   * subscription events.
   */
  private async invoice(event: GatewayAEvent, mode: GatewayMode, to: 'completed' | 'failed'): Promise<EffectResult> {
    const invoice = event.object;
    const invoiceId = stringField(invoice, 'id');
    const { subscriptionRef, metadata } = invoiceSubscription(invoice);
    if (!invoiceId || !subscriptionRef) return this.ignore(event, mode, 'the invoice belongs to no subscription');
    const located = await this.locateSubscription(event, mode, metadata, subscriptionRef);
    if (!located || 'settled' in located) return located?.settled ?? this.unknownPayment(event, mode);
    let { payment } = located;

    const currency = stringField(invoice, 'currency')?.toUpperCase() ?? null;
    const amount = integerField(invoice, to === 'completed' ? 'amount_paid' : 'amount_due');
    if (amount === null || amount < 0 || !currency) return this.reject(event, payment, 'the invoice has no amount or currency');

    if (stringField(invoice, 'billing_reason') === 'subscription_create') {
      if (currency !== payment.currency) return this.reject(event, payment, 'the first invoice currency differs from the record', { event_currency: currency });
      const patch: PaymentPatch = located.missingRef ? { providerSubscriptionRef: located.missingRef } : {};
      if (to === 'completed') patch.amountReceived = amount;
      return this.move(event, payment, to, patch);
    }

    if (located.missingRef) payment = await this.ledger.recordProviderDetails(payment.id, { providerSubscriptionRef: located.missingRef }, SOURCE);
    try {
      const renewal = await this.ledger.recordRenewal(payment.id, {
        invoiceRef: invoiceId,
        amount,
        currency,
        status: to,
        applicationFeeAmount: integerField(invoice, 'application_fee_amount'),
        source: SOURCE,
      });
      return { status: renewal.outcome === 'ignored' || renewal.outcome === 'refused' ? 'ignored' : 'processed', paymentId: renewal.payment.id };
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
    if (!located || 'settled' in located) return located?.settled ?? this.unknownPayment(event, mode);
    const { payment } = located;

    const patch: PaymentPatch = { subscriptionStatus: status };
    if (located.missingRef) patch.providerSubscriptionRef = located.missingRef;
    const facts = { gateway: GATEWAY, subscriptionRef, paymentId: payment.id, status, eventId: event.id, eventCreatedAt: new Date(event.created * 1000) };
    try {
      const result = await this.ledger.recordProviderDetailsIf(payment.id, patch, SOURCE, (manager) => this.states.claimIfCurrent(manager, facts));
      if (result.applied) return { status: 'processed', paymentId: payment.id };
    } catch (error) {
      if (!(error instanceof InvalidPaymentStateError)) throw error;
      return this.reject(event, payment, error.message);
    }
    await this.ledger.log({
      paymentId: payment.id,
      level: 'info',
      event: 'webhook_out_of_order',
      message: `${event.type} (${status}) is older than the subscription status already stored; ignored.`,
      context: this.context(event, mode),
    });
    return { status: 'ignored', paymentId: payment.id };
  }

  /** The first payment of a subscription: by metadata (checked against the stored id), else by the subscription id. */
  private locateSubscription(event: GatewayAEvent, mode: GatewayMode, metadata: unknown, subscriptionRef: string): Promise<Located> {
    return this.locate(event, mode, metadata, 'provider_subscription_ref', subscriptionRef, () => this.payments.findSubscriptionPayment(GATEWAY, subscriptionRef));
  }

  // --- shared -------------------------------------------------------------------------------------

  private async locate(
    event: GatewayAEvent,
    mode: GatewayMode,
    metadata: unknown,
    refField: RefField,
    ref: string,
    byRef: () => Promise<PaymentRecord | null>,
  ): Promise<Located> {
    const namedId = metadataPaymentId(metadata);
    const payment = namedId !== null ? await this.payments.findById(namedId) : await byRef();
    if (!payment) return null;
    if (payment.gateway !== GATEWAY || payment.mode !== mode) {
      return { settled: await this.reject(event, payment, `the record is a ${payment.gateway} ${payment.mode} payment`) };
    }
    if (refField === 'provider_subscription_ref' && payment.parent_payment_id !== null) {
      return { settled: await this.reject(event, payment, 'the record is a renewal, not the subscription payment') };
    }
    const stored = payment[refField];
    if (stored && stored !== ref) return { settled: await this.reject(event, payment, `the record holds another ${refField}`) };
    return { payment, missingRef: stored ? null : ref };
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
    return { status: outcome === 'applied' || outcome === 'unchanged' ? 'processed' : 'ignored', paymentId: payment.id };
  }

  private async reject(event: GatewayAEvent, payment: PaymentRecord, why: string, details: Record<string, unknown> = {}): Promise<EffectResult> {
    await this.ledger.log({
      paymentId: payment.id,
      level: 'warning',
      event: 'webhook_contract_mismatch',
      message: `${event.type} not applied: ${why}.`,
      context: { ...this.context(event, payment.mode), ...details },
    });
    return { status: 'rejected', paymentId: payment.id };
  }

  private async ignore(event: GatewayAEvent, mode: GatewayMode, why: string): Promise<EffectResult> {
    await this.ledger.log({ paymentId: null, level: 'info', event: 'webhook_ignored', message: `${event.type} ignored: ${why}.`, context: this.context(event, mode) });
    return { status: 'ignored', paymentId: null };
  }

  private async unknownPayment(event: GatewayAEvent, mode: GatewayMode): Promise<EffectResult> {
    await this.ledger.log({ paymentId: null, level: 'warning', event: 'webhook_unknown_payment', message: `${event.type} names no known payment; ignored.`, context: this.context(event, mode) });
    return { status: 'ignored', paymentId: null };
  }

  private context(event: GatewayAEvent, mode: GatewayMode): Record<string, unknown> {
    return { source: SOURCE, event_id: event.id, event_type: event.type, mode, object_id: stringField(event.object, 'id') };
  }
}
