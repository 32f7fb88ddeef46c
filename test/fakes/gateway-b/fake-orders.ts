import {
  FakePayPalError,
  invalidLength,
  invalidRequest,
  invalidSyntax,
  invalidValue,
  missingField,
  orderNotFound,
  type PayPalIssue,
  unprocessable,
} from './fake-errors.js';
import { fakeAccountId, fakePayPalId } from './webhook-signing.js';

export type Json = Record<string, unknown>;

/**
 * Currencies of PayPal's REST API currency-code reference. HUF, JPY and TWD "do not support
 * decimals. If you pass a decimal amount, an error occurs"; the others take at most two decimal
 * places. Both refusals are DECIMAL_PRECISION, the only code Orders v2 documents for them. RUB,
 * listed in older versions of the page, is left out.
 */
export const PAYPAL_CURRENCIES: readonly string[] = [
  'AUD', 'BRL', 'CAD', 'CNY', 'CZK', 'DKK', 'EUR', 'HKD', 'HUF', 'ILS', 'JPY', 'MYR', 'MXN', 'TWD',
  'NZD', 'NOK', 'PHP', 'PLN', 'GBP', 'SGD', 'SEK', 'CHF', 'THB', 'USD',
];
export const PAYPAL_NO_DECIMAL_CURRENCIES: readonly string[] = ['HUF', 'JPY', 'TWD'];

export type OrderStatus = 'CREATED' | 'PAYER_ACTION_REQUIRED' | 'APPROVED' | 'COMPLETED' | 'VOIDED';

/** What capture records (and so answers, and later GETs and events show) instead of the truth. */
export interface CaptureOverrides {
  status?: 'COMPLETED' | 'PENDING' | 'DECLINED' | 'FAILED' | string;
  amount?: { currency_code: string; value: string };
  /** `null` removes the field. */
  custom_id?: string | null;
  invoice_id?: string | null;
  final_capture?: boolean;
  status_details?: { reason: string };
}

export interface FakeOrder {
  id: string;
  /** The client id of the app (merchant) that created it; other apps get 404. */
  clientId: string;
  intent: 'CAPTURE' | 'AUTHORIZE';
  status: OrderStatus;
  createTime: string;
  updateTime: string;
  purchaseUnits: Json[];
  payer?: Json;
  paymentSource?: Json;
  experienceContext?: { return_url?: string; cancel_url?: string };
  /** Test control: applied to the capture when the order is captured. */
  captureOverrides?: CaptureOverrides;
}

export interface FakeBuyer {
  payerId?: string;
  email?: string;
  givenName?: string;
  surname?: string;
  countryCode?: string;
}

/** The payee of every order: one merchant account, in PayPal's account id format. */
const FAKE_MERCHANT_ID = 'FAKEMERCHANT2';

const nowIso = () => new Date().toISOString().replace(/\.\d{3}Z$/, 'Z');
const VALUE = /^((-?[0-9]+)|(-?([0-9]+)?[.][0-9]+))$/;

/**
 * The fake's Orders v2 objects: creation with PayPal's validation of amounts per currency,
 * the buyer's approval, capture (one capture per purchase unit, intent CAPTURE only), and the
 * JSON representations PayPal answers (`return=minimal` or `return=representation`).
 */
export class FakeOrders {
  private readonly orders = new Map<string, FakeOrder>();
  private readonly capturedInvoices = new Map<string, string>();

  constructor(
    /** Origin of the API (`self`, `capture` links). */
    private readonly apiBase: () => string,
    /** Origin of the buyer's approval page (`approve`, `payer-action` links). */
    private readonly webBase: () => string,
  ) {}

  get(id: string): FakeOrder | undefined {
    return this.orders.get(id);
  }

  all(): FakeOrder[] {
    return [...this.orders.values()];
  }

  /** The order as `clientId` may see it, or PayPal's 404. */
  find(clientId: string, id: string): FakeOrder {
    const order = this.orders.get(id);
    if (!order || order.clientId !== clientId) throw orderNotFound(id);
    return order;
  }

