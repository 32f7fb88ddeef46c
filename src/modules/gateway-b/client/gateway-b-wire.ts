/**
 * The parts of PayPal's answers the service relies on, read defensively: every answer is
 * checked and copied field by field into these types, so a malformed answer fails here (as
 * `MalformedAnswer`) instead of deep inside a caller, and nothing unexpected is passed on.
 * Statuses are kept as strings: PayPal adds values over time.
 */

import { WEBHOOK_EVENT_TYPE_MAX_LENGTH } from '../../webhooks/index.js';

/** `{ currency_code: 'USD', value: '19.99' }`: the decimal string in the currency's exponent. */
export interface GatewayBMoney {
  currency_code: string;
  value: string;
}

export interface GatewayBLink {
  href: string;
  rel: string;
  method?: string;
}

/** Order statuses documented by Orders v2. */
export type GatewayBOrderStatus = 'CREATED' | 'SAVED' | 'APPROVED' | 'VOIDED' | 'COMPLETED' | 'PAYER_ACTION_REQUIRED';
/** Capture statuses documented by Orders v2 / Payments v2. */
export type GatewayBCaptureStatus = 'COMPLETED' | 'DECLINED' | 'PARTIALLY_REFUNDED' | 'PENDING' | 'REFUNDED' | 'FAILED';

export interface GatewayBCapture {
  id: string;
  status: GatewayBCaptureStatus | (string & {});
  amount?: GatewayBMoney;
  custom_id?: string;
  invoice_id?: string;
  final_capture?: boolean;
  /** e.g. `{ reason: 'PENDING_REVIEW' }` for a PENDING capture */
  status_details?: { reason?: string };
  create_time?: string;
  update_time?: string;
}

/** A refund of a capture (Payments v2 `refund`): status COMPLETED, PENDING, FAILED or CANCELLED. */
export interface GatewayBRefund {
  id: string;
  status: 'COMPLETED' | 'PENDING' | 'FAILED' | 'CANCELLED' | (string & {});
  amount?: GatewayBMoney;
  custom_id?: string;
  invoice_id?: string;
  /** e.g. `{ reason: 'ECHECK' }` for a PENDING refund */
  status_details?: { reason?: string };
}

export interface GatewayBPurchaseUnit {
  reference_id?: string;
  amount?: GatewayBMoney;
  custom_id?: string;
  invoice_id?: string;
  description?: string;
  payments?: { captures: GatewayBCapture[]; refunds?: GatewayBRefund[] };
}

export interface GatewayBOrder {
  id: string;
  status: GatewayBOrderStatus | (string & {});
  intent?: string;
  purchase_units: GatewayBPurchaseUnit[];
  links: GatewayBLink[];
  payer?: { payer_id?: string; email_address?: string };
  create_time?: string;
  update_time?: string;
}

/**
 * A dispute as Customer Disputes v1 shows it (`GET /v1/customer/disputes/{id}`), reduced to what
 * the ledger reads. `status`: OPEN, WAITING_FOR_BUYER_RESPONSE, WAITING_FOR_SELLER_RESPONSE,
 * UNDER_REVIEW, RESOLVED, OTHER (kept as a string: PayPal adds values).
 */
export interface GatewayBDispute {
  dispute_id: string;
  status: string;
  create_time?: string;
  /** The merchant's ids of the disputed transactions (a capture id for an Orders v2 payment) */
  disputed_transactions: Array<{ seller_transaction_id?: string }>;
  reason?: string;
  dispute_amount?: GatewayBMoney;
  dispute_outcome?: { outcome_code?: string; amount_refunded?: GatewayBMoney };
  /** INQUIRY, CHARGEBACK, PRE_ARBITRATION, ARBITRATION */
  dispute_life_cycle_stage?: string;
  seller_response_due_date?: string;
}

/** A page of `GET /v1/customer/disputes`: the disputes' ids (each is read in full) and the token of the next page. */
export interface GatewayBDisputePage {
  disputeIds: string[];
  nextPageToken?: string;
}

/** The token answer (RFC 6749 §5.1); only what the RFC defines is read. */
export interface GatewayBTokenGrant {
  accessToken: string;
  /** Seconds the token is valid for; absent when the answer leaves `expires_in` out (RFC 6749 only recommends it). */
  expiresIn?: number;
  scopes: string[];
}

/** The webhook event envelope, parsed from the received bytes. */
export interface GatewayBWebhookEvent {
  id: string;
  event_type: string;
  resource_type?: string;
  event_version?: string;
  resource_version?: string;
  create_time?: string;
  summary?: string;
  resource: Record<string, unknown>;
}

