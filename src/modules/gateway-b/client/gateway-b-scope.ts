import { Injectable } from '@nestjs/common';
import { createHash } from 'node:crypto';
import { InstallationService } from '../../settings/index.js';

/** PayPal takes request ids of 1–108 characters. */
const MAX_REQUEST_ID = 108;

/**
 * What marks this installation's gateway-B objects (docs/decisions.md §9, §14):
 *
 * - `PayPal-Request-Id`s start with `checkout-{installation id}-`, so two installations on one
 *   PayPal app (staging and production; their payment ids collide) never replay each other's
 *   orders or captures;
 * - each order's purchase unit carries `custom_id` = the payment id (docs/decisions.md §9) and
 *   `invoice_id` = `checkout-{installation id}-{payment id}`: PayPal copies both onto the capture
 *   and into `PAYMENT.CAPTURE.*` events, so an event tells whose order it is without a call.
 *   `invoice_id` is unique per payment, which also keeps PayPal's duplicate-invoice protection
 *   meaningful.
 */
@Injectable()
export class GatewayBScope {
  constructor(private readonly installation: InstallationService) {}

  get installationId(): string {
    return this.installation.id();
  }

  /** The order's `invoice_id`: this installation's marker for one payment. */
  invoiceId(paymentId: number): string {
    return `checkout-${this.installationId}-${paymentId}`;
  }

  /**
   * Create order: payment, amount and currency (docs/decisions.md §9); an order replacing another one
   * (the record's previous order is unusable) adds a digest of the replaced id, because a reused
   * id would answer the replaced order again.
   */
  createOrderRequestId(paymentId: number, amount: number, currency: string, replaces: string | null): string {
    const base = `checkout-${this.installationId}-order-${paymentId}-${amount}-${currency.toUpperCase()}`;
    return fit(replaces ? `${base}-r${digest(replaces, 10)}` : base);
  }

  /**
   * Capture: payment and order, so a repeat answers the first capture instead of a second one.
   * `attempt` counts the captures of this payment PayPal refused before (a declined funding
   * source the payer then replaced): whether PayPal remembers a refusal under its request id is
   * not documented, so the next attempt after one gets a new id.
   */
  /** Refund: one per refund row, so a repeat of the call (a retry, a crash) answers the first refund. */
  refundRequestId(refundId: number): string {
    return fit(`checkout-${this.installationId}-refund-${refundId}`);
  }

  /** The refund's `custom_id`: this installation's marker for one of our refunds (the reconcile reads it back). */
  refundCustomId(refundId: number): string {
    return `checkout-${this.installationId}-refund-${refundId}`;
  }

  captureRequestId(paymentId: number, orderId: string, attempt = 0): string {
    return fit(`checkout-${this.installationId}-capture-${paymentId}-${orderId}${attempt > 0 ? `-a${attempt}` : ''}`);
  }
}

function digest(value: string, length: number): string {
  return createHash('sha256').update(value).digest('base64url').slice(0, length);
}

/** Request ids longer than PayPal takes keep their prefix and end in a digest of the whole. */
function fit(id: string): string {
  if (id.length <= MAX_REQUEST_ID) return id;
  return `${id.slice(0, MAX_REQUEST_ID - 44)}-${digest(id, 43)}`;
}
