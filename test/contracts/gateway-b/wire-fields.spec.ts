import {
  MalformedAnswer,
  parseCaptureResource,
  parseDispute,
  parseDisputePage,
  parseOrder,
  parseRefund,
  parseTokenGrant,
  parseVerificationStatus,
  parseWebhookEvent,
  parseWebhookListener,
} from '../../../src/modules/gateway-b/client/gateway-b-wire.js';
import { readErrorBody } from '../../../src/modules/gateway-b/client/gateway-b-errors.js';
import { FakeDisputes } from '../../fakes/gateway-b/fake-disputes.js';
import { FakeOrders } from '../../fakes/gateway-b/fake-orders.js';
import { captureCompletedEvent, type Json } from '../../fakes/gateway-b/index.js';
import { PayPalReference, type ReferenceDocument } from './paypal-reference.js';

/**
 * The fields gateway B's wire parser reads, against PayPal's reference:
 * 1. every field it reads exists in the reference's schema of that answer (a field the provider
 *    dropped or never had is a field the service waits for in vain);
 * 2. every field the reference marks optional is handled when absent: either the parser goes on
 *    without it (`optional`), or the answer is refused as malformed (`refused`, a 502 or a
 *    refused event, nothing stored) for the reason given below;
 * 3. the lists are complete: the parser is run on a full answer whose reads are recorded, and
 *    every path it touched must be listed here, so a new read cannot skip these checks.
 */

type Handling = 'optional' | 'refused';
interface WireAnswer {
  /** The reference's schema of the answer. */
  document: ReferenceDocument;
  pointer: string;
  parse: (value: unknown) => unknown;
  /** A full, reference-valid sample. */
  sample: () => Json;
  /** Each field the parser reads (`a.b[].c`) and what it does without it. */
  fields: Record<string, Handling>;
}

/**
 * Fields the reference leaves optional that the service cannot act without, so an answer
 * lacking them is refused (never guessed at):
 */
const ORDER_ID = 'the order id is what the record stores and what every later call names';
const CAPTURE_ID = 'the capture id is stored on the record (provider_capture_ref) and ties an event to it';
const CAPTURE_STATUS = 'completed, pending or declined decides how the record moves';
const REFUSED_WHY: Record<string, string> = {
  'order: id': ORDER_ID,
  'order: status': 'whether the payer approved, or the order was captured, is decided on it',
  'order: purchase_units[].payments.captures[].id': CAPTURE_ID,
  'order: purchase_units[].payments.captures[].status': CAPTURE_STATUS,
  'event: id': 'the event store keeps each event once, by its id',
  'event: event_type': 'the effect of an event depends on its type',
  'event: resource': 'the capture an event carries is its whole content',
  'event capture: id': CAPTURE_ID,
  'event capture: status': CAPTURE_STATUS,
  'refund: id': 'the refund id is stored on our refund row (provider_refund_id, unique per gateway)',
  'refund: status': 'completed, pending, failed or cancelled decides how the refunded amount moves',
  'order: purchase_units[].payments.refunds[].id': 'the refund id is stored on our refund row (provider_refund_id, unique per gateway)',
  'order: purchase_units[].payments.refunds[].status': 'completed, pending, failed or cancelled decides how the refunded amount moves',
  'dispute: dispute_id': 'the dispute id is stored (provider_dispute_id, unique per gateway) and names the provider\'s page',
  'dispute: status': 'open, waiting or resolved decides the status shown and whether the money is lost',
  'dispute list: items[].dispute_id': 'each listed dispute is read in full by its id',
};

function orderSample(): Json {
  const orders = new FakeOrders(
    () => 'https://api-m.sandbox.paypal.test',
    () => 'https://www.sandbox.paypal.test',
  );
  const order = orders.create('client', { intent: 'CAPTURE', purchase_units: [{ amount: { currency_code: 'USD', value: '19.99' }, custom_id: '42', invoice_id: 'checkout-x-42', description: 'Order' }] });
  orders.approve(order.id);
  order.captureOverrides = { status: 'PENDING' }; // a PENDING capture carries status_details
  orders.capture('client', order.id);
  const capture = ((order.purchaseUnits[0].payments as Json).captures as Json[])[0];
  capture.status = 'COMPLETED';
  orders.refundStatus = 'PENDING'; // a PENDING refund carries status_details
  orders.refund('client', capture.id as string, { amount: { currency_code: 'USD', value: '1.00' }, custom_id: 'checkout-x-refund-3' });
  return orders.full(order);
}

function refundSample(): Json {
  const [unit] = orderSample().purchase_units as Json[];
  return ((unit.payments as Json).refunds as Json[])[0];
}

/**
 * Disputes of a captured order: one open (the seller's turn, a due date), one resolved in the
 * buyer's favour with what went back to the buyer; the list in pages of one (a `next` link).
 */
