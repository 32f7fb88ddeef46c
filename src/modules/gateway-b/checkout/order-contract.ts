import type { PaymentStatus } from '../../payments/index.js';
import { fromGatewayBAmount } from '../client/gateway-b-money.js';
import type { GatewayBCapture, GatewayBMoney, GatewayBOrder } from '../client/gateway-b-wire.js';

/** What this service expects of the order of one payment record. */
export interface ExpectedOrder {
  /** The order id the record holds (omitted when checking a newly created order). */
  orderId?: string;
  paymentId: number;
  /** Minor units and ISO code, as on the record */
  amount: number;
  currency: string;
  /** This installation's marker (`GatewayBScope.invoiceId`) */
  invoiceId: string;
}

/** Orders a payer can still approve, or has approved but nobody captured: handed out again. */
export const REUSABLE_ORDER_STATUSES: readonly string[] = ['CREATED', 'PAYER_ACTION_REQUIRED', 'APPROVED'];

/** True when `money` is exactly `amount` minor units of `currency` (compared as numbers, not strings). */
export function sameMoney(money: GatewayBMoney | undefined, amount: number, currency: string): boolean {
  if (!money) return false;
  try {
    const read = fromGatewayBAmount(money);
    return read.minor === amount && read.currency === currency.toUpperCase();
  } catch {
    return false;
  }
}

/**
 * The fields in which an order disagrees with the record it was made for: one purchase unit,
 * intent CAPTURE, the record's amount and currency, `custom_id` = payment id and this
 * installation's `invoice_id` (all read from the whole order: the client always asks for
 * `return=representation`, and a field that is missing counts as different). Used before an order is handed out again and after one is created
 * (a replayed `PayPal-Request-Id` answers whatever order it created first).
 */
export function orderDifferences(order: GatewayBOrder, expected: ExpectedOrder): string[] {
  const differences: string[] = [];
  if (expected.orderId !== undefined && order.id !== expected.orderId) differences.push('order_id');
  if (order.intent !== undefined && order.intent !== 'CAPTURE') differences.push('intent');
  if (order.purchase_units.length !== 1) differences.push('purchase_units');
  const unit = order.purchase_units[0];
  if (!unit) return differences;
  if (!sameMoney(unit.amount, expected.amount, expected.currency)) differences.push(unit.amount?.currency_code === expected.currency.toUpperCase() ? 'amount' : 'currency');
  if (unit.custom_id !== String(expected.paymentId)) differences.push('custom_id');
  if (unit.invoice_id !== expected.invoiceId) differences.push('invoice_id');
  return differences;
}

/** What a capture's status means for the record; null for a status that never answers a capture. */
export function captureOutcome(capture: GatewayBCapture): Extract<PaymentStatus, 'completed' | 'processing' | 'failed'> | null {
  switch (capture.status) {
    case 'COMPLETED':
      return 'completed';
    case 'PENDING':
      return 'processing';
    case 'DECLINED':
    case 'FAILED':
      return 'failed';
    default:
      return null;
  }
}

/**
 * The fields in which a captured order disagrees with the record (docs/decisions.md §9): the order is the
 * one the record holds, exactly one capture, in the record's amount and currency, carrying
 * `custom_id` = payment id and this installation's `invoice_id`, with a status a capture can have.
 * An empty list means the capture may move the record (its status says where).
 */
export function captureDifferences(order: GatewayBOrder, capture: GatewayBCapture | undefined, expected: ExpectedOrder): string[] {
  const differences = orderDifferences(order, expected);
  if (!capture) return [...differences, 'capture'];
  if ((order.purchase_units[0]?.payments?.captures.length ?? 0) !== 1) differences.push('captures');
  if (!sameMoney(capture.amount, expected.amount, expected.currency)) {
    const currencyDiffers = capture.amount?.currency_code !== expected.currency.toUpperCase();
    differences.push(currencyDiffers ? 'currency' : 'amount');
  }
  if (capture.custom_id !== String(expected.paymentId)) differences.push('custom_id');
  if (capture.invoice_id !== expected.invoiceId) differences.push('invoice_id');
  if (captureOutcome(capture) === null) differences.push('status');
  return [...new Set(differences)];
}

/** The order is paid or being paid: approved by the payer, or holding a completed or pending capture. */
export function orderUnderway(order: GatewayBOrder): boolean {
  if (order.status === 'APPROVED') return true;
  return order.purchase_units.some((unit) => (unit.payments?.captures ?? []).some((capture) => capture.status === 'COMPLETED' || capture.status === 'PENDING'));
}
