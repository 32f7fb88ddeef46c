import { createHash } from 'node:crypto';
import { InvalidParamsError } from '../../common/errors/index.js';

export const IDEMPOTENCY_HEADER = 'Idempotency-Key';
export const IDEMPOTENCY_KEY_MAX_LENGTH = 255;
/** Visible ASCII only (no space, no control character), as Stripe and the IETF draft's examples use. */
const KEY_PATTERN = /^[\x21-\x7e]+$/;
export const IDEMPOTENCY_KEY_PATTERN = '^[\\x21-\\x7E]{1,255}$';

/**
 * The request's `Idempotency-Key`: null when it sent none, else the key (1 to 255 visible ASCII
 * characters; anything else is 400 naming the header). A header sent twice reaches Express joined
 * with ", ", which has a space, so it is refused too.
 */
export function idempotencyKeyOf(header: string | string[] | undefined): string | null {
  if (header === undefined) return null;
  const value = Array.isArray(header) ? header.join(', ') : header;
  if (value.length === 0 || value.length > IDEMPOTENCY_KEY_MAX_LENGTH || !KEY_PATTERN.test(value)) {
    throw new InvalidParamsError({
      [IDEMPOTENCY_HEADER]: `${IDEMPOTENCY_HEADER} must be 1 to ${IDEMPOTENCY_KEY_MAX_LENGTH} visible ASCII characters (a random UUID fits)`,
    });
  }
  return value;
}

/**
 * SHA-256 (hex) of a validated request body in canonical JSON: object keys sorted, absent
 * (undefined) fields dropped, arrays in order. It hashes the DTO the validation pipe built, not the
 * bytes, so one request sent as JSON or form-encoded, with any key order, whitespace or trimmed
 * text, hashes the same; a changed value changes the hash.
 */
export function requestHash(body: unknown): string {
  return createHash('sha256').update(canonicalJson(body)).digest('hex');
}

export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) return `[${value.map((item) => (item === undefined ? 'null' : canonicalJson(item))).join(',')}]`;
  const entries = Object.keys(value)
    .filter((key) => (value as Record<string, unknown>)[key] !== undefined)
    .sort()
    .map((key) => `${JSON.stringify(key)}:${canonicalJson((value as Record<string, unknown>)[key])}`);
  return `{${entries.join(',')}}`;
}
