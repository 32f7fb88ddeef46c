import type { FailureReason } from '../../payments/index.js';
import { expandableId } from '../client/expandable-id.js';

/**
 * The gateway-A event as delivered, read once from the signed bytes into typed fields (pure
 * parsing, no I/O), as `client/gateway-a-answers.ts` reads the SDK's answers. A malformed
 * envelope is refused (400 `checkout_invalid_event`). Inside `data.object` only the fields the
 * webhook uses are read, each as the pinned API version declares it; one that is absent or of
 * another type is null, and the event's action says what that means (ignored or rejected, as the
 * contract's outcomes say), so a provider object missing a field never fails the delivery.
 */
export interface GatewayAEvent {
  id: string;
  type: string;
  /** Unix seconds, when the gateway created the event */
  created: number;
  livemode: boolean;
  /** `data.object`, read as the object its event type carries */
  object: GatewayAEventObject;
}

/** What this service wrote into a provider object's metadata (docs/decisions.md §14). */
export interface ObjectMetadata {
  /** `checkout_installation_id`: the installation that created the object */
  installationId: string | null;
  /** `checkout_payment_id`: the record it was created for */
  paymentId: number | null;
}

export interface EventPaymentIntent {
  object: 'payment_intent';
  id: string | null;
  amount: number | null;
  /** Upper case */
  currency: string | null;
  amountReceived: number | null;
  customer: string | null;
  metadata: ObjectMetadata;
  /** `last_payment_error`: why the last attempt failed */
  lastError: FailureReason | null;
}

export interface EventSetupIntent {
  object: 'setup_intent';
  id: string | null;
  customer: string | null;
  metadata: ObjectMetadata;
  /** `last_setup_error` */
  lastError: FailureReason | null;
}

export interface EventInvoice {
  object: 'invoice';
  id: string | null;
  amountPaid: number | null;
  amountDue: number | null;
  /** Upper case */
  currency: string | null;
  billingReason: string | null;
  /** `parent.subscription_details.subscription` (API 2026-10-28) */
  subscriptionRef: string | null;
  /** `parent.subscription_details.metadata`: the subscription's metadata when the invoice was made */
  metadata: ObjectMetadata;
  /** `attempt_count`: the payment attempts made for the invoice so far (the failed one included) */
  attemptCount: number | null;
  /** `next_payment_attempt` (Unix seconds): when the gateway tries again; null when it will not */
  nextPaymentAttempt: number | null;
}

export interface EventSubscription {
  object: 'subscription';
  id: string | null;
  status: string | null;
  metadata: ObjectMetadata;
  /** A cancellation at the end of the current period is scheduled (false when the object leaves it out) */
  cancelAtPeriodEnd: boolean;
  /** Unix seconds: when a scheduled cancellation ends it; null when none */
  cancelAt: number | null;
}

/** An object of an event type outside the contract (stored, never read further). */
export interface EventOtherObject {
  object: 'other';
  id: string | null;
}

export type GatewayAEventObject = EventPaymentIntent | EventSetupIntent | EventInvoice | EventSubscription | EventOtherObject;

export type JsonObject = Record<string, unknown>;

export type EventParseResult = { ok: true; event: GatewayAEvent } | { ok: false; reason: string };

/** Fits the event store's `event_id` column; the gateway's ids are far shorter. */
const MAX_EVENT_ID = 191;
const MAX_EVENT_TYPE = 100;
/** A failure reason's bounds, as the payment's column keeps them. */
const FAILURE_CODE_MAX = 100;
const FAILURE_MESSAGE_MAX = 500;

/**
 * Parses the raw bytes that were signed (never a re-serialised body): a JSON object with `id`,
 * `type`, `created`, `livemode` and `data.object`.
 */
export function parseGatewayAEvent(rawBody: Buffer): EventParseResult {
  let parsed: unknown;
  try {
    parsed = JSON.parse(rawBody.toString('utf8'));
  } catch {
    return { ok: false, reason: 'the body is not JSON' };
  }
  if (!isObject(parsed)) return { ok: false, reason: 'the body is not an event object' };
  const { id, type, created, livemode, data } = parsed;
  if (typeof id !== 'string' || id.length === 0 || id.length > MAX_EVENT_ID || !/^[\x21-\x7e]+$/.test(id)) return { ok: false, reason: 'id is missing or invalid' };
  if (typeof type !== 'string' || type.length === 0 || type.length > MAX_EVENT_TYPE) return { ok: false, reason: 'type is missing or invalid' };
  if (typeof created !== 'number' || !Number.isSafeInteger(created) || created < 0) return { ok: false, reason: 'created is missing or invalid' };
  if (typeof livemode !== 'boolean') return { ok: false, reason: 'livemode is missing' };
  if (!isObject(data) || !isObject(data.object)) return { ok: false, reason: 'data.object is missing' };
  return { ok: true, event: { id, type, created, livemode, object: readObject(type, data.object) } };
}