  create(clientId: string, body: unknown): FakeOrder {
    if (typeof body !== 'object' || body === null || Array.isArray(body)) throw invalidRequest({ issue: 'MALFORMED_REQUEST_JSON', location: 'body', description: 'The request JSON is not well formed.' });
    const request = body as Json;
    const intent = request.intent;
    if (intent === undefined) throw invalidRequest(missingField('/intent'));
    if (intent !== 'CAPTURE' && intent !== 'AUTHORIZE') throw invalidRequest(invalidValue('/intent', intent));
    const units = request.purchase_units;
    if (units === undefined) throw invalidRequest(missingField('/purchase_units'));
    if (!Array.isArray(units) || units.length < 1 || units.length > 10) throw invalidRequest(invalidValue('/purchase_units', units));
    const purchaseUnits = units.map((unit, index) => this.purchaseUnit(unit, index, units.length));
    const references = purchaseUnits.map((unit) => unit.reference_id);
    if (new Set(references).size !== references.length) {
      throw unprocessable({ field: '/purchase_units', location: 'body', issue: 'DUPLICATE_REFERENCE_ID', description: 'reference_id must be unique if multiple purchase_unit are provided.' });
    }
    const paypalSource = ((request.payment_source as Json | undefined)?.paypal ?? undefined) as Json | undefined;
    const experienceContext = (paypalSource?.experience_context ?? request.application_context) as FakeOrder['experienceContext'] | undefined;
    const time = nowIso();
    const order: FakeOrder = {
      id: fakePayPalId(17),
      clientId,
      intent,
      status: paypalSource ? 'PAYER_ACTION_REQUIRED' : 'CREATED',
      createTime: time,
      updateTime: time,
      purchaseUnits,
      experienceContext: experienceContext ? { return_url: experienceContext.return_url, cancel_url: experienceContext.cancel_url } : undefined,
    };
    this.orders.set(order.id, order);
    return order;
  }

  /** What the buyer does in PayPal's window: CREATED / PAYER_ACTION_REQUIRED → APPROVED. */
  approve(id: string, buyer: FakeBuyer = {}): FakeOrder {
    const order = this.orders.get(id);
    if (!order) throw new Error(`fake gateway B: no order ${id}`);
    if (order.status !== 'CREATED' && order.status !== 'PAYER_ACTION_REQUIRED') {
      throw new Error(`fake gateway B: order ${id} is ${order.status}, the buyer can only approve a CREATED order`);
    }
    const payer = {
      name: { given_name: buyer.givenName ?? 'John', surname: buyer.surname ?? 'Doe' },
      email_address: buyer.email ?? 'buyer@example.test',
      payer_id: buyer.payerId ?? fakeAccountId(),
      address: { country_code: buyer.countryCode ?? 'US' },
    };
    order.payer = payer;
    order.paymentSource = {
      paypal: { email_address: payer.email_address, account_id: payer.payer_id, account_status: 'VERIFIED', name: payer.name, address: payer.address },
    };
    order.status = 'APPROVED';
    order.updateTime = nowIso();
    return order;
  }

