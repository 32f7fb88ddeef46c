import type { GatewayMode, PaymentAftermath } from '../../gateways/index.js';
import type { CurrentCheck, FailureReason, PaymentRecord, RenewalAttempt } from '../../payments/index.js';
import type { WebhookEventOutcome } from '../webhook-event.entity.js';

/**
 * The gateway-neutral vocabulary of provider events (docs/architecture.md, "webhooks/"): a slice's
 * webhook source parses an event once into its own typed object and says what it asks of
 * payments as one `WebhookAction`; `WebhookActionApplier` ties it to a record and applies it,
 * the same way for every gateway (the ledger owns the status moves). A source decides from the
 * event alone: it reads no record and writes nothing.
 */

/** The event refuses the record it names: logged as `webhook_contract_mismatch`, the record untouched. */
export interface Rejection {
  reject: string;
  /** Extra log context (event values, never secrets) */
  details?: Record<string, unknown>;
}

/** The event is about this record but asks nothing of it now: `ignored`, nothing logged. */
export interface Dismissal {
  ignore: string;
}

/** A slice's check of the tied record: null lets the action go on. */
export type Verdict = Rejection | Dismissal | null;

/** Finds a record: the payment id this installation wrote into the provider object, or a provider id it stored. */
export type PaymentLookup =
  | { paymentId: number }
  | { providerPaymentRef: string }
  /** The capture a record holds (gateway B: `provider_capture_ref`) */
  | { providerCaptureRef: string }
  | { subscriptionRef: string }
  /** Section B's `transaction_id` (the record's provider payment ref, or its id) */
  | { transactionId: string };

/**
 * The record an event is about and what must tie the two before anything the event says is
 * applied (the trust rule: the slice has already checked that the provider object is this
 * installation's, e.g. by its metadata).
 */
export interface PaymentSubject {
  find: PaymentLookup;
  /** The record must be a payment of this gateway in this mode (absent on section B's generic route). */
  of?: { gateway: string; mode: GatewayMode };
  /** The record must be a subscription's first payment: not one-time, not a renewal. */
  subscriptionPayment?: boolean;
  /**
   * The provider object the record must already hold (`ref` null: the event names none). Another
   * one, or none, is rejected with `other` / `none`; `whenNone: 'retry'` answers 503 instead while
   * the record is unfinished (the service creates that object and stores it afterwards, so its
   * first events can overtake the write).
   */
  holds?: { field: 'provider_payment_ref' | 'provider_subscription_ref' | 'provider_capture_ref'; ref: string | null; other: string; none: string; whenNone?: 'reject' | 'retry' };
  /** How a record that is not found is logged: `webhook_unknown_payment` (warning, the default) or `webhook_ignored` (info). */
  unknown?: 'unknown_payment' | 'ignored';
}

interface PaymentAction {
  subject: PaymentSubject;
  /** The slice's checks of the tied record (amounts, currencies, customers), in the slice's order. */
  verify?: (payment: PaymentRecord) => Verdict;
  /** Slice work after the checks and before the write, e.g. a provider call (no transaction is open). */
  prepare?: (payment: PaymentRecord) => Promise<Verdict>;
}

/** The payment is paid: completed with what the provider received. */
export interface PaymentSucceeded extends PaymentAction {
  kind: 'payment_succeeded';
  /** Minor units */
  amountReceived: number;
  providerCaptureRef?: string;
  /** The provider object that took the money when it is not the payment's own (a provider call; gateway A: the first invoice's PaymentIntent) */
  providerChargeRef?: (payment: PaymentRecord) => Promise<string | null>;
  /** The card that paid (brand, last four digits), where the provider keeps it (a provider call, best effort: null leaves them unknown) */
  card?: (payment: PaymentRecord) => Promise<PaymentCard | null>;
}

/** A card as the payment log names it: the provider's brand (`visa`, …) and the last four digits, never more. */
export interface PaymentCard {
  brand: string;
  last4: string;
}

