import { type GatewayBWebhookEvent, MalformedAnswer, parseWebhookEvent } from './gateway-b-wire.js';

/** The five transmission headers PayPal sends with every notification (names are case-insensitive). */
export const GATEWAY_B_TRANSMISSION_HEADERS = [
  'paypal-auth-algo',
  'paypal-cert-url',
  'paypal-transmission-id',
  'paypal-transmission-sig',
  'paypal-transmission-time',
] as const;

export type TransmissionHeaderName = (typeof GATEWAY_B_TRANSMISSION_HEADERS)[number];

/** Request headers as Express (`req.headers`) or fetch (`Headers`) hold them. */
export type IncomingHeaders = Headers | Readonly<Record<string, string | readonly string[] | undefined>>;

export interface TransmissionFields {
  auth_algo: string;
  cert_url: string;
  transmission_id: string;
  transmission_sig: string;
  transmission_time: string;
}

/** PayPal's documented formats of the verify-webhook-signature fields (verify_webhook_signature schema). */
const FORMATS: Record<TransmissionHeaderName, [keyof TransmissionFields, RegExp, number]> = {
  'paypal-auth-algo': ['auth_algo', /^[a-zA-Z0-9]+$/, 100],
  'paypal-cert-url': ['cert_url', /^https?:\/\/[^\s]+$/, 500],
  'paypal-transmission-id': ['transmission_id', /^(?!\d+$)\w+\S+$/, 50],
  'paypal-transmission-sig': ['transmission_sig', /^(?!\d+$)\w+\S+$/, 500],
  'paypal-transmission-time': ['transmission_time', /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?(Z|[+-]\d{2}:\d{2})$/, 100],
};

/** The webhook id of a listener: `^[a-zA-Z0-9]+$`, at most 50 characters. */
export function isGatewayBWebhookId(value: unknown): value is string {
  return typeof value === 'string' && /^[a-zA-Z0-9]{1,50}$/.test(value);
}

export type TransmissionRead =
  | { ok: true; fields: TransmissionFields }
  | { ok: false; reason: 'missing_headers' | 'invalid_headers'; headers: TransmissionHeaderName[] };

/**
 * The five headers, all required, each a single value in PayPal's documented format. Missing
 * (or empty, or repeated) headers are reported before malformed ones; no header value is echoed.
 */
export function readTransmissionHeaders(headers: IncomingHeaders): TransmissionRead {
  const missing: TransmissionHeaderName[] = [];
  const invalid: TransmissionHeaderName[] = [];
  const fields: Partial<TransmissionFields> = {};
  for (const name of GATEWAY_B_TRANSMISSION_HEADERS) {
    const value = headerValue(headers, name);
    if (value === undefined) {
      missing.push(name);
      continue;
    }
    const [field, pattern, max] = FORMATS[name];
    if (value.length > max || !pattern.test(value)) invalid.push(name);
    else fields[field] = value;
  }
  if (missing.length) return { ok: false, reason: 'missing_headers', headers: missing };
  if (invalid.length) return { ok: false, reason: 'invalid_headers', headers: invalid };
  return { ok: true, fields: fields as TransmissionFields };
}

function headerValue(headers: IncomingHeaders, name: string): string | undefined {
  let value: string | readonly string[] | null | undefined;
  if (typeof (headers as Headers).get === 'function' && typeof (headers as Headers).forEach === 'function') value = (headers as Headers).get(name);
  else {
    const record = headers as Readonly<Record<string, string | readonly string[] | undefined>>;
    const key = Object.keys(record).find((k) => k.toLowerCase() === name);
    value = key === undefined ? undefined : record[key];
  }
  if (Array.isArray(value)) value = value.length === 1 ? (value[0] as string) : undefined;
  if (typeof value !== 'string') return undefined;
  const trimmed = value.trim();
  return trimmed === '' ? undefined : trimmed;
}

/**
 * The received body as bytes plus the event parsed from them, or `undefined` when the bytes
 * are not a UTF-8 JSON object with PayPal's envelope (`id`, `event_type`, `resource`). Pass the
 * raw body as received (`req.rawBody`): a string is encoded as UTF-8, which is the original only
 * if nothing decoded and re-encoded it on the way.
 */
export function readEventBytes(rawBody: Buffer | Uint8Array | string): { bytes: Buffer; event: GatewayBWebhookEvent } | undefined {
  const bytes = typeof rawBody === 'string' ? Buffer.from(rawBody, 'utf8') : Buffer.from(rawBody.buffer, rawBody.byteOffset, rawBody.byteLength);
  let text: string;
  try {
    // fatal: invalid UTF-8 is refused rather than replaced; ignoreBOM: a BOM stays and fails JSON.parse
    text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    return undefined;
  }
  try {
    return { bytes, event: parseWebhookEvent(JSON.parse(text)) };
  } catch (error) {
    if (error instanceof SyntaxError || error instanceof MalformedAnswer) return undefined;
    throw error;
  }
}

/**
 * The body of `POST /v1/notifications/verify-webhook-signature`, with the received event bytes
 * spliced in verbatim as `webhook_event`.
 *
 * Why not `JSON.stringify({ ..., webhook_event: JSON.parse(rawBody) })`: the signature covers the
 * CRC32 of the bytes PayPal sent, and PayPal's guidance is to post the event back exactly as
 * received. Parsing and re-serialising reproduces those bytes only when PayPal's serialisation
 * happens to equal JavaScript's: key order, spacing, string escapes (`\u00e9` vs `é`, `\/`) and
 * number forms (`1.0`, `1E2`) all change the bytes, hence the CRC, hence the answer (FAILURE for
 * a genuine event). Splicing keeps the bytes identical by construction; `readEventBytes` has
 * already checked that they are one JSON object, so the result is valid JSON.
 */
export function postbackBody(fields: TransmissionFields, webhookId: string, eventBytes: Buffer): Buffer {
  const head = JSON.stringify({
    auth_algo: fields.auth_algo,
    cert_url: fields.cert_url,
    transmission_id: fields.transmission_id,
    transmission_sig: fields.transmission_sig,
    transmission_time: fields.transmission_time,
    webhook_id: webhookId,
  });
  return Buffer.concat([Buffer.from(`${head.slice(0, -1)},"webhook_event":`, 'utf8'), eventBytes, Buffer.from('}', 'utf8')]);
}