  capture(clientId: string, id: string): FakeOrder {
    const order = this.find(clientId, id);
    if (order.status === 'COMPLETED') {
      throw unprocessable({ issue: 'ORDER_ALREADY_CAPTURED', description: "Order already captured.If 'intent=CAPTURE' only one capture per order is allowed." });
    }
    if (order.intent !== 'CAPTURE') {
      throw unprocessable({ issue: 'ACTION_DOES_NOT_MATCH_INTENT', description: 'Order was created with an intent to \'AUTHORIZE\'. Please use v2/checkout/orders/order_id/authorize to complete the transaction or alternately Create an order with an intent of \'CAPTURE\'.' });
    }
    if (order.status !== 'APPROVED') {
      throw unprocessable({
        issue: 'ORDER_NOT_APPROVED',
        description: "Payer has not yet approved the Order for payment. Please redirect the payer to the 'rel':'approve' url returned as part of the HATEOAS links within the Create Order call or provide a valid `payment_source` in the request.",
      });
    }
    for (const unit of order.purchaseUnits) {
      const invoice = unit.invoice_id as string | undefined;
      const owner = invoice ? this.capturedInvoices.get(`${clientId}|${invoice}`) : undefined;
      if (owner && owner !== order.id) {
        throw unprocessable({ issue: 'DUPLICATE_INVOICE_ID', description: 'Duplicate Invoice ID detected. To avoid a potential duplicate transaction your account setting requires that Invoice Id be unique for each transaction.' });
      }
    }
    const time = nowIso();
    for (const unit of order.purchaseUnits) {
      const amount = unit.amount as { currency_code: string; value: string };
      const captureId = fakePayPalId(17);
      const capture: Json = {
        id: captureId,
        status: 'COMPLETED',
        amount: { currency_code: amount.currency_code, value: amount.value },
        final_capture: true,
        disbursement_mode: 'INSTANT',
        seller_protection: { status: 'ELIGIBLE', dispute_categories: ['ITEM_NOT_RECEIVED', 'UNAUTHORIZED_TRANSACTION'] },
        ...(unit.custom_id !== undefined ? { custom_id: unit.custom_id } : {}),
        ...(unit.invoice_id !== undefined ? { invoice_id: unit.invoice_id } : {}),
        create_time: time,
        update_time: time,
        links: [
          { href: `${this.apiBase()}/v2/payments/captures/${captureId}`, rel: 'self', method: 'GET' },
          { href: `${this.apiBase()}/v2/payments/captures/${captureId}/refund`, rel: 'refund', method: 'POST' },
          { href: `${this.apiBase()}/v2/checkout/orders/${order.id}`, rel: 'up', method: 'GET' },
        ],
      };
      const overrides = order.captureOverrides;
      if (overrides) {
        for (const [key, value] of Object.entries(overrides)) {
          if (value === null) delete capture[key];
          else if (value !== undefined) capture[key] = structuredClone(value);
        }
        if (overrides.status === 'PENDING' && !overrides.status_details) capture.status_details = { reason: 'PENDING_REVIEW' };
      }
      unit.payments = { captures: [capture] };
      if (unit.invoice_id) this.capturedInvoices.set(`${clientId}|${unit.invoice_id as string}`, order.id);
    }
    order.status = 'COMPLETED';
    order.updateTime = time;
    return order;
  }

  /** Test control: the status a new refund gets (PayPal answers COMPLETED, or PENDING e.g. for an eCheck). */
  refundStatus: 'COMPLETED' | 'PENDING' = 'COMPLETED';

  /** The order and purchase unit holding a capture of this app, or 404 as Payments v2 answers. */
  findCapture(clientId: string, captureId: string): { order: FakeOrder; unit: Json; capture: Json } {
    for (const order of this.orders.values()) {
      if (order.clientId !== clientId) continue;
      for (const unit of order.purchaseUnits) {
        const capture = ((unit.payments as Json | undefined)?.captures as Json[] | undefined)?.find((each) => each.id === captureId);
        if (capture) return { order, unit, capture };
      }
    }
    throw new FakePayPalError(404, 'RESOURCE_NOT_FOUND', 'The specified resource does not exist.', [
      { field: 'capture_id', value: captureId, location: 'path', issue: 'INVALID_RESOURCE_ID', description: 'Specified resource ID does not exist. Please check the resource ID and try again.' },
    ]);
  }