/** The payment failed; the payer may try again. */
export interface PaymentFailed extends PaymentAction {
  kind: 'payment_failed';
  /** The provider's reason, when the event carries one: stored as the record's `failure_reason` */
  reason: FailureReason | null;
}

/** The payment is underway at the provider (e.g. a bank debit clearing). */
export interface PaymentProcessing extends PaymentAction {
  kind: 'payment_processing';
}

export interface PaymentCanceled extends PaymentAction {
  kind: 'payment_canceled';
}

/** The payer's method is saved for a subscription: its first charge is underway (processing). */
export interface SetupSucceeded extends PaymentAction {
  kind: 'setup_succeeded';
}

/** A later invoice of a subscription was paid or failed: one renewal row per invoice. */
export interface SubscriptionRenewed extends PaymentAction {
  kind: 'subscription_renewed';
  invoiceRef: string;
  /** Minor units */
  amount: number;
  /** Upper case */
  currency: string;
  status: 'completed' | 'failed';
  /** The application fee of the renewal, read where the provider keeps it (a provider call) */
  applicationFee?: (payment: PaymentRecord) => Promise<number | null>;
  /** The provider object that took the money (a provider call; gateway A: the invoice's PaymentIntent) */
  providerChargeRef?: (payment: PaymentRecord) => Promise<string | null>;
  /** A failed invoice: which attempt failed and when the provider tries again (the payer is told once per attempt) */
  failedAttempt?: RenewalAttempt;
}

/** The subscription's status at the provider, stored with its first payment unless newer news was stored. */
export interface SubscriptionStateChanged extends PaymentAction {
  kind: 'subscription_state_changed';
  status: string;
  /** The end the provider has scheduled (cancel at period end, or a date); absent when the gateway does not say */
  schedule?: { atPeriodEnd: boolean; cancelsAt: Date | null };
  /** Decides in the ledger's transaction whether this status is still news (the slice's event order) */
  isCurrent: CurrentCheck;
}

/**
 * The event says the payment's money moved at the provider afterwards (a refund, a reversal, a
 * dispute) but is not trusted for what: the record is read again from the provider and what the
 * provider holds is applied (the ledger's aftermath, idempotent).
 */
export interface AftermathChanged extends PaymentAction {
  kind: 'aftermath_changed';
  /** The record's refunds and disputes as the provider holds them (a provider call, outside any transaction); null: nothing to read */
  reread: (payment: PaymentRecord) => Promise<PaymentAftermath | null>;
}

/** Nothing to do: outside the contract, not this installation's, unreadable. */
export interface NothingToDo {
  kind: 'nothing_to_do';
  /** Stored with the event (none for an event type outside the contract of a route that stores no reason) */
  why?: string;
  /** Whether the payment log gets a `webhook_ignored` line (the source logs event types outside its contract itself). */
  logged: boolean;
}

export type WebhookAction =
  | PaymentSucceeded
  | PaymentFailed
  | PaymentProcessing
  | PaymentCanceled
  | SetupSucceeded
  | SubscriptionRenewed
  | SubscriptionStateChanged
  | AftermathChanged
  | NothingToDo;

export type WebhookActionKind = WebhookAction['kind'];

/** Nothing to do, with the payment log line `webhook_ignored`. */
export function nothingToDo(why: string): NothingToDo {
  return { kind: 'nothing_to_do', why, logged: true };
}

/** Nothing to do with an event type outside the route's contract (the source logs it). */
export function outsideContract(why?: string): NothingToDo {
  return { kind: 'nothing_to_do', why, logged: false };
}

/**
 * What an event did, stored with it: `processed` (the record moved or learnt something, or already
 * was there), `ignored` (nothing to do: outside the contract, not this installation's, unknown
 * payment, a late event), `rejected` (the event disagrees with the record it names: logged, the
 * record is not moved).
 */
export type EffectStatus = WebhookEventOutcome;

export interface EffectResult {
  status: EffectStatus;
  paymentId: number | null;
  /** Why it was ignored or rejected (stored with the event; no payload data). */
  reason?: string;
}
