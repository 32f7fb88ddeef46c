import { randomInt } from 'node:crypto';
import { FakePayPalError, type PayPalIssue } from './fake-errors.js';
import type { FakeOrders, Json } from './fake-orders.js';

type Money = { currency_code: string; value: string };

/** Statuses of Customer Disputes v1 (`status`). */
export type FakeDisputeStatus = 'OPEN' | 'WAITING_FOR_BUYER_RESPONSE' | 'WAITING_FOR_SELLER_RESPONSE' | 'UNDER_REVIEW' | 'RESOLVED' | 'OTHER';
/** Outcomes of a resolved dispute (`dispute_outcome.outcome_code`). */
export type FakeDisputeOutcome = 'RESOLVED_BUYER_FAVOUR' | 'RESOLVED_SELLER_FAVOUR' | 'RESOLVED_WITH_PAYOUT' | 'CANCELED_BY_BUYER' | 'ACCEPTED' | 'DENIED' | 'NONE';

/** A dispute as the fake keeps it: of one app (merchant), on one capture of one of its orders. */
export interface FakeDispute {
  id: string;
  clientId: string;
  orderId: string;
  captureId: string;
  status: FakeDisputeStatus;
  stage: 'INQUIRY' | 'CHARGEBACK' | 'PRE_ARBITRATION' | 'ARBITRATION';
  reason: string;
  amount: Money;
  outcome?: { outcome_code: FakeDisputeOutcome; amount_refunded?: Money };
  sellerResponseDueDate?: string;
  createTime: string;
  updateTime: string;
}

/** What a test sets when the buyer (or the bank) opens a dispute. */
export interface OpenDisputeOptions {
  /** The disputed amount (default: the capture's) */
  value?: string;
  reason?: string;
  status?: FakeDisputeStatus;
  stage?: FakeDispute['stage'];
  /** `seller_response_due_date` (default: ten days on while it is the seller's turn; `null` for none) */
  dueDate?: Date | null;
}

/** PayPal's dispute ids: `PP-D-27803`, `PP-R-NNS-10013863` and the like. */
const fakeDisputeId = () => `PP-D-${randomInt(10_000, 99_999_999)}`;
const iso = (date: Date) => date.toISOString();
const DISPUTED_TRANSACTION_ID = /^[0-9A-Z_]{1,255}$/;
const PAGE_TOKEN = /^[A-Za-z0-9+/=]{1,255}$/;
const DATE_TIME = /^[0-9]{4}-(0[1-9]|1[0-2])-(0[1-9]|[1-2][0-9]|3[0-1])[Tt]([0-1][0-9]|2[0-3]):[0-5][0-9]:([0-5][0-9]|60)([.][0-9]+)?([Zz]|[+-][0-9]{2}:[0-9]{2})$/;
const STATES = ['OPEN_INQUIRIES', 'REQUIRED_ACTION', 'REQUIRED_OTHER_PARTY_ACTION', 'UNDER_PAYPAL_REVIEW', 'APPEALABLE', 'RESOLVED'];

/**
 * The fake's Customer Disputes v1: disputes a test opens "in the dashboard" (as the buyer or the
 * bank does) on a captured order, moves and resolves; `GET /v1/customer/disputes` (summaries,
 * newest first, filtered by `disputed_transaction_id` or `start_time`, `dispute_state`, pages of
 * `page_size` with a `next` link carrying `next_page_token`) and `GET /v1/customer/disputes/{id}`
 * (the details), each app seeing only its own disputes (404 otherwise).
 */
export class FakeDisputes {
  private readonly disputes = new Map<string, FakeDispute>();

  constructor(
    private readonly apiBase: () => string,
    private readonly orders: FakeOrders,
  ) {}

  get(id: string): FakeDispute | undefined {
    return this.disputes.get(id);
  }

  /** The buyer or the bank opens a dispute on the order's capture (the order's app is the merchant). */
  open(orderId: string, options: OpenDisputeOptions = {}): FakeDispute {
    const order = this.orders.get(orderId);
    const capture = ((order?.purchaseUnits[0]?.payments as Json | undefined)?.captures as Json[] | undefined)?.[0];
    if (!order || !capture) throw new Error(`fake gateway B: order ${orderId} has no capture to dispute`);
    const captured = capture.amount as Money;
    const status = options.status ?? 'WAITING_FOR_SELLER_RESPONSE';
    const now = new Date();
    const dueDate = options.dueDate === undefined ? (status === 'WAITING_FOR_SELLER_RESPONSE' || status === 'OPEN' ? new Date(now.getTime() + 10 * 86_400_000) : null) : options.dueDate;
    const dispute: FakeDispute = {
      id: fakeDisputeId(),
      clientId: order.clientId,
      orderId,
      captureId: capture.id as string,
      status,
      stage: options.stage ?? 'CHARGEBACK',
      reason: options.reason ?? 'MERCHANDISE_OR_SERVICE_NOT_RECEIVED',
      amount: { currency_code: captured.currency_code, value: options.value ?? captured.value },
      ...(dueDate ? { sellerResponseDueDate: iso(dueDate) } : {}),
      createTime: iso(now),
      updateTime: iso(now),
    };
    this.disputes.set(dispute.id, dispute);
    return dispute;
  }

