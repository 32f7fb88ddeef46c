import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { hostname } from 'node:os';
import type { Params } from 'nestjs-pino';
import type { AppConfig } from '../../config/index.js';
import { requestIdOf } from '../request-id/index.js';

/** Answers whose 5xx is expected (see `logAsRoutine`). */
const ROUTINE = new WeakSet<object>();

/**
 * Logs this answer at info even if it is a 5xx: for an answer that is the service working as meant
 * (`/readyz`'s 503 while the instance shuts down, asked every few seconds by the balancer), so
 * that error lines stay failures.
 */
export function logAsRoutine(response: object): void {
  ROUTINE.add(response);
}

/** Request headers that carry credentials or signatures: logged as `[redacted]` when present. */
const SECRET_REQUEST_HEADERS: readonly string[] = ['authorization', 'cookie', 'x-wp-nonce', 'gateway-a-signature', 'stripe-signature', 'checkout-signature', 'paypal-transmission-sig'];
/**
 * Request headers whose value is worth something to whoever reads the log but which an operator
 * still needs to follow: logged as `sha256:` and the first 16 hex digits of the value's SHA-256.
 * An `Idempotency-Key` replays a creation (with the same client and body) for 24 hours; its hash
 * still shows two lines are one key, and an operator finds a client's key by hashing it.
 */
const HASHED_REQUEST_HEADERS: readonly string[] = ['idempotency-key'];
/** Response headers that carry credentials. */
const SECRET_RESPONSE_HEADERS: readonly string[] = ['set-cookie'];
export const REDACTED = '[redacted]';

/**
 * Structured JSON logs (pino) with one request id per request: the caller's `X-Request-Id` when it
 * looks sane, a new UUID otherwise; echoed in the response. Credentials and signatures are redacted.
 * One line per answer, at info for 2xx–4xx and at error for 5xx.
 *
 * Performance (docs/benchmarks.md, "After"): the redaction is done by the two serializers below,
 * which copy the headers once and overwrite the few secret ones, instead of pino's `redact` paths
 * (which walk and restore the logged object on every line); `service` is a base binding instead of
 * `customProps` (which made pino-http build and stringify an extra child logger per request).
 */
export function loggerOptions(config: Pick<AppConfig, 'logLevel'>): Params {
  return {
    pinoHttp: {
      level: config.logLevel,
      base: { pid: process.pid, hostname: hostname(), service: 'checkout-api' },
      // A refusal of the client's request (4xx) is routine: info, like a success. A 5xx, or an
      // answer that failed to be written, is the service's own failure: error.
      customLogLevel: (_request: IncomingMessage, response: ServerResponse, error?: Error) => (error || (response.statusCode >= 500 && !ROUTINE.has(response)) ? 'error' : 'info'),
      genReqId: (request: IncomingMessage, response) => {
        const id = requestIdOf(request);
        response.setHeader('X-Request-Id', id);
        return id;
      },
      serializers: {
        // The query string can carry OAuth codes and credentials (connect callback): log the path only.
        req: (req: { id: string; method: string; url: string; headers: Record<string, unknown> }) => ({
          id: req.id,
          method: req.method,
          path: pathOf(req.url),
          headers: redactHeaders(req.headers, SECRET_REQUEST_HEADERS, HASHED_REQUEST_HEADERS),
        }),
        res: (res: { statusCode: number; headers: Record<string, unknown> }) => ({
          statusCode: res.statusCode,
          headers: redactHeaders(res.headers, SECRET_RESPONSE_HEADERS),
        }),
      },
    },
  };
}

/** A payer's manage link (`/pay/manage/{token}` and the paths below it): the token is a credential. */
const PAYER_MANAGE_TOKEN = /^\/pay\/manage\/[^/]+/;

/** The logged path: no query string, and a payer's manage token written as `[token]`. */
export function pathOf(url: string): string {
  const query = url.indexOf('?');
  const path = query === -1 ? url : url.slice(0, query);
  return path.startsWith('/pay/manage/') ? path.replace(PAYER_MANAGE_TOKEN, '/pay/manage/[token]') : path;
}

/**
 * The headers as they are, or a copy with each secret one that is present replaced by
 * `[redacted]` and each `hashed` one by its `hashedValue`.
 */
export function redactHeaders(headers: Record<string, unknown> | undefined, secret: readonly string[], hashed: readonly string[] = []): Record<string, unknown> | undefined {
  if (!headers) return headers;
  let copy: Record<string, unknown> | undefined;
  for (const name of secret) {
    if (headers[name] === undefined) continue;
    copy ??= { ...headers };
    copy[name] = REDACTED;
  }
  for (const name of hashed) {
    const value = headers[name];
    if (value === undefined) continue;
    copy ??= { ...headers };
    copy[name] = hashedValue(Array.isArray(value) ? value.join(', ') : String(value));
  }
  return copy ?? headers;
}

/** `sha256:` and 64 bits of the value's SHA-256 in hex: enough to tell keys apart in a log. */
export function hashedValue(value: string): string {
  return `sha256:${createHash('sha256').update(value).digest('hex').slice(0, 16)}`;
}