  /**
   * `POST /v2/payments/captures/{id}/refund` (Payments v2): no amount refunds what is left; the
   * amount's currency must be the capture's; more than what is left is REFUND_AMOUNT_EXCEEDED; a
   * fully refunded capture CAPTURE_FULLY_REFUNDED. The capture becomes PARTIALLY_REFUNDED or REFUNDED.
   */
  refund(clientId: string, captureId: string, body: Json): Json {
    const { order, unit, capture } = this.findCapture(clientId, captureId);
    if (capture.status === 'REFUNDED') throw unprocessable({ issue: 'CAPTURE_FULLY_REFUNDED', description: 'The capture has already been fully refunded' });
    if (capture.status !== 'COMPLETED' && capture.status !== 'PARTIALLY_REFUNDED') throw unprocessable({ issue: 'REFUND_NOT_ALLOWED', description: 'Full refund refused - partial refund has already been done on this payment. You cannot refund this capture.' });
    const captured = capture.amount as { currency_code: string; value: string };
    const whole = ['HUF', 'JPY', 'TWD'].includes(captured.currency_code);
    const units = (value: string) => (whole ? Number(value) : Math.round(Number(value) * 100));
    const payments = unit.payments as Json;
    const refunds = ((payments.refunds as Json[] | undefined) ?? []).filter((each) => each.status === 'COMPLETED' || each.status === 'PENDING');
    const left = units(captured.value) - refunds.reduce((sum, each) => sum + units((each.amount as { value: string }).value), 0);
    let amount = left;
    if (body.amount !== undefined) {
      const asked = body.amount as { currency_code?: unknown; value?: unknown };
      if (typeof asked.value !== 'string' || !/^\d{1,10}(\.\d{1,2})?$/.test(asked.value)) throw invalidRequest(invalidValue('/amount/value', asked.value));
      if (asked.currency_code !== captured.currency_code) throw unprocessable({ issue: 'REFUND_CAPTURE_CURRENCY_MISMATCH', description: 'Refund must be in the same currency as the capture.' });
      if (whole && asked.value.includes('.')) throw unprocessable({ field: '/amount/value', issue: 'DECIMAL_PRECISION', description: 'If the currency supports decimals, only two decimal place precision is supported.' });
      amount = units(asked.value);
      if (amount <= 0) throw invalidRequest(invalidValue('/amount/value', asked.value));
    }
    if (amount > left) throw unprocessable({ issue: 'REFUND_AMOUNT_EXCEEDED', description: 'The refund amount must be less than or equal to the capture amount that has not yet been refunded.' });
    const time = nowIso();
    const id = fakePayPalId(17);
    const refund: Json = {
      id,
      status: this.refundStatus,
      amount: { currency_code: captured.currency_code, value: whole ? String(amount) : (amount / 100).toFixed(2) },
      ...(typeof body.custom_id === 'string' ? { custom_id: body.custom_id } : {}),
      ...(typeof body.invoice_id === 'string' ? { invoice_id: body.invoice_id } : {}),
      ...(this.refundStatus === 'PENDING' ? { status_details: { reason: 'ECHECK' } } : {}),
      create_time: time,
      update_time: time,
      links: [
        { href: `${this.apiBase()}/v2/payments/refunds/${id}`, rel: 'self', method: 'GET' },
        { href: `${this.apiBase()}/v2/payments/captures/${captureId}`, rel: 'up', method: 'GET' },
      ],
    };
    payments.refunds = [...((payments.refunds as Json[] | undefined) ?? []), refund];
    capture.status = amount === left ? 'REFUNDED' : 'PARTIALLY_REFUNDED';
    capture.update_time = time;
    order.updateTime = time;
    return clone(refund);
  }

  /** A refund of this app by id (for the replay of a `PayPal-Request-Id`). */
  findRefund(clientId: string, refundId: string): Json | undefined {
    for (const order of this.orders.values()) {
      if (order.clientId !== clientId) continue;
      for (const unit of order.purchaseUnits) {
        const refund = (((unit.payments as Json | undefined)?.refunds as Json[] | undefined) ?? []).find((each) => each.id === refundId);
        if (refund) return clone(refund);
      }
    }
    return undefined;
  }

  /**
   * A refund made in the provider's dashboard on a captured order's capture: it appears in the
   * order's `purchase_units[].payments.refunds` (what GET order answers) and the capture becomes
   * `PARTIALLY_REFUNDED` or `REFUNDED` once completed refunds reach its amount.
   */
  dashboardRefund(orderId: string, options: { value: string; status?: 'COMPLETED' | 'PENDING' | 'FAILED' | 'CANCELLED'; customId?: string }): Json {
    const order = this.orders.get(orderId);
    const unit = order?.purchaseUnits[0];
    const payments = unit?.payments as { captures: Json[]; refunds?: Json[] } | undefined;
    const capture = payments?.captures[0];
    if (!order || !payments || !capture) throw new Error(`order ${orderId} has no capture`);
    const amount = capture.amount as { currency_code: string; value: string };
    const time = nowIso();
    const refundId = fakePayPalId(17);
    const refund: Json = {
      id: refundId,
      status: options.status ?? 'COMPLETED',
      amount: { currency_code: amount.currency_code, value: options.value },
      ...(options.customId !== undefined ? { custom_id: options.customId } : {}),
      create_time: time,
      update_time: time,
      links: [
        { href: `${this.apiBase()}/v2/payments/refunds/${refundId}`, rel: 'self', method: 'GET' },
        { href: `${this.apiBase()}/v2/payments/captures/${capture.id as string}`, rel: 'up', method: 'GET' },
      ],
    };
    payments.refunds = [...(payments.refunds ?? []), refund];
    const refunded = payments.refunds.filter((item) => item.status === 'COMPLETED').reduce((sum, item) => sum + Number((item.amount as { value: string }).value), 0);
    if (refunded > 0) capture.status = refunded >= Number(amount.value) ? 'REFUNDED' : 'PARTIALLY_REFUNDED';
    order.updateTime = time;
    return refund;
  }