export class MalformedAnswer extends Error {}

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

function object(value: unknown, path: string): Json {
  if (!isObject(value)) throw new MalformedAnswer(`${path} is not an object`);
  return value;
}

function requiredString(record: Json, key: string, path: string, max = 2048): string {
  const value = record[key];
  if (typeof value !== 'string' || value === '' || value.length > max) throw new MalformedAnswer(`${path}.${key} is missing or not a string`);
  return value;
}

function optionalString(record: Json, key: string, path: string, max = 2048): string | undefined {
  const value = record[key];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string' || value.length > max) throw new MalformedAnswer(`${path}.${key} is not a string`);
  return value;
}

const AMOUNT_VALUE = /^-?\d{1,30}(\.\d{1,30})?$/;

function money(value: unknown, path: string): GatewayBMoney | undefined {
  if (value === undefined || value === null) return undefined;
  const record = object(value, path);
  const currency = requiredString(record, 'currency_code', path, 3);
  const amount = requiredString(record, 'value', path, 32);
  if (!/^[A-Z]{3}$/.test(currency)) throw new MalformedAnswer(`${path}.currency_code is not an ISO code`);
  if (!AMOUNT_VALUE.test(amount)) throw new MalformedAnswer(`${path}.value is not a decimal string`);
  return { currency_code: currency, value: amount };
}

function capture(value: unknown, path: string): GatewayBCapture {
  const record = object(value, path);
  const finalCapture = record.final_capture;
  if (finalCapture !== undefined && typeof finalCapture !== 'boolean') throw new MalformedAnswer(`${path}.final_capture is not a boolean`);
  const details = record.status_details === undefined ? undefined : object(record.status_details, `${path}.status_details`);
  return strip({
    id: requiredString(record, 'id', path, 64),
    status: requiredString(record, 'status', path, 64),
    amount: money(record.amount, `${path}.amount`),
    custom_id: optionalString(record, 'custom_id', path, 255),
    invoice_id: optionalString(record, 'invoice_id', path, 255),
    final_capture: finalCapture,
    status_details: details ? strip({ reason: optionalString(details, 'reason', `${path}.status_details`, 64) }) : undefined,
    create_time: optionalString(record, 'create_time', path, 64),
    update_time: optionalString(record, 'update_time', path, 64),
  });
}

function purchaseUnit(value: unknown, path: string): GatewayBPurchaseUnit {
  const record = object(value, path);
  let payments: GatewayBPurchaseUnit['payments'];
  if (record.payments !== undefined) {
    const captures = object(record.payments, `${path}.payments`).captures;
    if (captures !== undefined && !Array.isArray(captures)) throw new MalformedAnswer(`${path}.payments.captures is not an array`);
    const refunds = object(record.payments, `${path}.payments`).refunds;
    if (refunds !== undefined && !Array.isArray(refunds)) throw new MalformedAnswer(`${path}.payments.refunds is not an array`);
    payments = strip({
      captures: (captures ?? []).map((item, index) => capture(item, `${path}.payments.captures[${index}]`)),
      refunds: refunds === undefined ? undefined : refunds.map((item, index) => parseRefund(item, `${path}.payments.refunds[${index}]`)),
    });
  }
  return strip({
    reference_id: optionalString(record, 'reference_id', path, 256),
    amount: money(record.amount, `${path}.amount`),
    custom_id: optionalString(record, 'custom_id', path, 255),
    invoice_id: optionalString(record, 'invoice_id', path, 255),
    description: optionalString(record, 'description', path, 3000),
    payments,
  });
}

export function parseRefund(value: unknown, path = 'refund'): GatewayBRefund {
  const record = object(value, path);
  const details = record.status_details === undefined ? undefined : object(record.status_details, `${path}.status_details`);
  return strip({
    id: requiredString(record, 'id', path, 64),
    status: requiredString(record, 'status', path, 64),
    amount: money(record.amount, `${path}.amount`),
    custom_id: optionalString(record, 'custom_id', path, 255),
    invoice_id: optionalString(record, 'invoice_id', path, 255),
    status_details: details ? strip({ reason: optionalString(details, 'reason', `${path}.status_details`, 64) }) : undefined,
  });
}

