import { safeEqual } from '../../common/crypto/index.js';

/**
 * The two public credentials of a payment record (docs/decisions.md §5), as pure functions of a keyed
 * HMAC so they can be tested without the app:
 * - payment secret: base64url(HMAC-SHA256("payment-secret" key, "<id>:<nonce>")); never stored.
 * - checkout token: base64url(JSON claims) + "." + base64url(HMAC-SHA256("checkout-token" key,
 *   first part)); expires, and binds the payment to its form, gateway, method, amount, currency, mode.
 */
export type Hmac = (data: string) => Buffer;

export interface CheckoutTokenClaims {
  payment_id: number;
  form_id: number;
  gateway: string;
  payment_method: string;
  amount: number;
  currency: string;
  mode: string;
}

export interface SignedCheckoutToken extends CheckoutTokenClaims {
  /** issued at, unix seconds */
  iat: number;
  /** expires at, unix seconds */
  exp: number;
}

const TOKEN_VERSION = 1;
/** Far above a real token (~300 chars); refuses oversized input before any work. */
export const MAX_TOKEN_LENGTH = 1024;
const BASE64URL = /^[A-Za-z0-9_-]+$/;

export function paymentSecret(hmac: Hmac, paymentId: number, nonce: string): string {
  return hmac(`${paymentId}:${nonce}`).toString('base64url');
}

export function isPaymentSecret(hmac: Hmac, paymentId: number, nonce: string, candidate: string): boolean {
  return safeEqual(paymentSecret(hmac, paymentId, nonce), candidate);
}

export function signCheckoutToken(hmac: Hmac, claims: CheckoutTokenClaims, nowMs: number, ttlSeconds: number): string {
  const iat = Math.floor(nowMs / 1000);
  const body = {
    v: TOKEN_VERSION,
    payment_id: claims.payment_id,
    form_id: claims.form_id,
    gateway: claims.gateway,
    payment_method: claims.payment_method,
    amount: claims.amount,
    currency: claims.currency,
    mode: claims.mode,
    iat,
    exp: iat + ttlSeconds,
  };
  const payload = Buffer.from(JSON.stringify(body), 'utf8').toString('base64url');
  return `${payload}.${hmac(payload).toString('base64url')}`;
}

/**
 * The claims of a genuine, unexpired token, or null. The signature is checked (in constant time)
 * before the payload is parsed, so a forged token never reaches JSON.parse.
 */
export function readCheckoutToken(hmac: Hmac, token: string, nowMs: number): SignedCheckoutToken | null {
  if (typeof token !== 'string' || token.length > MAX_TOKEN_LENGTH) return null;
  const parts = token.split('.');
  if (parts.length !== 2 || !BASE64URL.test(parts[0]) || !BASE64URL.test(parts[1])) return null;
  const [payload, signature] = parts;
  if (!safeEqual(hmac(payload).toString('base64url'), signature)) return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
  } catch {
    return null;
  }
  if (!isClaims(parsed) || parsed.exp * 1000 <= nowMs) return null;
  const { payment_id, form_id, gateway, payment_method, amount, currency, mode, iat, exp } = parsed;
  return { payment_id, form_id, gateway, payment_method, amount, currency, mode, iat, exp };
}

function isClaims(parsed: unknown): parsed is SignedCheckoutToken {
  if (typeof parsed !== 'object' || parsed === null) return false;
  const value = parsed as Record<string, unknown>;
  return (
    value.v === TOKEN_VERSION &&
    Number.isSafeInteger(value.payment_id) &&
    Number.isSafeInteger(value.form_id) &&
    typeof value.gateway === 'string' &&
    typeof value.payment_method === 'string' &&
    Number.isSafeInteger(value.amount) &&
    typeof value.currency === 'string' &&
    typeof value.mode === 'string' &&
    Number.isSafeInteger(value.iat) &&
    Number.isSafeInteger(value.exp)
  );
}