  /** Test control: a refund's later status (a PENDING one completes, fails or is cancelled), as the order then lists it. */
  setRefundStatus(refundId: string, status: 'COMPLETED' | 'FAILED' | 'CANCELLED'): Json {
    for (const order of this.orders.values()) {
      for (const unit of order.purchaseUnits) {
        const refund = (((unit.payments as Json | undefined)?.refunds as Json[] | undefined) ?? []).find((each) => each.id === refundId);
        if (!refund) continue;
        refund.status = status;
        delete refund.status_details;
        refund.update_time = nowIso();
        order.updateTime = refund.update_time as string;
        return clone(refund);
      }
    }
    throw new Error(`no refund ${refundId}`);
  }

  // --- representations ----------------------------------------------------------------------

  /** GET, and `Prefer: return=representation` answers: the whole order. */
  full(order: FakeOrder): Json {
    return clone({
      id: order.id,
      intent: order.intent,
      status: order.status,
      ...(order.paymentSource ? { payment_source: order.paymentSource } : {}),
      purchase_units: order.purchaseUnits,
      ...(order.payer ? { payer: order.payer } : {}),
      create_time: order.createTime,
      update_time: order.updateTime,
      links: this.links(order),
    });
  }

  /** `Prefer: return=minimal` (PayPal's default) answer of create: id, status, links. */
  minimalCreate(order: FakeOrder): Json {
    return clone({ id: order.id, status: order.status, links: this.links(order) });
  }

  /**
   * `return=minimal` answer of capture: the captures without the caller's `custom_id` and
   * `invoice_id`. A caller that checks `custom_id` must ask for `return=representation`.
   */
  minimalCapture(order: FakeOrder): Json {
    return clone({
      id: order.id,
      status: order.status,
      ...(order.paymentSource ? { payment_source: order.paymentSource } : {}),
      purchase_units: order.purchaseUnits.map((unit) => ({
        reference_id: unit.reference_id,
        payments: {
          captures: (((unit.payments as Json | undefined)?.captures ?? []) as Json[]).map(({ custom_id: _c, invoice_id: _i, ...rest }) => rest),
        },
      })),
      ...(order.payer ? { payer: order.payer } : {}),
      links: this.links(order),
    });
  }

  approvalUrl(order: FakeOrder): string {
    return `${this.webBase()}/checkoutnow?token=${order.id}`;
  }

  private links(order: FakeOrder): Json[] {
    const self = `${this.apiBase()}/v2/checkout/orders/${order.id}`;
    const links: Json[] = [{ href: self, rel: 'self', method: 'GET' }];
    if (order.status === 'CREATED') links.push({ href: this.approvalUrl(order), rel: 'approve', method: 'GET' });
    if (order.status === 'PAYER_ACTION_REQUIRED') links.push({ href: this.approvalUrl(order), rel: 'payer-action', method: 'GET' });
    if (order.status !== 'COMPLETED' && order.status !== 'VOIDED') {
      links.push({ href: self, rel: 'update', method: 'PATCH' });
      links.push({ href: `${self}/${order.intent === 'CAPTURE' ? 'capture' : 'authorize'}`, rel: order.intent === 'CAPTURE' ? 'capture' : 'authorize', method: 'POST' });
    }
    return links;
  }

  // --- validation -------------------------------------------------------------------------------

