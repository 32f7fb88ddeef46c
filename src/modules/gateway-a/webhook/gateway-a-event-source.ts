import { Injectable, Logger } from '@nestjs/common';
import type { GatewayMode } from '../../gateways/index.js';
import { InvalidPaymentStateError, isTerminal, type PaymentRecord, type RenewalAttempt } from '../../payments/index.js';
import {
  InvalidEventError,
  isStorableAmount,
  nothingToDo,
  outsideContract,
  type PaymentSubject,
  type Verdict,
  type WebhookAction,
  type WebhookEventSource,
} from '../../webhooks/index.js';
import { GatewayACards } from '../checkout/gateway-a-cards.js';
import { GatewayASubscriptionsService } from '../checkout/gateway-a-subscriptions.service.js';
import { InstallationScope } from '../client/installation-scope.js';
import { isRecurring } from '../client/recurring-interval.js';
import { type EventInvoice, type EventPaymentIntent, type EventSetupIntent, type EventSubscription, type GatewayAEvent, type ObjectMetadata, parseGatewayAEvent } from './gateway-a-event.js';
import { subscriptionSchedule } from '../subscriptions/gateway-a-subscription-cancellation.js';
import { SubscriptionStateRepository } from './subscription-state.repository.js';
import { type GatewayAWebhookEvent, isContractEvent } from './webhook-contract.js';

const GATEWAY = 'gateway_a';
const SOURCE = 'webhook:gateway_a';

/**
 * Gateway A's events for the shared webhook intake (docs/decisions.md §8): the envelope parsed once
 * from the verified bytes (never a re-serialised body) into a typed event, its livemode equal to
 * the route's mode; each of the 12 contract events becomes one action the core applies
 * (`WebhookActionApplier`), any other type is stored and ignored.
 *
 * Nothing an event says is applied until it is tied to an object this installation created:
 * - its metadata carries this installation's id (two sites on one gateway account receive each
 *   other's signed events, and their payment ids collide) — otherwise `ignored` (checked here);
 * - the record it names is a gateway-A payment of the event's mode and holds that very object
 *   (intent or subscription id) — otherwise `rejected` (the action's subject, checked by the core;
 *   a record that holds no object yet is never given one by an event);
 * - amounts and currencies equal the record's: a payment intent's amount and currency, a first
 *   invoice's recurring amount plus setup fee, a renewal's currency; every amount fits the
 *   record's columns — otherwise `rejected` (the action's `verify`, written here).
 * Slice work stays here: the subscription created on `setup_intent.succeeded` and the renewal's
 * fee (gateway calls, outside transactions), and the subscription events' order.
 */
@Injectable()
export class GatewayAEventSource implements WebhookEventSource<GatewayAEvent> {
  readonly provider = GATEWAY;
  private readonly logger = new Logger('GatewayAWebhook');

  constructor(
    private readonly subscriptions: GatewayASubscriptionsService,
    private readonly states: SubscriptionStateRepository,
    private readonly scope: InstallationScope,
    private readonly cards: GatewayACards,
  ) {}

  parse(rawBody: Buffer, mode: GatewayMode): GatewayAEvent {
    const parsed = parseGatewayAEvent(rawBody);
    if (!parsed.ok) throw new InvalidEventError('checkout_invalid_event', `The body is not a gateway event: ${parsed.reason}.`);
    const { event } = parsed;
    if (event.livemode !== (mode === 'live')) {
      this.logger.warn({ mode, event_id: event.id, livemode: event.livemode }, 'gateway A webhook refused: livemode');
      throw new InvalidEventError('checkout_livemode_mismatch', `A ${event.livemode ? 'live' : 'test'} event cannot be delivered to the ${mode} endpoint.`);
    }
    return event;
  }

  actionOf(event: GatewayAEvent, mode: GatewayMode): WebhookAction {
    if (!isContractEvent(event.type)) {
      this.logger.log({ mode, event_id: event.id, event_type: event.type }, 'gateway A webhook ignored: not a contract event');
      return outsideContract();
    }
    const type: GatewayAWebhookEvent = event.type;
    const object = event.object;
    switch (object.object) {
      case 'payment_intent':
        return this.paymentIntent(type, object, mode);
      case 'setup_intent':
        return this.setupIntent(type, object, mode);
      case 'invoice':
        return this.invoice(type, object, mode);
      case 'subscription':
        return this.subscription(event, object, mode);
      case 'other':
        // Every contract type carries one of the objects above (readObject).
        throw new Error(`No object reader for ${type}.`);
    }
  }

  logContext(event: GatewayAEvent, mode: GatewayMode | null): Record<string, unknown> {
    return { source: SOURCE, event_id: event.id, event_type: event.type, mode, object_id: event.object.id };
  }

  // --- payment and setup intents ------------------------------------------------------------------

