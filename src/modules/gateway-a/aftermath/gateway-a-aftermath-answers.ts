import type { GatewayMode, ProviderDispute, ProviderRefund } from '../../gateways/index.js';
import { isObject, Reader } from '../client/gateway-a-answers.js';
import { INSTALLATION_METADATA_KEY } from '../client/installation-scope.js';

type Json = Record<string, unknown>;

/** The metadata key of our refund id on a gateway-A refund (the refunds route sets it; a reconcile finds the refund by it). */
export const REFUND_METADATA_KEY = 'checkout_refund_id';

/** A refund: `re_…`, or `pyr_…` for some bank debits. */
const REFUND_ID = /^(re|pyr)_[A-Za-z0-9]{1,250}$/;
/** A dispute: `du_…`, or `dp_…` for some methods. */
const DISPUTE_ID = /^(du|dp)_[A-Za-z0-9]{1,250}$/;
const EVENT_ID = /^evt_[A-Za-z0-9]{1,250}$/;
const INTENT_ID = /^pi_[A-Za-z0-9]{1,250}$/;
const REFUND_STATUSES: Record<string, ProviderRefund['status']> = { pending: 'pending', requires_action: 'pending', succeeded: 'succeeded', failed: 'failed', canceled: 'canceled' };

/** A refund as gateway A answers it (created, listed or read back), with the payment intent it returns money of. */
export interface GatewayARefund extends ProviderRefund {
  paymentIntent: string;
}

export interface GatewayADispute extends ProviderDispute {
  paymentIntent: string;
}

/** What an event names, ids only (its object is never trusted beyond them: each is read back). */
export interface GatewayAEventIds {
  id: string;
  type: string;
  created: number;
  refund: string | null;
  dispute: string | null;
  paymentIntent: string | null;
}

/**
 * The gateway's refund, checked: the one mapping of a gateway-A Refund (the refunds route's answer
 * and the aftermath's reads). Only this installation's own refunds carry `ownRefundId`; the fee
 * returned is not on the object (the refunds route fills it for the refunds it asked with the fee).
 */
export function parseRefund(answer: unknown, operation: string, installationId: string): GatewayARefund {
  const read = new Reader(operation, answer);
  return refundOf(read, answer, installationId);
}

function refundOf(read: Reader, value: unknown, installationId: string): GatewayARefund {
  const record = read.object(value, 'refund');
  if (record.object !== 'refund') read.fail('refund.object is not "refund"');
  const id = read.string(record, 'id', 'refund', 255);
  if (!REFUND_ID.test(id)) read.fail('refund.id does not have the refund prefix');
  const paymentIntent = read.reference(record, 'payment_intent', 'refund', INTENT_ID);
  if (!paymentIntent) read.fail('refund.payment_intent is missing');
  const status = REFUND_STATUSES[read.string(record, 'status', 'refund', 64)];
  if (!status) read.fail('refund.status is not a refund status');
  const metadata = read.metadata(record, 'refund', true);
  const own = metadata[INSTALLATION_METADATA_KEY] === installationId && /^[1-9]\d{0,9}$/.test(metadata[REFUND_METADATA_KEY] ?? '') ? Number(metadata[REFUND_METADATA_KEY]) : null;
  return {
    providerRefundId: id,
    paymentIntent,
    amount: read.amount(record, 'amount', 'refund'),
    currency: read.currency(record, 'refund').toUpperCase(),
    status,
    reason: read.optionalString(record, 'reason', 'refund', 64),
    applicationFeeRefunded: null,
    ownRefundId: own,
    failureCode: status === 'failed' || status === 'canceled' ? read.optionalString(record, 'failure_reason', 'refund', 64) : null,
  };
}

export function parseDispute(answer: unknown, operation: string, mode: GatewayMode): GatewayADispute {
  const read = new Reader(operation, answer);
  return disputeOf(read, answer, mode);
}

function disputeOf(read: Reader, value: unknown, mode: GatewayMode): GatewayADispute {
  const record = read.object(value, 'dispute');
  if (record.object !== 'dispute') read.fail('dispute.object is not "dispute"');
  const id = read.string(record, 'id', 'dispute', 255);
  if (!DISPUTE_ID.test(id)) read.fail('dispute.id does not have the dispute prefix');
  const paymentIntent = read.reference(record, 'payment_intent', 'dispute', INTENT_ID);
  if (!paymentIntent) read.fail('dispute.payment_intent is missing');
  const details = isObject(record.evidence_details) ? record.evidence_details : {};
  const dueBy = typeof details.due_by === 'number' && Number.isSafeInteger(details.due_by) ? new Date(details.due_by * 1000) : null;
  return {
    providerDisputeId: id,
    paymentIntent,
    amount: read.amount(record, 'amount', 'dispute'),
    currency: read.currency(record, 'dispute').toUpperCase(),
    status: read.string(record, 'status', 'dispute', 64),
    reason: read.optionalString(record, 'reason', 'dispute', 64),
    evidenceDueBy: dueBy,
    dashboardUrl: `https://dashboard.stripe.com/${mode === 'test' ? 'test/' : ''}disputes/${id}`,
    createdAt: new Date(read.amount(record, 'created', 'dispute') * 1000),
  };
}

/** A list answer: `{object: 'list', data: [...], has_more}`; each item read by `item`. */
export function parseList<T>(answer: unknown, operation: string, item: (read: Reader, value: unknown) => T): { items: T[]; hasMore: boolean } {
  const read = new Reader(operation, answer);
  const record = read.object(answer, 'list');
  if (record.object !== 'list' || !Array.isArray(record.data)) read.fail('list.data is not a list');
  return { items: (record.data as unknown[]).map((value) => item(read, value)), hasMore: read.boolean(record, 'has_more', 'list') };
}

export const refundItem = (installationId: string) => (read: Reader, value: unknown) => refundOf(read, value, installationId);
export const disputeItem = (mode: GatewayMode) => (read: Reader, value: unknown) => disputeOf(read, value, mode);

/** An event of the list: its id, type and time, and the ids its object names (nothing else is used). */
export function eventItem(read: Reader, value: unknown): GatewayAEventIds {
  const record = read.object(value, 'event');
  if (record.object !== 'event') read.fail('event.object is not "event"');
  const id = read.string(record, 'id', 'event', 255);
  if (!EVENT_ID.test(id)) read.fail('event.id does not have the event prefix');
  const type = read.string(record, 'type', 'event', 100);
  const created = read.amount(record, 'created', 'event');
  const data = isObject(record.data) ? record.data : {};
  const object: Json = isObject(data.object) ? data.object : {};
  const idOf = (pattern: RegExp) => (typeof object.id === 'string' && pattern.test(object.id) ? object.id : null);
  const intent = typeof object.payment_intent === 'string' && INTENT_ID.test(object.payment_intent) ? object.payment_intent : null;
  return { id, type, created, refund: object.object === 'refund' ? idOf(REFUND_ID) : null, dispute: object.object === 'dispute' ? idOf(DISPUTE_ID) : null, paymentIntent: intent };
}