export function parseOrder(value: unknown): GatewayBOrder {
  const record = object(value, 'order');
  const units = record.purchase_units ?? [];
  if (!Array.isArray(units)) throw new MalformedAnswer('order.purchase_units is not an array');
  const links = record.links ?? [];
  if (!Array.isArray(links)) throw new MalformedAnswer('order.links is not an array');
  const payer = record.payer === undefined ? undefined : object(record.payer, 'order.payer');
  return strip({
    id: requiredString(record, 'id', 'order', 64),
    status: requiredString(record, 'status', 'order', 64),
    intent: optionalString(record, 'intent', 'order', 64),
    purchase_units: units.map((unit, index) => purchaseUnit(unit, `order.purchase_units[${index}]`)),
    links: links.map((link, index) => {
      const item = object(link, `order.links[${index}]`);
      return strip({ href: requiredString(item, 'href', `order.links[${index}]`), rel: requiredString(item, 'rel', `order.links[${index}]`, 64), method: optionalString(item, 'method', `order.links[${index}]`, 16) });
    }),
    payer: payer ? strip({ payer_id: optionalString(payer, 'payer_id', 'order.payer', 64), email_address: optionalString(payer, 'email_address', 'order.payer', 254) }) : undefined,
    create_time: optionalString(record, 'create_time', 'order', 64),
    update_time: optionalString(record, 'update_time', 'order', 64),
  });
}

export function parseTokenGrant(value: unknown): GatewayBTokenGrant {
  const record = object(value, 'token');
  const accessToken = requiredString(record, 'access_token', 'token', 8192);
  const tokenType = requiredString(record, 'token_type', 'token', 32);
  if (tokenType.toLowerCase() !== 'bearer') throw new MalformedAnswer('token.token_type is not Bearer');
  // RFC 6749 §5.1 only recommends expires_in: absent (or null), the cache assumes a lifetime; present, it must be usable.
  const expiresIn = record.expires_in ?? undefined;
  if (expiresIn !== undefined && (typeof expiresIn !== 'number' || !Number.isFinite(expiresIn) || expiresIn <= 0)) throw new MalformedAnswer('token.expires_in is not a positive number');
  const scope = optionalString(record, 'scope', 'token', 16_384);
  return strip({ accessToken, expiresIn, scopes: scope ? scope.split(' ').filter(Boolean) : [] });
}

export function parseVerificationStatus(value: unknown): 'SUCCESS' | 'FAILURE' {
  const status = object(value, 'verification').verification_status;
  if (status !== 'SUCCESS' && status !== 'FAILURE') throw new MalformedAnswer('verification.verification_status is neither SUCCESS nor FAILURE');
  return status;
}

/** The dispute id of Customer Disputes v1 (`^[A-Za-z0-9-]+$`, at most 255), e.g. `PP-D-27803`. */
export const DISPUTE_ID = /^[A-Za-z0-9-]{1,255}$/;
/** `next_page_token` as the reference's parameter allows it. */
const PAGE_TOKEN = /^[A-Za-z0-9+/=]{1,255}$/;

export function parseDispute(value: unknown): GatewayBDispute {
  const record = object(value, 'dispute');
  const id = requiredString(record, 'dispute_id', 'dispute', 255);
  if (!DISPUTE_ID.test(id)) throw new MalformedAnswer('dispute.dispute_id is not a dispute id');
  const transactions = record.disputed_transactions ?? [];
  if (!Array.isArray(transactions)) throw new MalformedAnswer('dispute.disputed_transactions is not an array');
  const outcome = record.dispute_outcome === undefined || record.dispute_outcome === null ? undefined : object(record.dispute_outcome, 'dispute.dispute_outcome');
  return strip({
    dispute_id: id,
    status: requiredString(record, 'status', 'dispute', 64),
    create_time: optionalString(record, 'create_time', 'dispute', 64),
    disputed_transactions: transactions.map((item, index) => {
      const path = `dispute.disputed_transactions[${index}]`;
      return strip({ seller_transaction_id: optionalString(object(item, path), 'seller_transaction_id', path, 255) });
    }),
    reason: optionalString(record, 'reason', 'dispute', 255),
    dispute_amount: money(record.dispute_amount, 'dispute.dispute_amount'),
    dispute_outcome: outcome
      ? strip({ outcome_code: optionalString(outcome, 'outcome_code', 'dispute.dispute_outcome', 255), amount_refunded: money(outcome.amount_refunded, 'dispute.dispute_outcome.amount_refunded') })
      : undefined,
    dispute_life_cycle_stage: optionalString(record, 'dispute_life_cycle_stage', 'dispute', 255),
    seller_response_due_date: optionalString(record, 'seller_response_due_date', 'dispute', 64),
  });
}

/**
 * A page of the dispute list (`dispute_search`): the ids of its `items` (none when `items` is
 * left out, as the reference's `minItems: 1` has it for an empty list) and, from the `next` link,
 * its `next_page_token` (only the token is taken: the link's host is never called).
 */
