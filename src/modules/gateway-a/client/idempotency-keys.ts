import { createHash } from 'node:crypto';

/**
 * Idempotency keys sent with every gateway-A create. A key is derived from this installation's id
 * and what makes the object unique (and, for catalog objects, from the parameters sent), so that a
 * retry or a concurrent duplicate call gets the gateway's first answer instead of a second object,
 * and two installations on one gateway account never share a key (their payment ids collide).
 * Emails are hashed: keys must not carry payer data.
 */
function digest(parts: ReadonlyArray<string | number>): string {
  return createHash('sha256').update(JSON.stringify(parts)).digest('base64url').slice(0, 43);
}

export type IdempotencyKeys = ReturnType<typeof idempotencyKeys>;

export function idempotencyKeys(installationId: string) {
  const prefix = `checkout-${installationId}`;
  return {
    paymentIntent: (paymentId: number, amount: number, currency: string, variant: string): string =>
      `${prefix}-pi-${paymentId}-${amount}-${currency.toLowerCase()}-${variant}`,
    setupIntent: (paymentId: number, variant: string): string => `${prefix}-seti-${paymentId}-${variant}`,
    subscription: (paymentId: number): string => `${prefix}-sub-${paymentId}`,
    adminCharge: (paymentId: number): string => `${prefix}-charge-${paymentId}`,
    /** A refund: one per refund row, so a repeat of the call (a retry, a crash) never refunds twice. */
    refund: (refundId: number): string => `${prefix}-refund-${refundId}`,
    /** Canceling an intent a newer one replaced. */
    retire: (intentId: string): string => `${prefix}-retire-${intentId}`,
    catalog: (kind: 'customer' | 'product' | 'price', identity: ReadonlyArray<string | number>, params: unknown): string =>
      `${prefix}-${kind}-${digest([...identity, JSON.stringify(params)])}`,
    /** A new managed webhook endpoint (each provisioning is a new endpoint). */
    webhookEndpoint: (mode: string, attempt: string): string => `${prefix}-webhook-endpoint-${mode}-${attempt}`,
    /** The in-place event-list update of an endpoint to a release. */
    webhookUpgrade: (release: string, endpointId: string): string => `${prefix}-${release}-events-${endpointId}`,
  };
}
