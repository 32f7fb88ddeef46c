import { hmacSha256 } from '../../common/crypto/index.js';

/** The header a receiver verifies, as gateway A's webhooks carry it (receivers reuse their code). */
export const SIGNATURE_HEADER = 'Checkout-Signature';

/**
 * `t=<unix seconds>,v1=<hex HMAC-SHA256 of "t.body">` with one `v1=` per secret, the current one
 * first (during a rotation the previous secret's follows, for 24 hours).
 */
export function signatureHeader(body: string, secrets: readonly string[], unixSeconds: number): string {
  const signed = `${unixSeconds}.${body}`;
  return [`t=${unixSeconds}`, ...secrets.map((secret) => `v1=${hmacSha256(secret, signed).toString('hex')}`)].join(',');
}