  /** The dispute moves (the seller answered, PayPal reviews, it became a chargeback, …). */
  update(id: string, changes: { status?: FakeDisputeStatus; stage?: FakeDispute['stage']; dueDate?: Date | null }): FakeDispute {
    const dispute = this.require(id);
    if (changes.status) dispute.status = changes.status;
    if (changes.stage) dispute.stage = changes.stage;
    if (changes.dueDate === null) delete dispute.sellerResponseDueDate;
    else if (changes.dueDate) dispute.sellerResponseDueDate = iso(changes.dueDate);
    dispute.updateTime = iso(new Date());
    return dispute;
  }

  /** PayPal (or the buyer) closes it: RESOLVED with the outcome; `amountRefunded` is what went back to the buyer. */
  resolve(id: string, outcome: FakeDisputeOutcome, options: { amountRefunded?: string } = {}): FakeDispute {
    const dispute = this.require(id);
    dispute.status = 'RESOLVED';
    delete dispute.sellerResponseDueDate;
    dispute.outcome = { outcome_code: outcome, ...(options.amountRefunded ? { amount_refunded: { currency_code: dispute.amount.currency_code, value: options.amountRefunded } } : {}) };
    dispute.updateTime = iso(new Date());
    return dispute;
  }

  /** `GET /v1/customer/disputes/{id}`: the details, or PayPal's 404 for an id the app does not have. */
  show(clientId: string, id: string): Json {
    const dispute = this.disputes.get(id);
    if (!dispute || dispute.clientId !== clientId) {
      throw new FakePayPalError(404, 'RESOURCE_NOT_FOUND', 'The specified resource does not exist.', [
        { field: 'dispute_id', value: id, location: 'path', issue: 'INVALID_RESOURCE_ID', description: 'Specified resource ID does not exist. Please check the resource ID and try again.' },
      ]);
    }
    return this.detail(dispute);
  }

  /** `GET /v1/customer/disputes`: the app's disputes matching the query, newest first, one page. */
  list(clientId: string, query: Record<string, string>): Json {
    const transaction = query.disputed_transaction_id;
    if (transaction !== undefined && !DISPUTED_TRANSACTION_ID.test(transaction)) throw badQuery('disputed_transaction_id', transaction);
    if (transaction !== undefined && query.start_time !== undefined) {
      throw badQuery('start_time', query.start_time, 'INVALID_PARAMETER_VALUE', 'You can specify either but not both the start_time and disputed_transaction_id query parameters.');
    }
    if (query.start_time !== undefined && !DATE_TIME.test(query.start_time)) throw badQuery('start_time', query.start_time);
    const pageSize = query.page_size === undefined ? 10 : Number(query.page_size);
    if (!/^\d+$/.test(query.page_size ?? '10') || pageSize < 1 || pageSize > 50) throw badQuery('page_size', query.page_size ?? '', 'INVALID_PARAMETER_VALUE');
    let offset = 0;
    if (query.next_page_token !== undefined) {
      const decoded = PAGE_TOKEN.test(query.next_page_token) ? /^offset:(\d{1,6})$/.exec(Buffer.from(query.next_page_token, 'base64').toString('utf8')) : null;
      if (!decoded) throw badQuery('next_page_token', query.next_page_token, 'INVALID_PARAMETER_VALUE');
      offset = Number(decoded[1]);
    }
    const states = query.dispute_state?.split(',');
    if (states?.some((state) => !STATES.includes(state))) throw badQuery('dispute_state', query.dispute_state ?? '', 'INVALID_PARAMETER_VALUE');
    const matching = [...this.disputes.values()]
      .filter((dispute) => dispute.clientId === clientId)
      .filter((dispute) => transaction === undefined || dispute.captureId === transaction)
      .filter((dispute) => query.start_time === undefined || Date.parse(dispute.createTime) >= Date.parse(query.start_time))
      .filter((dispute) => !states || states.includes(stateOf(dispute)))
      .sort((a, b) => Date.parse(b.createTime) - Date.parse(a.createTime) || b.id.localeCompare(a.id));
    const page = matching.slice(offset, offset + pageSize);
    const self = new URLSearchParams(query);
    const links: Json[] = [{ href: `${this.apiBase()}/v1/customer/disputes?${self.toString()}`, rel: 'self', method: 'GET' }];
    if (offset + pageSize < matching.length) {
      const next = new URLSearchParams({ ...query, next_page_token: Buffer.from(`offset:${offset + pageSize}`, 'utf8').toString('base64') });
      links.push({ href: `${this.apiBase()}/v1/customer/disputes?${next.toString()}`, rel: 'next', method: 'GET' });
    }
    // `items` has minItems 1 in the reference: an empty list leaves it out.
    return { ...(page.length ? { items: page.map((dispute) => this.summary(dispute)) } : {}), links };
  }