/** `data.object` as the object the event type carries (`payment_intent.*` a PaymentIntent, …). */
export function readObject(type: string, object: JsonObject): GatewayAEventObject {
  const id = stringField(object, 'id');
  if (type.startsWith('payment_intent.')) {
    return {
      object: 'payment_intent',
      id,
      amount: integerField(object, 'amount'),
      currency: upper(stringField(object, 'currency')),
      amountReceived: integerField(object, 'amount_received'),
      customer: expandableId(object.customer),
      metadata: readMetadata(object.metadata),
      lastError: failureReason(object.last_payment_error),
    };
  }
  if (type.startsWith('setup_intent.')) {
    return { object: 'setup_intent', id, customer: expandableId(object.customer), metadata: readMetadata(object.metadata), lastError: failureReason(object.last_setup_error) };
  }
  if (type.startsWith('invoice.')) {
    const { subscriptionRef, metadata } = invoiceSubscription(object);
    return {
      object: 'invoice',
      id,
      amountPaid: integerField(object, 'amount_paid'),
      amountDue: integerField(object, 'amount_due'),
      currency: upper(stringField(object, 'currency')),
      billingReason: stringField(object, 'billing_reason'),
      subscriptionRef,
      metadata: readMetadata(metadata),
      attemptCount: integerField(object, 'attempt_count'),
      nextPaymentAttempt: integerField(object, 'next_payment_attempt'),
    };
  }
  if (type.startsWith('customer.subscription.')) {
    return {
      object: 'subscription',
      id,
      status: stringField(object, 'status'),
      metadata: readMetadata(object.metadata),
      cancelAtPeriodEnd: object.cancel_at_period_end === true,
      cancelAt: integerField(object, 'cancel_at'),
    };
  }
  return { object: 'other', id };
}

export function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function stringField(object: JsonObject | undefined, key: string): string | null {
  const value = object?.[key];
  return typeof value === 'string' && value.length > 0 ? value : null;
}

function integerField(object: JsonObject | undefined, key: string): number | null {
  const value = object?.[key];
  return typeof value === 'number' && Number.isSafeInteger(value) ? value : null;
}

function upper(value: string | null): string | null {
  return value?.toUpperCase() ?? null;
}

function readMetadata(metadata: unknown): ObjectMetadata {
  return { installationId: metadataInstallationId(metadata), paymentId: metadataPaymentId(metadata) };
}

/**
 * A `last_payment_error` / `last_setup_error` as a failure reason: its `code` (else its `type`,
 * the one field the reference requires), `decline_code` and `message`, bounded; null when absent.
 */
export function failureReason(error: unknown): FailureReason | null {
  if (!isObject(error)) return null;
  const code = stringField(error, 'code') ?? stringField(error, 'type');
  if (!code) return null;
  const declineCode = stringField(error, 'decline_code');
  const message = stringField(error, 'message');
  return { code: code.slice(0, FAILURE_CODE_MAX), decline_code: declineCode?.slice(0, FAILURE_CODE_MAX) ?? null, message: message?.slice(0, FAILURE_MESSAGE_MAX) ?? null };
}

/** `metadata.checkout_payment_id`, which this service sets on every intent and subscription it creates. */
export function metadataPaymentId(metadata: unknown): number | null {
  if (!isObject(metadata)) return null;
  const value = metadata.checkout_payment_id;
  return typeof value === 'string' && /^[1-9]\d{0,9}$/.test(value) && Number(value) <= 2_147_483_647 ? Number(value) : null;
}

/** `metadata.checkout_installation_id`: the installation that created the object (docs/decisions.md §14). */
export function metadataInstallationId(metadata: unknown): string | null {
  if (!isObject(metadata)) return null;
  const value = metadata.checkout_installation_id;
  return typeof value === 'string' && value.length > 0 ? value : null;
}

/** An invoice's subscription (API 2026-10-28: `parent.subscription_details`) and its metadata. */
export function invoiceSubscription(invoice: JsonObject): { subscriptionRef: string | null; metadata: unknown } {
  const parent = isObject(invoice.parent) ? invoice.parent : undefined;
  const details = isObject(parent?.subscription_details) ? parent.subscription_details : undefined;
  return { subscriptionRef: expandableId(details?.subscription), metadata: details?.metadata };
}
