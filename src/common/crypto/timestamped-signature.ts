import { createHmac, timingSafeEqual } from 'node:crypto';

/** Why a signature header was refused. */
export type SignatureFailure = 'missing_secret' | 'missing_header' | 'malformed_header' | 'no_signature' | 'stale_timestamp' | 'future_timestamp' | 'mismatch';

export type SignatureCheck = { valid: true; timestamp: number } | { valid: false; reason: SignatureFailure };

export const SIGNATURE_TOLERANCE_SECONDS = 300;
const MAX_HEADER_LENGTH = 4096;
const MAX_SIGNATURES = 16;

/**
 * Verifies a timestamped HMAC signature header, the scheme of gateway A's webhooks
 * (`Gateway-A-Signature` / `Stripe-Signature`) and of section B's `Checkout-Signature`:
 * `t=<unix seconds>,v1=<hex HMAC-SHA256(secret, "t.raw-body")>`, possibly with several `v1` entries
 * (during a secret roll) and other schemes (ignored). The HMAC is computed over the exact raw bytes; comparison is constant time after a
 * length check. A timestamp more than `toleranceSec` in the past or the future is refused, which
 * bounds replays.
 */
export function verifyTimestampedSignature(
  rawBody: Buffer,
  header: string | undefined,
  secret: string | null | undefined,
  toleranceSec = SIGNATURE_TOLERANCE_SECONDS,
  nowMs = Date.now(),
): SignatureCheck {
  if (!secret) return { valid: false, reason: 'missing_secret' };
  if (header === undefined || header.trim() === '') return { valid: false, reason: 'missing_header' };
  if (header.length > MAX_HEADER_LENGTH) return { valid: false, reason: 'malformed_header' };

  let timestamp: number | undefined;
  const signatures: string[] = [];
  for (const part of header.split(',')) {
    const eq = part.indexOf('=');
    if (eq <= 0) return { valid: false, reason: 'malformed_header' };
    const key = part.slice(0, eq).trim();
    const value = part.slice(eq + 1).trim();
    if (key === 't') {
      if (timestamp !== undefined || !/^\d{1,12}$/.test(value)) return { valid: false, reason: 'malformed_header' };
      timestamp = Number(value);
    } else if (key === 'v1') {
      signatures.push(value);
    }
  }
  if (timestamp === undefined) return { valid: false, reason: 'malformed_header' };
  if (signatures.length === 0) return { valid: false, reason: 'no_signature' };
  if (signatures.length > MAX_SIGNATURES) return { valid: false, reason: 'malformed_header' };

  const age = Math.floor(nowMs / 1000) - timestamp;
  if (age > toleranceSec) return { valid: false, reason: 'stale_timestamp' };
  if (-age > toleranceSec) return { valid: false, reason: 'future_timestamp' };

  const expected = createHmac('sha256', secret).update(`${timestamp}.`, 'utf8').update(rawBody).digest();
  const matches = signatures.some((candidate) => {
    if (!/^[0-9a-f]+$/i.test(candidate)) return false;
    const given = Buffer.from(candidate, 'hex');
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
  return matches ? { valid: true, timestamp } : { valid: false, reason: 'mismatch' };
}
