import { createHash } from 'node:crypto';

/**
 * Idempotency keys sent with every gateway-A create. A key is derived from what makes the
 * object unique (and, for catalog objects, from the parameters sent), so that a retry or a
 * concurrent duplicate call gets the gateway's first answer instead of a second object. Emails
 * are hashed: keys must not carry payer data.
 */
function digest(parts: ReadonlyArray<string | number>): string {
  return createHash('sha256').update(JSON.stringify(parts)).digest('base64url').slice(0, 43);
}

export const idempotencyKeys = {
  paymentIntent: (paymentId: number, amount: number, currency: string, variant: string): string =>
    `checkout-pi-${paymentId}-${amount}-${currency.toLowerCase()}-${variant}`,
  setupIntent: (paymentId: number, variant: string): string => `checkout-seti-${paymentId}-${variant}`,
  subscription: (paymentId: number): string => `checkout-sub-${paymentId}`,
  adminCharge: (paymentId: number): string => `checkout-charge-${paymentId}`,
  catalog: (kind: 'customer' | 'product' | 'price', identity: ReadonlyArray<string | number>, params: unknown): string =>
    `checkout-${kind}-${digest([...identity, JSON.stringify(params)])}`,
};