  /** The details, as `GET /v1/customer/disputes/{id}` and a `CUSTOMER.DISPUTE.*` event's resource show them. */
  detail(dispute: FakeDispute): Json {
    return {
      dispute_id: dispute.id,
      create_time: dispute.createTime,
      update_time: dispute.updateTime,
      disputed_transactions: [this.transaction(dispute)],
      reason: dispute.reason,
      status: dispute.status,
      dispute_amount: { ...dispute.amount },
      ...(dispute.outcome ? { dispute_outcome: structuredClone(dispute.outcome) } : {}),
      dispute_life_cycle_stage: dispute.stage,
      dispute_channel: 'INTERNAL',
      ...(dispute.sellerResponseDueDate ? { seller_response_due_date: dispute.sellerResponseDueDate } : {}),
      links: [{ href: `${this.apiBase()}/v1/customer/disputes/${dispute.id}`, rel: 'self', method: 'GET' }],
    };
  }

  /** An item of the list: the summary set of details. */
  private summary(dispute: FakeDispute): Json {
    return {
      dispute_id: dispute.id,
      create_time: dispute.createTime,
      update_time: dispute.updateTime,
      reason: dispute.reason,
      status: dispute.status,
      dispute_state: stateOf(dispute),
      dispute_amount: { ...dispute.amount },
      dispute_life_cycle_stage: dispute.stage,
      dispute_channel: 'INTERNAL',
      ...(dispute.sellerResponseDueDate ? { seller_response_due_date: dispute.sellerResponseDueDate } : {}),
      links: [{ href: `${this.apiBase()}/v1/customer/disputes/${dispute.id}`, rel: 'self', method: 'GET' }],
    };
  }

  /** The disputed capture as the merchant sees it (`transaction_info`). */
  private transaction(dispute: FakeDispute): Json {
    const capture = ((this.orders.get(dispute.orderId)?.purchaseUnits[0]?.payments as Json | undefined)?.captures as Json[] | undefined)?.[0];
    const status = String(capture?.status ?? 'COMPLETED');
    return {
      seller_transaction_id: dispute.captureId,
      ...(capture?.create_time ? { create_time: capture.create_time } : {}),
      transaction_status: status === 'DECLINED' ? 'DENIED' : status,
      ...(capture?.amount ? { gross_amount: { ...(capture.amount as Money) } } : {}),
      seller: { merchant_id: 'FAKEMERCHANT2' },
    };
  }

  private require(id: string): FakeDispute {
    const dispute = this.disputes.get(id);
    if (!dispute) throw new Error(`fake gateway B: no dispute ${id}`);
    return dispute;
  }
}

/** `dispute_state`: the state as the merchant sees it. */
function stateOf(dispute: FakeDispute): string {
  if (dispute.status === 'RESOLVED') return 'RESOLVED';
  if (dispute.status === 'UNDER_REVIEW') return 'UNDER_PAYPAL_REVIEW';
  if (dispute.status === 'WAITING_FOR_BUYER_RESPONSE' || dispute.status === 'OTHER') return 'REQUIRED_OTHER_PARTY_ACTION';
  return dispute.stage === 'INQUIRY' ? 'OPEN_INQUIRIES' : 'REQUIRED_ACTION';
}

/** 400 INVALID_REQUEST naming the query parameter. */
function badQuery(field: string, value: string, issue = 'INVALID_PARAMETER_SYNTAX', description = 'The value of a field does not conform to the expected format.'): FakePayPalError {
  const detail: PayPalIssue = { field, value, location: 'query', issue, description };
  return new FakePayPalError(400, 'INVALID_REQUEST', 'Request is not well-formed, syntactically incorrect, or violates schema.', [detail]);
}