  private purchaseUnit(unit: unknown, index: number, count: number): Json {
    const path = `/purchase_units/${index}`;
    if (typeof unit !== 'object' || unit === null || Array.isArray(unit)) throw invalidRequest(invalidValue(path, unit));
    const request = unit as Json;
    const amount = validateAmount(request.amount, `${path}/amount`);
    if (request.reference_id === undefined && count > 1) throw invalidRequest(missingField(`${path}/reference_id`));
    const stored: Json = {
      reference_id: optionalString(request, 'reference_id', path, 256) ?? 'default',
      amount,
      payee: { email_address: 'merchant@example.test', merchant_id: FAKE_MERCHANT_ID },
    };
    for (const [field, max] of [['custom_id', 127], ['invoice_id', 127], ['description', 127], ['soft_descriptor', 22]] as const) {
      const value = optionalString(request, field, path, field === 'description' || field === 'soft_descriptor' ? 3000 : max);
      // description and soft_descriptor are truncated, not refused, beyond their display length
      if (value !== undefined) stored[field] = value.slice(0, max);
    }
    if (request.items !== undefined) stored.items = request.items;
    return stored;
  }
}

/**
 * PayPal's rules for `amount`: a supported ISO code, a decimal string (at most 32 characters),
 * no decimals at all for HUF, JPY and TWD (not even `.00`), at most two decimal places for the
 * rest, greater than zero. A `breakdown` is kept as sent.
 */
export function validateAmount(amount: unknown, path: string): Json {
  if (amount === undefined) throw invalidRequest(missingField(path));
  if (typeof amount !== 'object' || amount === null || Array.isArray(amount)) throw invalidRequest(invalidValue(path, amount));
  const { currency_code: currency, value } = amount as Json;
  if (currency === undefined) throw invalidRequest(missingField(`${path}/currency_code`));
  if (typeof currency !== 'string' || !/^[A-Z]{3}$/.test(currency)) throw invalidRequest(invalidSyntax(`${path}/currency_code`, currency));
  if (value === undefined) throw invalidRequest(missingField(`${path}/value`));
  if (typeof value !== 'string') throw invalidRequest(invalidSyntax(`${path}/value`, value));
  if (value.length > 32) throw invalidRequest(invalidLength(`${path}/value`, value));
  if (!VALUE.test(value)) throw invalidRequest(invalidSyntax(`${path}/value`, value));
  // The codes and descriptions are those of the Orders v2 reference (its 422 issue list): an
  // unsupported currency is INVALID_CURRENCY_CODE, and any fraction PayPal does not take
  // (decimals for HUF, JPY, TWD; more than two for the others) is DECIMAL_PRECISION.
  if (!PAYPAL_CURRENCIES.includes(currency)) {
    throw unprocessable(issue(`${path}/currency_code`, currency, 'INVALID_CURRENCY_CODE', 'Currency code is invalid or is not currently supported. Please refer https://developer.paypal.com/api/rest/reference/currency-codes/ for list of supported currency codes.'));
  }
  const decimals = value.includes('.') ? value.split('.')[1].length : 0;
  if ((PAYPAL_NO_DECIMAL_CURRENCIES.includes(currency) && value.includes('.')) || decimals > 2) {
    throw unprocessable(issue(`${path}/value`, value, 'DECIMAL_PRECISION', 'If the currency supports decimals, only two decimal place precision is supported.'));
  }
  if (!/[1-9]/.test(value) || value.startsWith('-')) {
    throw unprocessable(issue(`${path}/value`, value, 'CANNOT_BE_ZERO_OR_NEGATIVE', 'Must be greater than zero. If the currency supports decimals, only two decimal place precision is supported.'));
  }
  return clone(amount as Json);
}

function issue(field: string, value: string, code: string, description: string): PayPalIssue {
  return { field, value, location: 'body', issue: code, description };
}

function optionalString(request: Json, field: string, path: string, max: number): string | undefined {
  const value = request[field];
  if (value === undefined) return undefined;
  if (typeof value !== 'string') throw invalidRequest(invalidSyntax(`${path}/${field}`, value));
  if (value.length < 1 || value.length > max) throw invalidRequest(invalidLength(`${path}/${field}`, value));
  return value;
}

function clone<T>(value: T): T {
  return JSON.parse(JSON.stringify(value)) as T;
}