  private paymentIntent(type: GatewayAWebhookEvent, intent: EventPaymentIntent, mode: GatewayMode): WebhookAction {
    if (!intent.id) return nothingToDo('the intent has no id');
    if (!this.created(intent.metadata)) return notOurs();
    const subject = this.intentSubject(intent.id, intent.metadata, mode);
    const received = intent.amountReceived ?? intent.amount ?? 0;
    const verify = (payment: PaymentRecord): Verdict => {
      const differs = customerDiffers(intent.customer, payment);
      if (differs) return differs;
      if (intent.amount !== payment.amount || intent.currency !== payment.currency) {
        return { reject: 'amount or currency differs from the record', details: { event_amount: intent.amount, event_currency: intent.currency } };
      }
      if (type === 'payment_intent.succeeded' && !isStorableAmount(received)) return { reject: 'amount_received is out of range' };
      return null;
    };
    switch (type) {
      case 'payment_intent.succeeded': {
        // The event names its charge by id only: the card is read from the intent with its charge expanded.
        const intentId = intent.id;
        return { kind: 'payment_succeeded', subject, verify, amountReceived: received, card: (payment) => this.cards.ofIntent(payment, intentId) };
      }
      case 'payment_intent.processing':
        return { kind: 'payment_processing', subject, verify };
      case 'payment_intent.canceled':
        return { kind: 'payment_canceled', subject, verify };
      default:
        return { kind: 'payment_failed', subject, verify, reason: intent.lastError };
    }
  }

  /**
   * A subscription gets its subscription on `setup_intent.succeeded` (the payer may never come
   * back to the checkout route) and then waits, processing, for its first invoice. A SetupIntent
   * of a one-time record is not ours to act on: it charged nothing, so it must never complete it.
   */
  private setupIntent(type: GatewayAWebhookEvent, intent: EventSetupIntent, mode: GatewayMode): WebhookAction {
    if (!intent.id) return nothingToDo('the intent has no id');
    if (!this.created(intent.metadata)) return notOurs();
    const subject = this.intentSubject(intent.id, intent.metadata, mode);
    const succeeded = type === 'setup_intent.succeeded';
    const verify = (payment: PaymentRecord): Verdict => {
      const differs = customerDiffers(intent.customer, payment);
      if (differs) return differs;
      if (!isRecurring(payment.frequency)) return { reject: succeeded ? 'a setup intent cannot pay a one-time payment' : 'a setup intent does not pay a one-time payment' };
      return null;
    };
    if (type === 'setup_intent.canceled') return { kind: 'payment_canceled', subject, verify };
    if (!succeeded) return { kind: 'payment_failed', subject, verify, reason: intent.lastError };
    return { kind: 'setup_succeeded', subject, verify, prepare: (payment) => this.ensureSubscription(payment) };
  }

  private async ensureSubscription(payment: PaymentRecord): Promise<Verdict> {
    if (isTerminal(payment.status) || payment.provider_subscription_ref) return null;
    try {
      // A gateway call: no transaction is open here. A gateway failure (502) leaves the event
      // unfinished, so the provider's redelivery tries again.
      await this.subscriptions.ensureSubscription(payment);
      return null;
    } catch (error) {
      if (!(error instanceof InvalidPaymentStateError)) throw error;
      return { reject: `the subscription cannot be created: ${error.message}` };
    }
  }

  /** The record an intent event is about: named by its metadata, else the one holding the intent; it must hold the intent. */
  private intentSubject(intentId: string, metadata: ObjectMetadata, mode: GatewayMode): PaymentSubject {
    return {
      find: metadata.paymentId !== null ? { paymentId: metadata.paymentId } : { providerPaymentRef: intentId },
      of: { gateway: GATEWAY, mode },
      holds: { field: 'provider_payment_ref', ref: intentId, other: 'the record holds another provider_payment_ref', none: 'the record holds no provider_payment_ref' },
    };
  }

  // --- invoices -----------------------------------------------------------------------------------

