import { createHmac, randomBytes } from 'node:crypto';

/**
 * The gateway's webhook signing scheme: `t=<unix seconds>,v1=<hex HMAC-SHA256(secret, "t.raw")>`.
 * Tests sign payloads with it exactly as the gateway would (cross-checked against the SDK).
 */
export function signPayload(rawBody: string | Buffer, secret: string, timestampSec = Math.floor(Date.now() / 1000)): string {
  const payload = Buffer.isBuffer(rawBody) ? rawBody.toString('utf8') : rawBody;
  const signature = createHmac('sha256', secret).update(`${timestampSec}.${payload}`, 'utf8').digest('hex');
  return `t=${timestampSec},v1=${signature}`;
}

export interface FakeEventOptions {
  id?: string;
  livemode?: boolean;
  created?: number;
  apiVersion?: string;
  account?: string;
}

/** An event envelope as the gateway sends it, serialised (sign the exact string you send). */
export function buildEvent(type: string, object: Record<string, unknown>, options: FakeEventOptions = {}): string {
  return JSON.stringify({
    id: options.id ?? `evt_${randomBytes(12).toString('hex')}`,
    object: 'event',
    api_version: options.apiVersion ?? null,
    created: options.created ?? Math.floor(Date.now() / 1000),
    data: { object },
    livemode: options.livemode ?? false,
    pending_webhooks: 1,
    request: { id: null, idempotency_key: null },
    type,
    ...(options.account ? { account: options.account } : {}),
  });
}

/** A signed event ready to POST: the raw body and its signature header value. */
export function signedEvent(type: string, object: Record<string, unknown>, secret: string, options: FakeEventOptions & { timestampSec?: number } = {}): {
  body: string;
  signature: string;
} {
  const body = buildEvent(type, object, options);
  return { body, signature: signPayload(body, secret, options.timestampSec) };
}
