import request from 'supertest';
import type { PaymentForm } from '../../src/modules/forms/index.js';
import { gatewayBWebhookUrl } from '../../src/modules/gateway-b/index.js';
import { DoctorService, ReconciliationService } from '../../src/modules/operations/index.js';
import { PaymentLedgerService } from '../../src/modules/payments/index.js';
import { PayPalReference } from '../contracts/gateway-b/paypal-reference.js';
import type { FakeGatewayB, RecordedCall } from '../fakes/gateway-b/index.js';
import {
  adminPost,
  captureOrder,
  connectGatewayB,
  createGatewayBRecord,
  createOrder,
  deliverGatewayBWebhook,
  type GatewayBTestBed,
  startGatewayBTestBed,
  updateGatewayBRecord,
} from '../support/gateway-b.js';
import { createPaymentForm } from '../support/payment-fixtures.js';
import type { TestApp } from '../support/test-app.js';
import { advanceClock, paymentRow } from '../support/app-state.js';

/**
 * The main gateway-B flows of the service, run against the two fakes: every request the service
 * sends and every answer the fakes give is checked against PayPal's published reference (Orders
 * v2, Payments v2, Customer Disputes v1, Webhooks v1; the token endpoint against RFC 6749), after
 * each test. The tests
 * also check the outcome of each flow, so that a flow that stopped calling the provider cannot
 * pass by having nothing to check.
 */