function disputesSample(): { dispute: Json; page: Json } {
  const orders = new FakeOrders(
    () => 'https://api-m.sandbox.paypal.test',
    () => 'https://www.sandbox.paypal.test',
  );
  const order = orders.create('client', { intent: 'CAPTURE', purchase_units: [{ amount: { currency_code: 'USD', value: '19.99' }, custom_id: '42', invoice_id: 'checkout-x-42' }] });
  orders.approve(order.id);
  orders.capture('client', order.id);
  const disputes = new FakeDisputes(() => 'https://api-m.sandbox.paypal.test', orders);
  const open = disputes.open(order.id, { value: '5.00' });
  const resolved = disputes.resolve(disputes.open(order.id).id, 'RESOLVED_BUYER_FAVOUR', { amountRefunded: '19.99' });
  // Resolved, but with every field the parser reads (a due date as an open one has).
  const dispute = { ...disputes.detail(resolved), seller_response_due_date: open.sellerResponseDueDate };
  const [capture] = ((order.purchaseUnits[0].payments as Json).captures as Json[]);
  return { dispute, page: disputes.list('client', { disputed_transaction_id: capture.id as string, page_size: '1' }) };
}

const ANSWERS: Record<string, WireAnswer> = {
  token: {
    document: 'token',
    pointer: '/definitions/access_token_response',
    parse: parseTokenGrant,
    sample: () => ({ scope: 'openid https://uri.paypal.com/services/payments/payment/authcapture', access_token: 'A21AAtoken', token_type: 'Bearer', app_id: 'APP-80W284485P519543T', expires_in: 32400, nonce: 'n' }),
    fields: { access_token: 'refused', token_type: 'refused', expires_in: 'optional', scope: 'optional' },
  },
  order: {
    document: 'orders',
    pointer: '/components/schemas/order',
    parse: parseOrder,
    sample: orderSample,
    fields: {
      id: 'refused',
      status: 'refused',
      intent: 'optional',
      purchase_units: 'optional',
      'purchase_units[].reference_id': 'optional',
      'purchase_units[].amount': 'optional',
      'purchase_units[].amount.currency_code': 'refused',
      'purchase_units[].amount.value': 'refused',
      'purchase_units[].custom_id': 'optional',
      'purchase_units[].invoice_id': 'optional',
      'purchase_units[].description': 'optional',
      'purchase_units[].payments': 'optional',
      'purchase_units[].payments.captures': 'optional',
      'purchase_units[].payments.refunds': 'optional',
      'purchase_units[].payments.refunds[].id': 'refused',
      'purchase_units[].payments.refunds[].status': 'refused',
      'purchase_units[].payments.refunds[].amount': 'optional',
      'purchase_units[].payments.refunds[].amount.currency_code': 'refused',
      'purchase_units[].payments.refunds[].amount.value': 'refused',
      'purchase_units[].payments.refunds[].custom_id': 'optional',
      'purchase_units[].payments.refunds[].invoice_id': 'optional',
      'purchase_units[].payments.refunds[].status_details': 'optional',
      'purchase_units[].payments.refunds[].status_details.reason': 'optional',
      'purchase_units[].payments.captures[].id': 'refused',
      'purchase_units[].payments.captures[].status': 'refused',
      'purchase_units[].payments.captures[].amount': 'optional',
      'purchase_units[].payments.captures[].amount.currency_code': 'refused',
      'purchase_units[].payments.captures[].amount.value': 'refused',
      'purchase_units[].payments.captures[].custom_id': 'optional',
      'purchase_units[].payments.captures[].invoice_id': 'optional',
      'purchase_units[].payments.captures[].final_capture': 'optional',
      'purchase_units[].payments.captures[].status_details': 'optional',
      'purchase_units[].payments.captures[].status_details.reason': 'optional',
      'purchase_units[].payments.captures[].create_time': 'optional',
      'purchase_units[].payments.captures[].update_time': 'optional',
      links: 'optional',
      'links[].href': 'refused',
      'links[].rel': 'refused',
      'links[].method': 'optional',
      payer: 'optional',
      'payer.payer_id': 'optional',
      'payer.email_address': 'optional',
      create_time: 'optional',
      update_time: 'optional',
    },
  },
  refund: {
    document: 'payments',
    pointer: '/components/schemas/refund',
    parse: (value) => parseRefund(value),
    sample: refundSample,
    fields: {
      id: 'refused',
      status: 'refused',
      amount: 'optional',
      'amount.currency_code': 'refused',
      'amount.value': 'refused',
      custom_id: 'optional',
      invoice_id: 'optional',
      status_details: 'optional',
      'status_details.reason': 'optional',
    },
  },
  dispute: {
    document: 'disputes',
    pointer: '/components/schemas/dispute',
    parse: parseDispute,
    sample: () => disputesSample().dispute,
    fields: {
      dispute_id: 'refused',
      status: 'refused',
      create_time: 'optional',
      disputed_transactions: 'optional',
      'disputed_transactions[].seller_transaction_id': 'optional',
      reason: 'optional',
      dispute_amount: 'optional',
      'dispute_amount.currency_code': 'refused',
      'dispute_amount.value': 'refused',
      dispute_outcome: 'optional',
      'dispute_outcome.outcome_code': 'optional',
      'dispute_outcome.amount_refunded': 'optional',
      'dispute_outcome.amount_refunded.currency_code': 'refused',
      'dispute_outcome.amount_refunded.value': 'refused',
      dispute_life_cycle_stage: 'optional',
      seller_response_due_date: 'optional',
    },
  },
  'dispute list': {
    document: 'disputes',
    pointer: '/components/schemas/dispute_search',
    parse: parseDisputePage,
    sample: () => disputesSample().page,
    fields: { items: 'optional', 'items[].dispute_id': 'refused', links: 'optional', 'links[].rel': 'refused', 'links[].href': 'refused' },
  },
  verification: {
    document: 'webhooks',
    pointer: '/components/schemas/verify_webhook_signature_response',
    parse: parseVerificationStatus,
    sample: () => ({ verification_status: 'SUCCESS' }),
    fields: { verification_status: 'refused' },
  },
  listener: {
    document: 'webhooks',
    pointer: '/components/schemas/webhook',
    parse: parseWebhookListener,
    sample: () => ({
      id: '0EH40505U7160970P',
      url: 'https://shop.example.test/wp-json/checkout/v1/webhook/gateway-b-callback/test',
      event_types: [{ name: 'PAYMENT.CAPTURE.COMPLETED', description: 'A payment capture completes.', status: 'ENABLED' }],
      links: [{ href: 'https://api-m.paypal.test/v1/notifications/webhooks/0EH40505U7160970P', rel: 'self', method: 'GET' }],
    }),
    fields: { id: 'optional', url: 'refused', event_types: 'refused', 'event_types[].name': 'refused' },
  },
  event: {
    document: 'webhooks',
    pointer: '/components/schemas/event',
    parse: parseWebhookEvent,
    sample: () => captureCompletedEvent(capturedSample(), 'ORDER1'),
    fields: {
      id: 'refused',
      event_type: 'refused',
      resource_type: 'optional',
      event_version: 'optional',
      resource_version: 'optional',
      create_time: 'optional',
      summary: 'optional',
      resource: 'refused',
    },
  },
  'event capture': {
    document: 'payments',
    pointer: '/components/schemas/capture-2',
    parse: (value) => parseCaptureResource(value as Json),
    sample: () => captureCompletedEvent(capturedSample(), 'ORDER1').resource as Json,
    fields: {
      id: 'refused',
      status: 'refused',
      amount: 'optional',
      'amount.currency_code': 'refused',
      'amount.value': 'refused',
      custom_id: 'optional',
      invoice_id: 'optional',
      final_capture: 'optional',
      status_details: 'optional',
      'status_details.reason': 'optional',
      create_time: 'optional',
      update_time: 'optional',
      supplementary_data: 'optional',
      'supplementary_data.related_ids': 'optional',
      'supplementary_data.related_ids.order_id': 'optional',
    },
  },
};

