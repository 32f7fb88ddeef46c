import { expandableId } from '../client/expandable-id.js';

/**
 * The gateway-A event envelope as delivered (pure parsing, no I/O). Only the fields the webhook
 * reads are typed; `object` is the event's `data.object` (a PaymentIntent, SetupIntent, Invoice or
 * Subscription in the gateway's wire format).
 */
export interface GatewayAEvent {
  id: string;
  type: string;
  /** Unix seconds, when the gateway created the event */
  created: number;
  livemode: boolean;
  object: JsonObject;
}

export type JsonObject = Record<string, unknown>;

export type EventParseResult = { ok: true; event: GatewayAEvent } | { ok: false; reason: string };

/** Fits the event store's `event_id` column; the gateway's ids are far shorter. */
const MAX_EVENT_ID = 191;
const MAX_EVENT_TYPE = 100;

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
  return { ok: true, event: { id, type, created, livemode, object: data.object } };
}

export function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function stringField(object: JsonObject | undefined, key: string): string | null {
  const value = object?.[key];
  return typeof value === 'string' && value.length > 0 ? value : null;
}

export function integerField(object: JsonObject | undefined, key: string): number | null {
  const value = object?.[key];
  return typeof value === 'number' && Number.isSafeInteger(value) ? value : null;
}

/** An id field that may be expanded into an object (`customer: "cus_…"` or `customer: {id: …}`). */
export function idField(object: JsonObject | undefined, key: string): string | null {
  return expandableId(object?.[key]);
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
  return { subscriptionRef: idField(details, 'subscription'), metadata: details?.metadata };
}
