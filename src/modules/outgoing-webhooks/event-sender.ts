import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { type Resolver, resolveAllowed } from './address-policy.js';

/** Each attempt's limit: connect, send and the whole answer. */
export const ATTEMPT_TIMEOUT_MS = 10_000;
/** How much of an answer the delivery log keeps. */
export const RESPONSE_EXCERPT_BYTES = 1024;

export interface SendOutcome {
  /** Null when no answer came (refused address, timeout, connection error). */
  statusCode: number | null;
  durationMs: number;
  /** The first 1 KB of the answer's body. */
  excerpt: string | null;
  /** Why no answer came, or null. */
  error: string | null;
}

/**
 * POSTs one signed event. The host name is resolved here, once, and checked (address-policy); the
 * socket connects to that very address (the agent's `lookup` answers it, so no second lookup can
 * be steered elsewhere) while TLS still checks the certificate against the name. A redirect is an
 * answer like any other (3xx: not followed, so a failure). Never throws.
 */
export async function sendEvent(
  url: string,
  body: string,
  headers: Record<string, string>,
  options: { allowPrivate: boolean; resolve?: Resolver; timeoutMs?: number },
): Promise<SendOutcome> {
  const started = process.hrtime.bigint();
  const elapsed = () => Number((process.hrtime.bigint() - started) / 1_000_000n);
  const target = new URL(url);
  let pinned: { address: string; family: 4 | 6 };
  try {
    if (target.protocol !== 'https:' && !(options.allowPrivate && target.protocol === 'http:')) throw new Error('the URL is not https');
    pinned = await resolveAllowed(target.hostname, options.allowPrivate, options.resolve);
  } catch (error) {
    return { statusCode: null, durationMs: elapsed(), excerpt: null, error: `refused: ${(error as Error).message}` };
  }
  const lookup: LookupFunction = (_hostname, lookupOptions, callback) => {
    if ((lookupOptions as { all?: boolean }).all) (callback as unknown as (e: null, a: Array<{ address: string; family: number }>) => void)(null, [pinned]);
    else callback(null, pinned.address, pinned.family);
  };
  const client = target.protocol === 'https:' ? https : http;
  const timeoutMs = options.timeoutMs ?? ATTEMPT_TIMEOUT_MS;
  return new Promise<SendOutcome>((resolve) => {
    let settled = false;
    const finish = (outcome: Omit<SendOutcome, 'durationMs'>) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve({ ...outcome, durationMs: elapsed() });
    };
    const request = client.request(
      target,
      {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'Content-Length': String(Buffer.byteLength(body)), 'User-Agent': 'Checkout-Webhooks/1', ...headers },
        lookup,
        agent: false,
      },
      (response) => {
        const chunks: Buffer[] = [];
        let kept = 0;
        response.on('data', (chunk: Buffer) => {
          if (kept >= RESPONSE_EXCERPT_BYTES) return;
          chunks.push(chunk.subarray(0, RESPONSE_EXCERPT_BYTES - kept));
          kept += Math.min(chunk.length, RESPONSE_EXCERPT_BYTES - kept);
        });
        response.on('end', () => finish({ statusCode: response.statusCode ?? null, excerpt: Buffer.concat(chunks).toString('utf8'), error: null }));
        response.on('error', (error) => finish({ statusCode: response.statusCode ?? null, excerpt: Buffer.concat(chunks).toString('utf8'), error: error.message }));
      },
    );
    const timer = setTimeout(() => {
      finish({ statusCode: null, excerpt: null, error: `no answer within ${timeoutMs / 1000} s` });
      request.destroy();
    }, timeoutMs);
    request.on('error', (error) => finish({ statusCode: null, excerpt: null, error: error.message.slice(0, 200) }));
    request.end(body);
  });
}