function capturedSample(): Json {
  const [unit] = orderSample().purchase_units as Json[];
  return ((unit.payments as Json).captures as Json[])[0];
}

/** A deep proxy of `value` that adds every property path read from it to `reads` (`a.b[].c`). */
function recordReads(value: unknown, reads: Set<string>, path = ''): unknown {
  if (typeof value !== 'object' || value === null) return value;
  return new Proxy(value as object, {
    get(target, key, receiver) {
      const child: unknown = Reflect.get(target, key, receiver);
      if (typeof key !== 'string') return child;
      if (Array.isArray(target)) return /^\d+$/.test(key) ? recordReads(child, reads, `${path}[]`) : child;
      if (!Object.prototype.hasOwnProperty.call(target, key) && typeof child === 'function') return child;
      const here = path ? `${path}.${key}` : key;
      reads.add(here);
      return recordReads(child, reads, here);
    },
  });
}

/** `sample` without the field at `path` (in every element of the arrays on the way). */
function without(sample: Json, path: string): Json {
  const copy = structuredClone(sample);
  const parts = path.replace(/\[\]/g, '.[]').split('.');
  const drop = (node: unknown, rest: string[]): void => {
    if (node === null || typeof node !== 'object') return;
    const [head, ...tail] = rest;
    if (head === '[]') return (node as unknown[]).forEach((item) => drop(item, tail));
    if (tail.length === 0) delete (node as Json)[head];
    else drop((node as Json)[head], tail);
  };
  drop(copy, parts);
  return copy;
}