export function parseDisputePage(value: unknown): GatewayBDisputePage {
  const record = object(value, 'disputes');
  const items = record.items ?? [];
  if (!Array.isArray(items)) throw new MalformedAnswer('disputes.items is not an array');
  const links = record.links ?? [];
  if (!Array.isArray(links)) throw new MalformedAnswer('disputes.links is not an array');
  const disputeIds = items.map((item, index) => {
    const path = `disputes.items[${index}]`;
    const id = requiredString(object(item, path), 'dispute_id', path, 255);
    if (!DISPUTE_ID.test(id)) throw new MalformedAnswer(`${path}.dispute_id is not a dispute id`);
    return id;
  });
  let nextPageToken: string | undefined;
  links.forEach((link, index) => {
    const path = `disputes.links[${index}]`;
    const item = object(link, path);
    if (requiredString(item, 'rel', path, 64) !== 'next') return;
    const href = requiredString(item, 'href', path);
    const token = pageTokenOf(href);
    if (!token || !PAGE_TOKEN.test(token)) throw new MalformedAnswer(`${path}: the next link carries no next_page_token`);
    nextPageToken = token;
  });
  return strip({ disputeIds, nextPageToken });
}

/**
 * The `next_page_token` of a `next` link (absolute, or relative to the API: only its query is
 * read). The token is base64: a `+` left unescaped in the link reads as a space, put back.
 */
function pageTokenOf(href: string): string | null {
  try {
    return new URL(href, 'https://api.invalid').searchParams.get('next_page_token')?.replace(/ /g, '+') ?? null;
  } catch {
    return null;
  }
}

/** A webhook listener of the app (`GET /v1/notifications/webhooks/{id}`): where it delivers and which events. */
export interface GatewayBWebhookListener {
  /** Optional in the Webhooks v1 reference (only `url` and `event_types` are required). */
  id?: string;
  url: string;
  eventTypes: string[];
}

export function parseWebhookListener(value: unknown): GatewayBWebhookListener {
  const record = object(value, 'webhook');
  if (!Array.isArray(record.event_types)) throw new MalformedAnswer('webhook.event_types is not an array');
  return strip({
    id: optionalString(record, 'id', 'webhook', 128),
    url: requiredString(record, 'url', 'webhook', 2048),
    eventTypes: record.event_types.map((entry, index) => requiredString(object(entry, `webhook.event_types[${index}]`), 'name', `webhook.event_types[${index}]`, WEBHOOK_EVENT_TYPE_MAX_LENGTH)),
  });
}

/** The envelope of a received notification (any event type); throws MalformedAnswer. */
export function parseWebhookEvent(value: unknown): GatewayBWebhookEvent {
  const record = object(value, 'event');
  return strip({
    id: requiredString(record, 'id', 'event', 128),
    // PayPal sets no length on event names; the bound is what the event store holds.
    event_type: requiredString(record, 'event_type', 'event', WEBHOOK_EVENT_TYPE_MAX_LENGTH),
    resource_type: optionalString(record, 'resource_type', 'event', 128),
    event_version: optionalString(record, 'event_version', 'event', 16),
    resource_version: optionalString(record, 'resource_version', 'event', 16),
    create_time: optionalString(record, 'create_time', 'event', 64),
    summary: optionalString(record, 'summary', 'event', 1024),
    resource: object(record.resource, 'event.resource'),
  });
}

/**
 * The capture inside a `PAYMENT.CAPTURE.*` event's resource, with the order it belongs to
 * (`supplementary_data.related_ids.order_id`); throws MalformedAnswer.
 */
export function parseCaptureResource(resource: Record<string, unknown>): { capture: GatewayBCapture; orderId?: string } {
  const parsed = capture(resource, 'event.resource');
  const related = isObject(resource.supplementary_data) && isObject(resource.supplementary_data.related_ids) ? resource.supplementary_data.related_ids : undefined;
  const orderId = related ? optionalString(related, 'order_id', 'event.resource.supplementary_data.related_ids', 64) : undefined;
  return orderId ? { capture: parsed, orderId } : { capture: parsed };
}

/** The buyer's approval URL of a created order: the `approve` or `payer-action` link. */
export function approvalUrl(order: GatewayBOrder): string | undefined {
  return order.links.find((link) => link.rel === 'approve' || link.rel === 'payer-action')?.href;
}

/** The first capture of the first purchase unit (the service creates one unit per order). */
export function firstCapture(order: GatewayBOrder): GatewayBCapture | undefined {
  return order.purchase_units[0]?.payments?.captures[0];
}

function strip<T extends object>(value: T): T {
  for (const key of Object.keys(value) as Array<keyof T>) if (value[key] === undefined) delete value[key];
  return value;
}
