import { createVerify, type KeyObject, randomInt, randomUUID, sign, type X509Certificate } from 'node:crypto';
import { crc32 } from 'node:zlib';
import type { Json } from './fake-orders.js';

/**
 * PayPal's webhook transmission signature, reproduced exactly:
 *
 *   message   = `<PAYPAL-TRANSMISSION-ID>|<PAYPAL-TRANSMISSION-TIME>|<webhook id>|<CRC32 of the raw body>`
 *   signature = base64(RSASSA-PKCS1-v1_5 SHA-256 over message, PayPal's private key)  (SHA256withRSA)
 *
 * The CRC32 is the standard (zlib/IEEE) checksum of the HTTP body bytes as sent, written as an
 * unsigned decimal integer. The webhook id is the id of the subscribed listener (not the event
 * id). The certificate whose public key verifies the signature is served at PAYPAL-CERT-URL.
 */
export const AUTH_ALGO = 'SHA256withRSA';

export const TRANSMISSION_HEADERS = [
  'PAYPAL-AUTH-ALGO',
  'PAYPAL-CERT-URL',
  'PAYPAL-TRANSMISSION-ID',
  'PAYPAL-TRANSMISSION-SIG',
  'PAYPAL-TRANSMISSION-TIME',
] as const;

export type TransmissionHeaders = Record<(typeof TRANSMISSION_HEADERS)[number], string>;

export function bodyCrc32(rawBody: Buffer | string): number {
  return crc32(Buffer.isBuffer(rawBody) ? rawBody : Buffer.from(rawBody, 'utf8'));
}

export function signedMessage(transmissionId: string, transmissionTime: string, webhookId: string, rawBody: Buffer | string): string {
  return `${transmissionId}|${transmissionTime}|${webhookId}|${bodyCrc32(rawBody)}`;
}

export interface TransmissionOptions {
  webhookId: string;
  certUrl: string;
  privateKey: KeyObject;
  transmissionId?: string;
  /** Internet date-time; PayPal sends seconds precision (`2026-11-25T10:00:00Z`). */
  transmissionTime?: string | Date;
}

/** The five headers PayPal sends with a notification whose body is `rawBody`. */
export function signTransmission(rawBody: Buffer | string, options: TransmissionOptions): TransmissionHeaders {
  const transmissionId = options.transmissionId ?? randomUUID();
  const time = options.transmissionTime ?? new Date();
  const transmissionTime = typeof time === 'string' ? time : time.toISOString().replace(/\.\d{3}Z$/, 'Z');
  const signature = sign('sha256', Buffer.from(signedMessage(transmissionId, transmissionTime, options.webhookId, rawBody), 'utf8'), options.privateKey);
  return {
    'PAYPAL-AUTH-ALGO': AUTH_ALGO,
    'PAYPAL-CERT-URL': options.certUrl,
    'PAYPAL-TRANSMISSION-ID': transmissionId,
    'PAYPAL-TRANSMISSION-SIG': signature.toString('base64'),
    'PAYPAL-TRANSMISSION-TIME': transmissionTime,
  };
}

/** What a receiver does to self-verify (and what the fake's verify-webhook-signature does). */
export function verifyTransmission(
  rawBody: Buffer | string,
  fields: { authAlgo: string; transmissionId: string; transmissionTime: string; transmissionSig: string; webhookId: string },
  certificate: X509Certificate,
): boolean {
  if (fields.authAlgo.toLowerCase() !== AUTH_ALGO.toLowerCase()) return false;
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(fields.transmissionSig)) return false;
  const verifier = createVerify('sha256');
  verifier.update(signedMessage(fields.transmissionId, fields.transmissionTime, fields.webhookId, rawBody), 'utf8');
  return verifier.verify(certificate.publicKey, Buffer.from(fields.transmissionSig, 'base64'));
}

// --- events -----------------------------------------------------------------------------------------

export interface EventOptions {
  id?: string;
  createTime?: Date;
  /** API origin used in the event's links (the fake's own). */
  apiBase?: string;
}