describe('gateway B contract: the fields the wire parser reads, against PayPal\'s reference', () => {
  const reference = PayPalReference.load();

  describe.each(Object.entries(ANSWERS))('%s', (name, answer) => {
    it('the sample is a valid answer of the reference, and the parser accepts it', () => {
      expect(reference.validate(answer.document, answer.pointer, answer.sample())).toEqual([]);
      expect(() => answer.parse(answer.sample())).not.toThrow();
    });

    it('every path the parser reads is listed (so that the checks below cover it)', () => {
      const reads = new Set<string>();
      answer.parse(recordReads(answer.sample(), reads));
      expect([...reads].sort()).toEqual(Object.keys(answer.fields).sort());
    });

    it.each(Object.entries(answer.fields))('%s: exists in the reference; when it is absent the parser does what is listed', (path, handling) => {
      const field = reference.field(answer.document, answer.pointer, path);
      expect({ path, exists: field.exists }).toEqual({ path, exists: true });
      // Refusing an answer the reference allows needs a reason (above).
      if (!field.required && handling === 'refused') expect({ path, why: REFUSED_WHY[`${name}: ${path}`] }).toEqual({ path, why: expect.any(String) });
      const parse = () => answer.parse(without(answer.sample(), path));
      if (handling === 'optional') expect(parse).not.toThrow();
      else expect(parse).toThrow(MalformedAnswer);
    });
  });

  it('the capture inside an order reads the same fields as the capture of an event (one parser)', () => {
    const inOrder = Object.keys(ANSWERS.order.fields)
      .filter((path) => path.startsWith('purchase_units[].payments.captures[].'))
      .map((path) => path.slice('purchase_units[].payments.captures[].'.length));
    const inEvent = Object.keys(ANSWERS['event capture'].fields).filter((path) => !path.startsWith('supplementary_data'));
    expect(inOrder.sort()).toEqual(inEvent.sort());
  });

  describe('error bodies', () => {
    const orders422 = () => ({
      name: 'UNPROCESSABLE_ENTITY',
      message: 'The requested action could not be performed, semantically incorrect, or failed business validation.',
      debug_id: 'f2a4c9b1e0d3a',
      details: [{ field: '/purchase_units/0/amount/value', value: '10.5', location: 'body', issue: 'DECIMAL_PRECISION', description: 'If the currency supports decimals, only two decimal place precision is supported.' }],
      links: [{ href: 'https://developer.paypal.com/docs/api/orders/v2/#error-DECIMAL_PRECISION', rel: 'information_link', method: 'GET' }],
    });

    it('reads name, debug_id and details[].issue, field, location of PayPal\'s bodies, and error of RFC 6749\'s; all exist there, none is needed', () => {
      const reads = new Set<string>();
      readErrorBody(recordReads(orders422(), reads));
      readErrorBody(recordReads({ error: 'invalid_client', error_description: 'Client Authentication failed' }, reads));
      expect([...reads].sort()).toEqual(['debug_id', 'details', 'details[].field', 'details[].issue', 'details[].location', 'error', 'name'].sort());
      for (const path of ['name', 'debug_id', 'details[].issue', 'details[].field', 'details[].location']) {
        expect({ path, ...reference.field('orders', '/components/schemas/error_422', path) }).toMatchObject({ path, exists: true });
        expect({ path, ...reference.field('webhooks', '/components/schemas/error', path) }).toMatchObject({ path, exists: true });
        expect(() => readErrorBody(without(orders422(), path))).not.toThrow();
      }
      expect(reference.field('token', '/definitions/error_response', 'error')).toEqual({ exists: true, required: true });
      expect(readErrorBody({})).toEqual({ issues: [] });
    });
  });

  it('the field lookup itself: finds properties through $ref, allOf and items, and misses what is not there', () => {
    expect(reference.field('orders', '/components/schemas/order', 'purchase_units[].payments.captures[].status')).toEqual({ exists: true, required: false });
    expect(reference.field('orders', '/components/schemas/order', 'purchase_units[].amount.value')).toEqual({ exists: true, required: true });
    expect(reference.field('orders', '/components/schemas/order', 'purchase_units[].payments.captures[].application_fee').exists).toBe(false);
    expect(reference.field('webhooks', '/components/schemas/webhook', 'url')).toEqual({ exists: true, required: true });
    expect(reference.field('token', '/definitions/access_token_response', 'expires_in')).toEqual({ exists: true, required: false });
    expect(reference.field('token', '/definitions/access_token_response', 'app_id').exists).toBe(false);
  });
});