  /**
   * The first invoice (`billing_reason: subscription_create`) completes or fails the subscription's
   * payment when it charges exactly the recurring amount plus the setup fee. Any later invoice is a
   * renewal row of its own with the amount it charged (a price changed at the gateway still
   * charged that), in the subscription's currency. The subscription status is left to the
   * subscription events. The invoice of the pinned API version names its payment intents only by
   * id, so a failed first invoice carries no failure reason.
   */
  private invoice(type: GatewayAWebhookEvent, invoice: EventInvoice, mode: GatewayMode): WebhookAction {
    const invoiceId = invoice.id;
    if (!invoiceId || !invoice.subscriptionRef) return nothingToDo('the invoice belongs to no subscription');
    if (!this.created(invoice.metadata)) return notOurs();
    const subject = this.subscriptionSubject(invoice.subscriptionRef, invoice.metadata, mode);
    const paid = type === 'invoice.paid';
    const amount = paid ? invoice.amountPaid : invoice.amountDue;
    const currency = invoice.currency;
    const first = invoice.billingReason === 'subscription_create';
    const verify = (payment: PaymentRecord): Verdict => {
      if (amount === null || !currency) return { reject: 'the invoice has no amount or currency' };
      if (!isStorableAmount(amount)) return { reject: 'the invoice amount is out of range', details: { event_amount: amount } };
      if (currency !== payment.currency) return { reject: 'the invoice currency differs from the record', details: { event_currency: currency } };
      if (first && amount !== payment.amount + (payment.setup_amount ?? 0)) return { reject: 'the first invoice amount differs from the record', details: { event_amount: amount } };
      return null;
    };
    // Refunds go to the PaymentIntent that paid the invoice: stored with the payment (one read of the invoice's payments).
    let read: Promise<{ intent: string | null; fee: number | null }> | null = null;
    const invoicePayments = (payment: PaymentRecord) => (read ??= this.subscriptions.invoicePayments(payment, invoiceId));
    const providerChargeRef = async (payment: PaymentRecord) => (await invoicePayments(payment)).intent;
    // The card of the first invoice's charge, read from the intent that paid it.
    const card = async (payment: PaymentRecord) => {
      const intent = await providerChargeRef(payment);
      return intent ? this.cards.ofIntent(payment, intent) : null;
    };
    if (first) return paid ? { kind: 'payment_succeeded', subject, verify, amountReceived: amount ?? 0, providerChargeRef, card } : { kind: 'payment_failed', subject, verify, reason: null };
    return {
      kind: 'subscription_renewed',
      subject,
      verify,
      invoiceRef: invoiceId,
      amount: amount ?? 0,
      currency: currency ?? '',
      status: paid ? 'completed' : 'failed',
      // The invoice carries no fee at the pinned API version: read from the invoice's payment.
      // One read of the invoice's payments gives both (the fee only for a subscription created with one).
      applicationFee: async (payment) => (payment.application_fee_amount === null ? null : (await invoicePayments(payment)).fee),
      ...(paid ? { providerChargeRef } : { failedAttempt: failedAttempt(invoice) }),
    };
  }

  // --- subscriptions ------------------------------------------------------------------------------

  /**
   * Stores the subscription's status with its first payment, unless an event created later was
   * applied already (one row per subscription keeps the last applied event's time).
   */
  private subscription(event: GatewayAEvent, subscription: EventSubscription, mode: GatewayMode): WebhookAction {
    const { id: subscriptionRef, status } = subscription;
    if (!subscriptionRef || !status || status.length > 30) return nothingToDo('the subscription has no id or status');
    if (!this.created(subscription.metadata)) return notOurs();
    return {
      kind: 'subscription_state_changed',
      subject: this.subscriptionSubject(subscriptionRef, subscription.metadata, mode),
      status,
      schedule: subscriptionSchedule({ status, cancel_at_period_end: subscription.cancelAtPeriodEnd, cancel_at: subscription.cancelAt }),
      isCurrent: (manager, payment) =>
        this.states.claimIfCurrent(manager, { gateway: GATEWAY, subscriptionRef, paymentId: payment.id, status, eventId: event.id, eventCreatedAt: new Date(event.created * 1000) }),
    };
  }

  /**
   * The first payment of a subscription: named by the metadata, else the one holding the
   * subscription. One that holds no subscription yet is still being recorded by this service
   * (its first events can overtake the write): 503, the provider delivers again.
   */
  private subscriptionSubject(subscriptionRef: string, metadata: ObjectMetadata, mode: GatewayMode): PaymentSubject {
    return {
      find: metadata.paymentId !== null ? { paymentId: metadata.paymentId } : { subscriptionRef },
      of: { gateway: GATEWAY, mode },
      subscriptionPayment: true,
      holds: {
        field: 'provider_subscription_ref',
        ref: subscriptionRef,
        other: 'the record holds another provider_subscription_ref',
        none: 'the record holds no provider_subscription_ref',
        whenNone: 'retry',
      },
    };
  }

  /** Whether the object's metadata carries this installation's id. */
  private created(metadata: ObjectMetadata): boolean {
    return metadata.installationId === this.scope.id;
  }
}

/**
 * A failed invoice's attempt: the provider's `attempt_count` (an invoice without one counts as its
 * first attempt) and `next_payment_attempt`, null when the provider makes no further attempt.
 */
function failedAttempt(invoice: EventInvoice): RenewalAttempt {
  const count = invoice.attemptCount !== null && invoice.attemptCount >= 1 && invoice.attemptCount <= 1000 ? invoice.attemptCount : 1;
  const next = invoice.nextPaymentAttempt;
  // Seconds that make a date (before the year 10000); anything else is no date.
  return { count, nextAttemptAt: next !== null && next > 0 && next < 253_402_300_800 ? new Date(next * 1000) : null };
}

function notOurs(): WebhookAction {
  return nothingToDo('the object was not created by this installation');
}

/** An intent of another customer than the record's (when both are known). */
function customerDiffers(customer: string | null, payment: PaymentRecord): Verdict {
  const stored = payment.provider_customer_ref;
  return customer && stored && customer !== stored ? { reject: 'the customer differs from the record' } : null;
}