describe('gateway B contract: the service\'s flows against the fakes, checked with PayPal\'s reference', () => {
  const reference = PayPalReference.load();
  let bed: GatewayBTestBed;
  let t: TestApp;
  let sandbox: FakeGatewayB;
  let form: PaymentForm;

  beforeAll(async () => {
    bed = await startGatewayBTestBed();
    t = bed.t;
    sandbox = bed.sandbox;
    form = await createPaymentForm(t);
  });
  afterAll(() => bed.close());
  beforeEach(() => {
    for (const fake of [bed.sandbox, bed.live]) {
      fake.clearCalls();
      fake.clearFaults();
    }
  });
  afterEach(() => {
    expect(reference.check([...bed.sandbox.calls, ...bed.live.calls])).toEqual([]);
  });

  /** `METHOD template status` of the provider calls, in order, for the outcome assertions. */
  const calls = (fake: FakeGatewayB = sandbox) =>
    fake.apiCalls().map((call: RecordedCall) => `${call.method} ${reference.operation(call.method, call.path)?.template ?? call.path} ${call.fault === 'drop' ? 'dropped' : call.status}`);
  const record = () => createGatewayBRecord(t, form);
  const ordered = async () => {
    const rec = await record();
    const order = await createOrder(t, rec);
    expect(order.status).toBe(200);
    return { rec, orderId: order.body.order_id as string };
  };

  it('connects both modes (save-settings asks for a token), and doctor reads the credentials and the Webhook ID\'s listener', async () => {
    await connectGatewayB(bed, 'live');
    await connectGatewayB(bed, 'test');
    expect(calls(bed.live)).toEqual(['POST /v1/oauth2/token 200']);
    expect(calls()).toEqual(['POST /v1/oauth2/token 200']);
    sandbox.setWebhookListener(sandbox.webhookId, { url: gatewayBWebhookUrl(t.config, 'test'), eventTypes: ['PAYMENT.CAPTURE.COMPLETED'] });
    sandbox.clearCalls();
    const checks = (await t.app.get(DoctorService).run()).filter((check) => check.name.startsWith('gateway_b test'));
    expect(checks).toEqual([expect.objectContaining({ name: 'gateway_b test credentials', status: 'ok' }), expect.objectContaining({ name: 'gateway_b test webhook', status: 'ok' })]);
    expect(calls()).toEqual(['POST /v1/oauth2/token 200', 'GET /v1/notifications/webhooks/{webhook_id} 200']);
    // A Webhook ID the REST app does not have: 404 from the provider, a failed check here.
    const stranger = sandbox.addApp().webhookIds.values().next().value as string;
    expect((await adminPost(t, '/payment-gateway/save-webhook-settings', { gateway: 'gateway_b', mode: 'test', webhook_id: stranger })).status).toBe(200);
    expect((await t.app.get(DoctorService).run()).find((check) => check.name === 'gateway_b test webhook')).toMatchObject({ status: 'fail' });
    expect(calls().at(-1)).toBe('GET /v1/notifications/webhooks/{webhook_id} 404');
    expect((await adminPost(t, '/payment-gateway/save-webhook-settings', { gateway: 'gateway_b', mode: 'test', webhook_id: sandbox.webhookId })).status).toBe(200);
    // Refused credentials (section B's configure checks them the same way): the RFC 6749 error.
    const refused = await adminPost(t, '/gateway/configure', { gateway: 'gateway_b', api_key: `${sandbox.clientId}:not-the-secret` });
    expect(refused.status).toBe(502);
    expect(calls().at(-1)).toBe('POST /v1/oauth2/token 401');
  });

  it('the payer\'s order: create, the same order again, a change refused under the approved order, capture, the webhook verified', async () => {
    const { rec, orderId } = await ordered();
    expect((await createOrder(t, rec)).body.order_id).toBe(orderId);
    sandbox.approveOrder(orderId);
    expect((await updateGatewayBRecord(t, rec, { email_address: 'other@example.test' })).status).toBe(409);
    const captured = await captureOrder(t, rec, orderId);
    expect(captured.status).toBe(200);
    expect(captured.body).toMatchObject({ status: 'completed', order_id: orderId });
    const delivered = await deliverGatewayBWebhook(t, 'test', sandbox.webhookDelivery(sandbox.captureCompletedEvent(orderId)));
    expect(delivered.body).toEqual({ received: true, outcome: 'processed' });
    expect(calls()).toEqual([
      'POST /v2/checkout/orders 201',
      'GET /v2/checkout/orders/{id} 200',
      'GET /v2/checkout/orders/{id} 200',
      'GET /v2/checkout/orders/{id} 200',
      'POST /v2/checkout/orders/{id}/capture 201',
      'POST /v1/notifications/verify-webhook-signature 200',
    ]);
    expect(await paymentRow(t, rec.sync.payment_id)).toMatchObject({ status: 'completed', provider_payment_ref: orderId });
  });

  it('capture before the approval (read only), a PENDING capture, an order PayPal does not know, an expired token', async () => {
    const early = await ordered();
    expect((await captureOrder(t, early.rec, early.orderId)).status).toBe(409);
    const pending = await ordered();
    sandbox.approveOrder(pending.orderId);
    sandbox.setCaptureOutcome(pending.orderId, { status: 'PENDING' });
    expect((await captureOrder(t, pending.rec, pending.orderId)).body).toMatchObject({ status: 'processing' });
    const unknown = await record();
    await t.app.get(PaymentLedgerService).recordProviderDetails(unknown.sync.payment_id, { providerPaymentRef: '5O190127TN364715T' }, 'test');
    sandbox.expireAllTokens();
    expect((await createOrder(t, unknown)).status).toBe(200);
    expect(calls()).toEqual([
      'POST /v2/checkout/orders 201',
      'GET /v2/checkout/orders/{id} 200',
      'POST /v2/checkout/orders 201',
      'GET /v2/checkout/orders/{id} 200',
      'POST /v2/checkout/orders/{id}/capture 201',
      'GET /v2/checkout/orders/{id} 401',
      'POST /v1/oauth2/token 200',
      'GET /v2/checkout/orders/{id} 404',
      'POST /v2/checkout/orders 201',
    ]);
    expect(await paymentRow(t, pending.rec.sync.payment_id)).toMatchObject({ status: 'processing' });
  });

  it('a forged delivery (verified FAILURE) and the reconciliation sweep reading an order whose capture answer was lost', async () => {
    const { rec, orderId } = await ordered();
    sandbox.approveOrder(orderId);
    sandbox.fault({ method: 'POST', path: `/v2/checkout/orders/${orderId}/capture`, drop: 'after', times: 2 });
    expect((await captureOrder(t, rec, orderId)).status).toBe(503);
    const genuine = sandbox.webhookDelivery(sandbox.captureCompletedEvent(orderId));
    const forged = { rawBody: Buffer.from(genuine.rawBody.toString('utf8').replace('"COMPLETED"', '"PENDING"')), headers: genuine.headers };
    expect((await deliverGatewayBWebhook(t, 'test', forged)).status).toBe(400);
    const clock = advanceClock(t, 10 * 60_000);
    try {
      const report = await t.app.get(ReconciliationService).runOnce({ pauseMs: 0 });
      expect(report.changes).toContainEqual(expect.objectContaining({ payment_id: rec.sync.payment_id, outcome: 'moved', to: 'completed' }));
    } finally {
      clock.mockRestore();
    }
    expect(calls().slice(0, 5)).toEqual([
      'POST /v2/checkout/orders 201',
      'GET /v2/checkout/orders/{id} 200',
      'POST /v2/checkout/orders/{id}/capture dropped',
      'POST /v2/checkout/orders/{id}/capture dropped',
      'POST /v1/notifications/verify-webhook-signature 200',
    ]);
    // The sweep read this order (and the orders of the earlier tests' waiting records); the refund
    // sweep of the same run does not read it again (it was just completed from that read).
    expect(sandbox.callsTo('GET', `/v2/checkout/orders/${orderId}`).map((call) => call.status)).toEqual([200, 200]);
    expect(await paymentRow(t, rec.sync.payment_id)).toMatchObject({ status: 'completed' });
    const status = await request(t.http).post(`${t.base}/payment/status`).send(rec.reference);
    expect(status.body).toMatchObject({ status: 'completed' });
  });

  it('a dispute event has the payment read again (its order, its capture\'s disputes listed and each shown), as reconcile --payment does', async () => {
    const { rec, orderId } = await ordered();
    sandbox.approveOrder(orderId);
    expect((await captureOrder(t, rec, orderId)).body).toMatchObject({ status: 'completed' });
    const { dispute, event } = sandbox.openDispute(orderId, { value: '5.00' });
    sandbox.clearCalls();
    expect((await deliverGatewayBWebhook(t, 'test', sandbox.webhookDelivery(event))).body).toEqual({ received: true, outcome: 'processed' });
    sandbox.resolveDispute(dispute.dispute_id as string, 'RESOLVED_BUYER_FAVOUR', { amountRefunded: '5.00' });
    expect(await t.app.get(ReconciliationService).reconcileOne(rec.sync.payment_id)).toMatchObject({ outcome: 'moved' });
    const readAgain = ['GET /v2/checkout/orders/{id} 200', 'GET /v1/customer/disputes 200', 'GET /v1/customer/disputes/{id} 200'];
    expect(calls()).toEqual(['POST /v1/notifications/verify-webhook-signature 200', ...readAgain, ...readAgain]);
    expect(JSON.parse((await paymentRow(t, rec.sync.payment_id)).dispute as string)).toMatchObject({ status: 'lost', amount: 500, provider_dispute_id: dispute.dispute_id });
  });
});