/** `WH-` ids as PayPal writes them: `WH-58D329510W468432D-8HN650336L201105X`. */
export function fakeEventId(): string {
  return `WH-${fakePayPalId(17)}-${fakePayPalId(17)}`;
}

export function fakePayPalId(length = 17, alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789'): string {
  let id = '';
  for (let i = 0; i < length; i += 1) id += alphabet[randomInt(alphabet.length)];
  return id;
}

/**
 * A PayPal account id (a payer's `payer_id`, a payee's `merchant_id`): 13 characters without 0, 1,
 * I and O (`^[2-9A-HJ-NP-Z]{13}$`, Orders v2 `account_id`).
 */
export function fakeAccountId(): string {
  return fakePayPalId(13, '23456789ABCDEFGHJKLMNPQRSTUVWXYZ');
}

/**
 * PayPal's webhook envelope around a resource, e.g. a capture for `PAYMENT.CAPTURE.COMPLETED`:
 * `{ id, event_version, create_time, resource_type, resource_version, event_type, summary,
 * resource, links }`. Serialise it yourself (and sign those exact bytes), or use the fake's
 * `webhookDelivery`.
 */
export function buildEvent(eventType: string, resourceType: string, resource: Json, summary: string, options: EventOptions = {}): Json {
  const id = options.id ?? fakeEventId();
  const apiBase = options.apiBase ?? 'https://api-m.sandbox.paypal.com';
  return {
    id,
    event_version: '1.0',
    create_time: (options.createTime ?? new Date()).toISOString(),
    resource_type: resourceType,
    resource_version: '2.0',
    event_type: eventType,
    summary,
    resource,
    links: [
      { href: `${apiBase}/v1/notifications/webhooks-events/${id}`, rel: 'self', method: 'GET' },
      { href: `${apiBase}/v1/notifications/webhooks-events/${id}/resend`, rel: 'resend', method: 'POST' },
    ],
  };
}

/**
 * `PAYMENT.CAPTURE.COMPLETED` for a capture of `orderId`: the resource is the capture with
 * `custom_id` and `supplementary_data.related_ids.order_id`, as PayPal sends it.
 */
export function captureCompletedEvent(capture: Json, orderId: string, options: EventOptions = {}): Json {
  const amount = (capture.amount ?? {}) as { currency_code?: string; value?: string };
  const resource: Json = {
    ...capture,
    supplementary_data: { related_ids: { order_id: orderId } },
  };
  const summary = `Payment completed for ${amount.value ?? '?'} ${amount.currency_code ?? ''}`.trim();
  return buildEvent('PAYMENT.CAPTURE.COMPLETED', 'capture', resource, summary, options);
}

/** `PAYMENT.CAPTURE.REFUNDED` as PayPal sends it: the refund as the resource, its `up` link naming the capture. */
export function captureRefundedEvent(refund: Json, options: EventOptions = {}): Json {
  const amount = (refund.amount ?? {}) as { currency_code?: string; value?: string };
  return buildEvent('PAYMENT.CAPTURE.REFUNDED', 'refund', refund, `A ${amount.value ?? '?'} ${amount.currency_code ?? ''} capture payment was refunded`.trim(), options);
}

/** `CUSTOMER.DISPUTE.CREATED` / `.UPDATED` / `.RESOLVED` as PayPal sends it: the dispute's details as the resource. */
export function customerDisputeEvent(eventType: 'CUSTOMER.DISPUTE.CREATED' | 'CUSTOMER.DISPUTE.UPDATED' | 'CUSTOMER.DISPUTE.RESOLVED', dispute: Json, options: EventOptions = {}): Json {
  const what = eventType === 'CUSTOMER.DISPUTE.CREATED' ? 'A new dispute opened' : eventType === 'CUSTOMER.DISPUTE.RESOLVED' ? 'A dispute was resolved' : 'A dispute was updated';
  return buildEvent(eventType, 'dispute', dispute, `${what} with Case # ${String(dispute.dispute_id)}`, options);
}
