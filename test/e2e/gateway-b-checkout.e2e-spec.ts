import request from 'supertest';
import type { PaymentForm } from '../../src/modules/forms/index.js';
import { GatewayStateService } from '../../src/modules/gateways/index.js';
import { PaymentLedgerService, PaymentQueriesService } from '../../src/modules/payments/index.js';
import type { FakeGatewayB } from '../fakes/gateway-b/index.js';
import {
  captureOrder,
  connectGatewayB,
  createGatewayBRecord,
  createOrder,
  type GatewayBRecord,
  type GatewayBTestBed,
  startGatewayBTestBed,
  updateGatewayBRecord,
} from '../support/gateway-b.js';
import { expectWpError } from '../support/http.js';
import { createPaymentForm, referenceOf, type SyncAnswer } from '../support/payment-fixtures.js';
import { installationIdOf, type TestApp } from '../support/test-app.js';
import { logEvents, paymentRow } from '../support/app-state.js';

/** A parsed JSON body; `any` keeps the many assertions on answers short. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Body = Record<string, any>;

describe('gateway B standard checkout (POST /gateway-b/order, /gateway-b/order/capture)', () => {
  let bed: GatewayBTestBed;
  let t: TestApp;
  let sandbox: FakeGatewayB;
  let form: PaymentForm;
  let installation: string;

  beforeAll(async () => {
    bed = await startGatewayBTestBed();
    t = bed.t;
    sandbox = bed.sandbox;
    await connectGatewayB(bed, 'test');
    form = await createPaymentForm(t, {
      plans: [
        { title: 'Payment', prices: [{ amount: 1999, currency: 'USD', frequency: 'one-time' }] },
        { title: 'Donation', prices: [{ amount: 2500, currency: 'USD', frequency: 'one-time', custom_amount: { min: 100, max: 1_000_000 } }] },
        { title: 'Yen', prices: [{ amount: 500, currency: 'JPY', frequency: 'one-time' }] },
        { title: 'Rupees', prices: [{ amount: 1000, currency: 'INR', frequency: 'one-time' }] },
        { title: 'Forint', prices: [{ amount: 150050, currency: 'HUF', frequency: 'one-time' }] },
      ],
    });
    installation = installationIdOf(t);
  });
  afterAll(() => bed.close());
  beforeEach(() => {
    sandbox.clearCalls();
    sandbox.clearFaults();
  });

  const record = (body: Record<string, unknown> = {}) => createGatewayBRecord(t, form, body);
  const status = async (rec: GatewayBRecord) => (await request(t.http).post(`${t.base}/payment/status`).send(rec.reference)).body as Body;
  const orderedAndApproved = async (rec: GatewayBRecord): Promise<string> => {
    const res = await createOrder(t, rec);
    expect(res.status).toBe(200);
    sandbox.approveOrder(res.body.order_id);
    return res.body.order_id as string;
  };

  describe('the browser flow', () => {
    it('sync-details → order → the payer approves → capture → status completed', async () => {
      const rec = await record();
      expect(rec.sync).toMatchObject({ amount: 1999, currency: 'USD', mode: 'test', status: 'pending' });

      const order = await createOrder(t, rec);
      expect(order.status).toBe(200);
      expect(order.body).toEqual({ payment_id: rec.sync.payment_id, order_id: expect.stringMatching(/^[A-Z0-9]{17}$/), order_status: 'CREATED', approve_url: expect.stringContaining('/checkoutnow?token=') });
      const orderId = order.body.order_id as string;
      const [create] = sandbox.callsTo('POST', '/v2/checkout/orders');
      expect(create.requestId).toBe(`checkout-${installation}-order-${rec.sync.payment_id}-1999-USD`);
      expect(create.prefer).toBe('return=representation');
      expect(create.body).toEqual({
        intent: 'CAPTURE',
        purchase_units: [{ amount: { currency_code: 'USD', value: '19.99' }, custom_id: String(rec.sync.payment_id), invoice_id: `checkout-${installation}-${rec.sync.payment_id}` }],
      });
      expect(await paymentRow(t, rec.sync.payment_id)).toMatchObject({ provider_payment_ref: orderId, status: 'pending' });

      sandbox.approveOrder(orderId);
      const captured = await captureOrder(t, rec, orderId);
      expect(captured.status).toBe(200);
      expect(captured.body).toEqual({ payment_id: rec.sync.payment_id, status: 'completed', order_id: orderId, capture_id: expect.any(String) });
      const [capture] = sandbox.callsTo('POST', `/v2/checkout/orders/${orderId}/capture`);
      expect(capture.requestId).toBe(`checkout-${installation}-capture-${rec.sync.payment_id}-${orderId}`);

      const row = await paymentRow(t, rec.sync.payment_id);
      expect(row).toMatchObject({ status: 'completed', provider_payment_ref: orderId, provider_capture_ref: captured.body.capture_id });
      expect(Number(row.amount_received)).toBe(1999);
      expect((await status(rec)).status).toBe('completed');

      // A repeat answers the same outcome without asking the provider again.
      sandbox.clearCalls();
      const again = await captureOrder(t, rec, orderId);
      expect(again.body).toEqual(captured.body);
      expect(sandbox.apiCalls()).toEqual([]);
      // One token served the whole flow.
      expect(sandbox.issuedTokens()).toHaveLength(1);
    });

    it('sends amounts in the currency’s decimal form (JPY whole units, HUF whole units)', async () => {
      const yen = await record({ plan_index: 2 });
      expect((await createOrder(t, yen)).status).toBe(200);
      const forint = await record({ plan_index: 4 });
      const refused = await createOrder(t, forint);
      // 1500.50 HUF cannot be sent: PayPal takes whole forints only. Refused before any call.
      expect(refused.status).toBe(400);
      expect(refused.body.data.params).toHaveProperty('amount');
      const bodies = sandbox.callsTo('POST', '/v2/checkout/orders').map((call) => (call.body as Body).purchase_units[0].amount);
      expect(bodies).toEqual([{ currency_code: 'JPY', value: '500' }]);
    });

    it('runs in live mode against the live environment', async () => {
      await connectGatewayB(bed, 'live');
      try {
        const rec = await record();
        expect(rec.sync.mode).toBe('live');
        const order = await createOrder(t, rec);
        expect(order.status).toBe(200);
        bed.live.approveOrder(order.body.order_id);
        expect((await captureOrder(t, rec, order.body.order_id)).body.status).toBe('completed');
        expect(sandbox.apiCalls()).toEqual([]);
        expect(bed.live.callsTo('POST', '/v2/checkout/orders')).toHaveLength(1);
      } finally {
        await t.app.get(GatewayStateService).setMode('gateway_b', 'test');
      }
    });
  });

  describe('reuse', () => {
    it('hands out the order the payment holds while it matches, also once approved', async () => {
      const rec = await record();
      const first = await createOrder(t, rec);
      const second = await createOrder(t, rec);
      expect(second.body).toEqual(first.body);
      expect(sandbox.callsTo('POST', '/v2/checkout/orders')).toHaveLength(1);
      expect(sandbox.callsTo('GET', `/v2/checkout/orders/${first.body.order_id}`)).toHaveLength(1);

      sandbox.approveOrder(first.body.order_id);
      const approved = await createOrder(t, rec);
      expect(approved.body).toEqual({ ...first.body, order_status: 'APPROVED', approve_url: null });
      expect(sandbox.callsTo('POST', '/v2/checkout/orders')).toHaveLength(1);
    });

    it('creates a new order when the amount changed before approval; the replaced order can no longer be captured', async () => {
      const rec = await record({ plan_index: 1, amount: 500 });
      const first = await createOrder(t, rec);
      const updated = await updateGatewayBRecord(t, rec, { plan_index: 1, amount: 700 });
      expect(updated.status).toBe(200);
      const changed: GatewayBRecord = { sync: updated.body as SyncAnswer, reference: referenceOf(updated.body as SyncAnswer, form.id, 'gateway_b', 'standard_checkout') };
      const second = await createOrder(t, changed);
      expect(second.status).toBe(200);
      expect(second.body.order_id).not.toBe(first.body.order_id);
      const creates = sandbox.callsTo('POST', '/v2/checkout/orders');
      expect(creates.map((call) => (call.body as Body).purchase_units[0].amount.value)).toEqual(['5.00', '7.00']);
      expect(creates[1].requestId).toMatch(new RegExp(`^checkout-${installation}-order-${rec.sync.payment_id}-700-USD-r[\\w-]{10}$`));
      expect(await paymentRow(t, rec.sync.payment_id)).toMatchObject({ provider_payment_ref: second.body.order_id, amount: 700 });

      // The old order, even approved, is not this payment's any more.
      sandbox.approveOrder(first.body.order_id);
      sandbox.clearCalls();
      const stale = await captureOrder(t, changed, first.body.order_id);
      expect(stale.status).toBe(409);
      expectWpError(stale.body, 'checkout_contract_mismatch', 409);
      expect(sandbox.apiCalls()).toEqual([]);
    });

    it('replaces a reference the provider does not know (the record came from the other gateway)', async () => {
      const rec = await record();
      await t.app.get(PaymentLedgerService).recordProviderDetails(rec.sync.payment_id, { providerPaymentRef: 'pi_3FromGatewayA' }, 'test');
      const res = await createOrder(t, rec);
      expect(res.status).toBe(200);
      // Not an order id Orders v2 takes: no read is sent for it.
      expect(sandbox.apiCalls().map((call) => `${call.method} ${call.path} ${call.status}`)).toEqual(['POST /v2/checkout/orders 201']);
      expect(await paymentRow(t, rec.sync.payment_id)).toMatchObject({ provider_payment_ref: res.body.order_id });
    });

    it('refuses to change the amount under an approved order (sync-details 409, read from the provider)', async () => {
      const rec = await record({ plan_index: 1, amount: 900 });
      await orderedAndApproved(rec);
      const refused = await updateGatewayBRecord(t, rec, { plan_index: 1, amount: 100 });
      expect(refused.status).toBe(409);
      expectWpError(refused.body, 'checkout_invalid_state', 409);
      expect(await paymentRow(t, rec.sync.payment_id)).toMatchObject({ amount: 900, status: 'pending' });
      expect(await logEvents(t, rec.sync.payment_id)).toContain('update_refused');
      // Details that do not touch the amount are refused too while the order is approved; a record without an order is free.
      const fresh = await record({ plan_index: 1, amount: 900 });
      expect((await updateGatewayBRecord(t, fresh, { plan_index: 1, amount: 100 })).status).toBe(200);
    });
  });

  describe('refused requests make no provider call', () => {
    it('refuses a wrong reference (403)', async () => {
      const rec = await record();
      const res = await createOrder(t, rec, { payment_secret: 'x'.repeat(43) });
      expect(res.status).toBe(403);
      expectWpError(res.body, 'checkout_invalid_payment_reference', 403);
      const capture = await captureOrder(t, rec, 'ABC', { checkout_token: 'forged.token' });
      expect(capture.status).toBe(403);
      expect(sandbox.apiCalls()).toEqual([]);
    });

    it('refuses a gateway A reference on the gateway B routes (403)', async () => {
      const rec = await record();
      const res = await createOrder(t, rec, { payment_gateway: 'gateway_a', payment_method: 'ccard' });
      expect(res.status).toBe(403);
      expect(sandbox.apiCalls()).toEqual([]);
    });

    it('refuses a recurring price (400)', async () => {
      const rec = await record();
      await t.dataSource.query(`UPDATE ${t.config.tablePrefix}checkout_payments SET frequency = 'm_1' WHERE id = ?`, [rec.sync.payment_id]);
      const res = await createOrder(t, rec);
      expect(res.status).toBe(400);
      expect(res.body.data.params).toHaveProperty('payment_id');
      expect(sandbox.apiCalls()).toEqual([]);
    });

    it('refuses a payment without a payer email, a currency the provider does not take, a finished payment', async () => {
      const noEmail = await record({ email_address: '' });
      const res = await createOrder(t, noEmail);
      expect(res.status).toBe(400);
      expect(res.body.data.params).toHaveProperty('email_address');

      const rupees = await record({ plan_index: 3 });
      const inr = await createOrder(t, rupees);
      expect(inr.status).toBe(400);
      expect(inr.body.data.params).toHaveProperty('currency');

      const done = await record();
      await t.dataSource.query(`UPDATE ${t.config.tablePrefix}checkout_payments SET status = 'canceled' WHERE id = ?`, [done.sync.payment_id]);
      const finished = await createOrder(t, done);
      expect(finished.status).toBe(409);
      expectWpError(finished.body, 'checkout_invalid_state', 409);
      expect(sandbox.apiCalls()).toEqual([]);
    });

    it('refuses a capture before any order, of another order id, of a malformed id', async () => {
      const rec = await record();
      const before = await captureOrder(t, rec, 'ORDER123');
      expect(before.status).toBe(409);
      expectWpError(before.body, 'checkout_invalid_state', 409);
      const order = await createOrder(t, rec);
      sandbox.clearCalls();
      const other = await captureOrder(t, rec, 'SOMEONEELSES1234');
      expect(other.status).toBe(409);
      expectWpError(other.body, 'checkout_contract_mismatch', 409);
      const malformed = await captureOrder(t, rec, '../../v1/oauth2/token');
      expect(malformed.status).toBe(400);
      expect(malformed.body.data.params).toHaveProperty('order_id');
      expect(sandbox.apiCalls()).toEqual([]);
      expect(await paymentRow(t, rec.sync.payment_id)).toMatchObject({ status: 'pending', provider_payment_ref: order.body.order_id });
    });
  });

  describe('the capture is checked before the payment completes', () => {
    it.each([
      ['amount', { amount: { currency_code: 'USD', value: '1.00' } }],
      ['currency', { amount: { currency_code: 'EUR', value: '19.99' } }],
      ['custom_id', { custom_id: null }],
      ['custom_id', { custom_id: '999999' }],
      ['invoice_id', { invoice_id: 'checkout-another-installation-1' }],
    ])('a tampered %s: 409 checkout_contract_mismatch, the payment is not completed', async (field, overrides) => {
      const rec = await record();
      const orderId = await orderedAndApproved(rec);
      sandbox.setCaptureOutcome(orderId, overrides);
      const res = await captureOrder(t, rec, orderId);
      expect(res.status).toBe(409);
      expectWpError(res.body, 'checkout_contract_mismatch', 409);
      expect(res.body.message).toContain(field);
      const row = await paymentRow(t, rec.sync.payment_id);
      expect(row).toMatchObject({ status: 'pending', provider_capture_ref: null, amount_received: null });
      expect(await logEvents(t, rec.sync.payment_id)).toContain('contract_mismatch');
      expect((await status(rec)).status).toBe('pending');
    });

    it('a PENDING capture: the payment is processing, not completed', async () => {
      const rec = await record();
      const orderId = await orderedAndApproved(rec);
      sandbox.setCaptureOutcome(orderId, { status: 'PENDING' });
      const res = await captureOrder(t, rec, orderId);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ status: 'processing', capture_id: expect.any(String) });
      expect(await paymentRow(t, rec.sync.payment_id)).toMatchObject({ status: 'processing', amount_received: null });
      // Asked again, the order is read back (no second capture) and the payment stays processing.
      sandbox.clearCalls();
      expect((await captureOrder(t, rec, orderId)).body.status).toBe('processing');
      expect(sandbox.callsTo('POST', `/v2/checkout/orders/${orderId}/capture`)).toEqual([]);
      expect(sandbox.callsTo('GET', `/v2/checkout/orders/${orderId}`)).toHaveLength(1);
    });

    it('a DECLINED capture fails the payment; the payer may retry with a new order', async () => {
      const rec = await record();
      const orderId = await orderedAndApproved(rec);
      sandbox.setCaptureOutcome(orderId, { status: 'DECLINED' });
      const res = await captureOrder(t, rec, orderId);
      expect(res.status).toBe(200);
      expect(res.body.status).toBe('failed');
      // The capture's status is stored as the reason (read back through the record type).
      expect((await t.app.get(PaymentQueriesService).findById(rec.sync.payment_id))?.failure_reason).toEqual({ code: 'DECLINED', decline_code: null, message: null });
      const retried = await updateGatewayBRecord(t, rec, {});
      expect(retried.status).toBe(200);
      expect(retried.body.status).toBe('pending');
      const again = await createOrder(t, { sync: retried.body, reference: referenceOf(retried.body, form.id, 'gateway_b', 'standard_checkout') });
      expect(again.status).toBe(200);
      expect(again.body.order_id).not.toBe(orderId);
    });

    it('an order the payer has not approved yet: 409, nothing sent to capture, the payment unchanged', async () => {
      const rec = await record();
      const order = await createOrder(t, rec);
      const res = await captureOrder(t, rec, order.body.order_id);
      expect(res.status).toBe(409);
      expectWpError(res.body, 'checkout_invalid_state', 409);
      expect(sandbox.callsTo('POST', `/v2/checkout/orders/${order.body.order_id}/capture`)).toEqual([]);
      expect(await paymentRow(t, rec.sync.payment_id)).toMatchObject({ status: 'pending', provider_capture_ref: null });
      expect(await logEvents(t, rec.sync.payment_id)).toContain('capture_not_approved');
      // Approved later, the same order is captured.
      sandbox.approveOrder(order.body.order_id);
      expect((await captureOrder(t, rec, order.body.order_id)).body.status).toBe('completed');
    });

    it('an order made for an amount the payment no longer has is not captured (409, no money moves)', async () => {
      const rec = await record({ plan_index: 1, amount: 1200 });
      const order = await createOrder(t, rec);
      // The payer changes the amount (allowed: the order is not approved yet), then approves the old order in a popup left open.
      const updated = await updateGatewayBRecord(t, rec, { plan_index: 1, amount: 1300 });
      expect(updated.status).toBe(200);
      sandbox.approveOrder(order.body.order_id);
      const changed: GatewayBRecord = { sync: updated.body as SyncAnswer, reference: referenceOf(updated.body as SyncAnswer, form.id, 'gateway_b', 'standard_checkout') };
      sandbox.clearCalls();
      const res = await captureOrder(t, changed, order.body.order_id);
      expect(res.status).toBe(409);
      expectWpError(res.body, 'checkout_contract_mismatch', 409);
      expect(res.body.message).toContain('amount');
      expect(sandbox.callsTo('POST', `/v2/checkout/orders/${order.body.order_id}/capture`)).toEqual([]);
      expect(sandbox.order(order.body.order_id)).toMatchObject({ status: 'APPROVED' });
      expect(await paymentRow(t, rec.sync.payment_id)).toMatchObject({ status: 'pending', amount: 1300 });
    });

    it('a declined funding source: 409, the payer approves again and the next capture goes out under a new request id', async () => {
      const rec = await record();
      const orderId = await orderedAndApproved(rec);
      sandbox.fault({
        method: 'POST',
        path: `/v2/checkout/orders/${orderId}/capture`,
        status: 422,
        body: { name: 'UNPROCESSABLE_ENTITY', message: 'The requested action could not be performed.', debug_id: 'f00dfeed12345', details: [{ issue: 'INSTRUMENT_DECLINED', description: 'The instrument presented was either declined by the processor or bank.' }] },
      });
      const declined = await captureOrder(t, rec, orderId);
      expect(declined.status).toBe(409);
      expectWpError(declined.body, 'checkout_invalid_state', 409);
      expect(JSON.stringify(declined.body)).not.toContain('processor or bank');
      expect(await paymentRow(t, rec.sync.payment_id)).toMatchObject({ status: 'pending' });
      expect(await logEvents(t, rec.sync.payment_id)).toContain('capture_declined');
      const retried = await captureOrder(t, rec, orderId);
      expect(retried.body.status).toBe('completed');
      const ids = sandbox.callsTo('POST', `/v2/checkout/orders/${orderId}/capture`).map((call) => call.requestId);
      expect(ids).toEqual([`checkout-${installation}-capture-${rec.sync.payment_id}-${orderId}`, `checkout-${installation}-capture-${rec.sync.payment_id}-${orderId}-a1`]);
    });

    it('an order captured before (e.g. the answer was lost) is read back and checked', async () => {
      const rec = await record();
      const orderId = await orderedAndApproved(rec);
      // The provider captured it under another request id; the service's own capture is refused as already captured.
      const fakeToken = sandbox.issuedTokens()[0].token;
      const direct = await fetch(`${sandbox.url}/v2/checkout/orders/${orderId}/capture`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${fakeToken}`, 'Content-Type': 'application/json', 'PayPal-Request-Id': 'elsewhere-1' },
      });
      expect(direct.status).toBe(201);
      const res = await captureOrder(t, rec, orderId);
      expect(res.status).toBe(200);
      expect(res.body.status).toBe('completed');
      expect(sandbox.callsTo('GET', `/v2/checkout/orders/${orderId}`).length).toBeGreaterThan(0);
    });
  });

  describe('tokens', () => {
    it('keeps the token until it expires and refreshes it once on a 401', async () => {
      const rec = await record();
      await createOrder(t, rec);
      expect(sandbox.callsTo('POST', '/v1/oauth2/token')).toEqual([]);
      sandbox.expireAllTokens();
      sandbox.clearCalls();
      const other = await record();
      const res = await createOrder(t, other);
      expect(res.status).toBe(200);
      const calls = sandbox.apiCalls().map((call) => `${call.method} ${call.path} ${call.status}`);
      expect(calls).toEqual(['POST /v2/checkout/orders 401', 'POST /v1/oauth2/token 200', 'POST /v2/checkout/orders 201']);
    });
  });

  describe('provider failures leave the payment as it was', () => {
    it('a refused or failing create: 502 checkout_gateway_error, no order stored, no provider text', async () => {
      const rec = await record();
      sandbox.fault({ method: 'POST', path: '/v2/checkout/orders', status: 500, times: 2 });
      const res = await createOrder(t, rec);
      expect(res.status).toBe(502);
      expectWpError(res.body, 'checkout_gateway_error', 502);
      expect(JSON.stringify(res.body)).not.toMatch(/internal server error/i);
      expect(await paymentRow(t, rec.sync.payment_id)).toMatchObject({ status: 'pending', provider_payment_ref: null });
      expect(await logEvents(t, rec.sync.payment_id)).toContain('order_failed');
      // The next attempt works.
      expect((await createOrder(t, rec)).status).toBe(200);
    });

    it('a malformed answer: 502, nothing stored', async () => {
      const rec = await record();
      sandbox.fault({ method: 'POST', path: '/v2/checkout/orders', body: '<html>gateway</html>', status: 200 });
      const res = await createOrder(t, rec);
      expect(res.status).toBe(502);
      expect(await paymentRow(t, rec.sync.payment_id)).toMatchObject({ provider_payment_ref: null });
    });

    it('a create that times out: 503 checkout_gateway_unavailable with Retry-After; the retry gets the same order', async () => {
      const rec = await record();
      sandbox.fault({ method: 'POST', path: '/v2/checkout/orders', delayMs: 2500 });
      const started = Date.now();
      const res = await createOrder(t, rec);
      expect(res.status).toBe(503);
      expectWpError(res.body, 'checkout_gateway_unavailable', 503);
      expect(res.headers['retry-after']).toBe('30');
      expect(Date.now() - started).toBeLessThan(2500);
      expect(await paymentRow(t, rec.sync.payment_id)).toMatchObject({ provider_payment_ref: null });
      // The provider still made the order; the same PayPal-Request-Id answers it again.
      await new Promise((resolve) => setTimeout(resolve, 2000));
      const retry = await createOrder(t, rec);
      expect(retry.status).toBe(200);
      const creates = sandbox.callsTo('POST', '/v2/checkout/orders');
      expect(creates[1]).toMatchObject({ replayed: true, requestId: creates[0].requestId });
      expect(sandbox.orders.all().filter((order) => order.purchaseUnits[0].custom_id === String(rec.sync.payment_id))).toHaveLength(1);
    });

    it('a capture whose answer is lost (also on the client’s one repeat): 503, not completed; the retry completes it once', async () => {
      const rec = await record();
      const orderId = await orderedAndApproved(rec);
      sandbox.fault({ method: 'POST', path: `/v2/checkout/orders/${orderId}/capture`, drop: 'after', times: 2 });
      const lost = await captureOrder(t, rec, orderId);
      expect(lost.status).toBe(503);
      expectWpError(lost.body, 'checkout_gateway_unavailable', 503);
      expect(await paymentRow(t, rec.sync.payment_id)).toMatchObject({ status: 'pending', provider_capture_ref: null });
      const retry = await captureOrder(t, rec, orderId);
      expect(retry.status).toBe(200);
      expect(retry.body.status).toBe('completed');
      // The client repeated the lost capture once under the same id (a replay); the retry read the captured order instead of capturing again.
      const captures = sandbox.callsTo('POST', `/v2/checkout/orders/${orderId}/capture`);
      expect(captures.map((call) => call.replayed ?? false)).toEqual([false, true]);
      expect(new Set(captures.map((call) => call.requestId)).size).toBe(1);
    });

    it('the provider down while sync-details checks the order: 503, nothing changed', async () => {
      const rec = await record({ plan_index: 1, amount: 1500 });
      await createOrder(t, rec);
      sandbox.fault({ method: 'GET', path: /^\/v2\/checkout\/orders\//, drop: 'before', times: 2 });
      const res = await updateGatewayBRecord(t, rec, { plan_index: 1, amount: 1600 });
      expect(res.status).toBe(503);
      expect(await paymentRow(t, rec.sync.payment_id)).toMatchObject({ amount: 1500 });
    });
  });
});
