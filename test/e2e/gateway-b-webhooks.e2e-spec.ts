import type { PaymentForm } from '../../src/modules/forms/index.js';
import { ReconciliationService } from '../../src/modules/operations/index.js';
import { buildEvent, type FakeGatewayB, type Json } from '../fakes/gateway-b/index.js';
import {
  captureOrder,
  connectGatewayB,
  createGatewayBRecord,
  createOrder,
  deliverGatewayBWebhook,
  type GatewayBRecord,
  type GatewayBTestBed,
  startConnectedGatewayB,
} from '../support/gateway-b.js';
import { expectWpError } from '../support/http.js';
import { installationIdOf, type TestApp } from '../support/test-app.js';
import { advanceClock, logEvents, paymentRow } from '../support/app-state.js';

const HEADERS = ['PAYPAL-AUTH-ALGO', 'PAYPAL-CERT-URL', 'PAYPAL-TRANSMISSION-ID', 'PAYPAL-TRANSMISSION-SIG', 'PAYPAL-TRANSMISSION-TIME'];

describe('POST /webhook/gateway-b-callback/{mode}', () => {
  let bed: GatewayBTestBed;
  let t: TestApp;
  let sandbox: FakeGatewayB;
  let form: PaymentForm;

  beforeAll(async () => {
    ({ bed, form } = await startConnectedGatewayB());
    t = bed.t;
    sandbox = bed.sandbox;
  });
  afterAll(() => bed.close());
  beforeEach(() => {
    sandbox.clearCalls();
    sandbox.clearFaults();
  });

  const record = () => createGatewayBRecord(t, form);
  const deliver = (event: Json | string | Buffer, options: { mode?: string; webhookId?: string; fake?: FakeGatewayB } = {}) =>
    deliverGatewayBWebhook(t, options.mode ?? 'test', (options.fake ?? sandbox).webhookDelivery(event, options.webhookId ? { webhookId: options.webhookId } : {}));
  const storedEvents = async (eventId: string) =>
    (await t.dataSource.query(`SELECT status, payment_id, reason FROM ${t.config.tablePrefix}checkout_webhook_events WHERE provider = 'gateway_b' AND event_id = ?`, [eventId])) as Array<{
      status: string;
      payment_id: number | null;
      reason: string | null;
    }>;
  const verifyCalls = () => sandbox.callsTo('POST', '/v1/notifications/verify-webhook-signature');

  /** A record whose order was captured at the provider, while the service never saw the capture's answer. */
  const capturedBehindOurBack = async (captureOverrides: Json = {}): Promise<{ rec: GatewayBRecord; orderId: string }> => {
    const rec = await record();
    const order = await createOrder(t, rec);
    const orderId = order.body.order_id as string;
    sandbox.approveOrder(orderId);
    if (Object.keys(captureOverrides).length > 0) sandbox.setCaptureOutcome(orderId, captureOverrides);
    sandbox.fault({ method: 'POST', path: `/v2/checkout/orders/${orderId}/capture`, drop: 'after', times: 2 });
    expect((await captureOrder(t, rec, orderId)).status).toBe(503);
    expect(await paymentRow(t, rec.sync.payment_id)).toMatchObject({ status: 'pending' });
    sandbox.clearCalls();
    return { rec, orderId };
  };

  describe('PAYMENT.CAPTURE.COMPLETED', () => {
    it('verifies the delivery with the provider and completes the payment that holds the order, once', async () => {
      const { rec, orderId } = await capturedBehindOurBack();
      const event = sandbox.captureCompletedEvent(orderId);
      const res = await deliver(event);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ received: true, outcome: 'processed' });
      const [verify] = verifyCalls();
      expect(verify.authorization).toBe('bearer');
      expect((verify.body as Json).webhook_id).toBe(sandbox.webhookId);
      const row = await paymentRow(t, rec.sync.payment_id);
      expect(row).toMatchObject({ status: 'completed', provider_payment_ref: orderId });
      expect(Number(row.amount_received)).toBe(1000);
      expect(row.provider_capture_ref).toBe((event.resource as Json).id);
      expect(await storedEvents(event.id as string)).toEqual([{ status: 'processed', payment_id: rec.sync.payment_id, reason: null }]);

      // A redelivery changes nothing; the event stays stored once.
      const again = await deliver(event);
      expect(again.body).toEqual({ received: true, outcome: 'duplicate' });
      expect(await storedEvents(event.id as string)).toHaveLength(1);
      expect((await logEvents(t, rec.sync.payment_id)).filter((name) => name === 'status_changed')).toHaveLength(1);
    });

    it('concurrent deliveries of one event apply it once', async () => {
      const { rec, orderId } = await capturedBehindOurBack();
      const event = sandbox.captureCompletedEvent(orderId);
      const outcomes = (await Promise.all([deliver(event), deliver(event), deliver(event)])).map((res) => res.body.outcome).sort();
      expect(outcomes).toEqual(['duplicate', 'duplicate', 'processed']);
      expect((await logEvents(t, rec.sync.payment_id)).filter((name) => name === 'status_changed')).toHaveLength(1);
    });

    it('completes a payment left processing by a PENDING capture', async () => {
      const rec = await record();
      const order = await createOrder(t, rec);
      sandbox.approveOrder(order.body.order_id);
      sandbox.setCaptureOutcome(order.body.order_id, { status: 'PENDING' });
      expect((await captureOrder(t, rec, order.body.order_id)).body.status).toBe('processing');
      const event = sandbox.captureCompletedEvent(order.body.order_id);
      const resource = event.resource as Json;
      resource.status = 'COMPLETED';
      delete resource.status_details;
      expect((await deliver(event)).body.outcome).toBe('processed');
      expect(await paymentRow(t, rec.sync.payment_id)).toMatchObject({ status: 'completed', provider_capture_ref: resource.id });
    });

    it('posts the received bytes back verbatim (escapes, spacing and non-ASCII text survive)', async () => {
      const { rec, orderId } = await capturedBehindOurBack();
      const event = sandbox.captureCompletedEvent(orderId);
      event.summary = 'Paiement reçu — 10,00 $ \u2713';
      const raw = JSON.stringify(event, null, 1).replace('"summary"', '"summ\\u0061ry"').replace(/\//g, '\\/');
      const res = await deliver(raw);
      expect(res.body.outcome).toBe('processed');
      expect(await paymentRow(t, rec.sync.payment_id)).toMatchObject({ status: 'completed' });
    });
  });

  describe('only this installation’s own orders move records', () => {
    it('ignores an event whose order carries another installation’s marker (payment ids collide across sites)', async () => {
      const { rec, orderId } = await capturedBehindOurBack();
      const event = sandbox.captureCompletedEvent(orderId);
      (event.resource as Json).invoice_id = `checkout-00000000-0000-4000-8000-000000000000-${rec.sync.payment_id}`;
      const res = await deliver(event);
      expect(res.body).toEqual({ received: true, outcome: 'ignored' });
      expect(await paymentRow(t, rec.sync.payment_id)).toMatchObject({ status: 'pending' });
      expect((await storedEvents(event.id as string))[0]).toMatchObject({ status: 'ignored', reason: 'the order was not created by this installation' });
    });

    it('rejects an event for an order the record does not hold, and one whose amount or currency differ', async () => {
      const { rec, orderId } = await capturedBehindOurBack();
      const ours = sandbox.captureCompletedEvent(orderId);
      const otherOrder = structuredClone(ours);
      otherOrder.id = `${ours.id as string}-1`;
      ((otherOrder.resource as Json).supplementary_data as Json) = { related_ids: { order_id: 'ANOTHERORDER1234' } };
      expect((await deliver(otherOrder)).body.outcome).toBe('rejected');

      const wrongAmount = structuredClone(ours);
      wrongAmount.id = `${ours.id as string}-2`;
      (wrongAmount.resource as Json).amount = { currency_code: 'USD', value: '1.00' };
      expect((await deliver(wrongAmount)).body.outcome).toBe('rejected');

      const wrongCurrency = structuredClone(ours);
      wrongCurrency.id = `${ours.id as string}-3`;
      (wrongCurrency.resource as Json).amount = { currency_code: 'EUR', value: '10.00' };
      expect((await deliver(wrongCurrency)).body.outcome).toBe('rejected');

      expect(await paymentRow(t, rec.sync.payment_id)).toMatchObject({ status: 'pending', provider_capture_ref: null });
      expect((await logEvents(t, rec.sync.payment_id)).filter((name) => name === 'webhook_contract_mismatch')).toHaveLength(3);
      expect((await storedEvents(otherOrder.id as string))[0]).toMatchObject({ status: 'rejected', reason: 'the record holds another order' });
    });

    it('ignores an event naming no known payment', async () => {
      const { orderId } = await capturedBehindOurBack();
      const event = sandbox.captureCompletedEvent(orderId);
      const resource = event.resource as Json;
      resource.custom_id = '987654';
      resource.invoice_id = `checkout-${installationIdOf(t)}-987654`;
      expect((await deliver(event)).body.outcome).toBe('ignored');
    });

    it('stores and ignores other event types', async () => {
      const rec = await record();
      const order = await createOrder(t, rec);
      const approved = buildEvent('CHECKOUT.ORDER.APPROVED', 'checkout-order', sandbox.approveOrder(order.body.order_id), 'An order has been approved by buyer');
      const res = await deliver(approved);
      expect(res.body).toEqual({ received: true, outcome: 'ignored' });
      expect(await storedEvents(approved.id as string)).toEqual([{ status: 'ignored', payment_id: null, reason: 'event type outside the contract' }]);
      expect((await deliver(approved)).body.outcome).toBe('duplicate');
    });
  });

  describe('event types of any length the store holds', () => {
    // PayPal's reference sets no length on event_type; the column held 100 and MariaDB answered 500 on every delivery.
    it.each([101, 128, 255])('stores and ignores a verified event whose type is %i characters long, once', async (length) => {
      const type = `PAYMENT.${'X'.repeat(length - 'PAYMENT.'.length - '.DONE'.length)}.DONE`;
      expect(type).toHaveLength(length);
      const event = buildEvent(type, 'capture', { id: `LONGTYPE${length}`, status: 'COMPLETED' }, 'a long event name');
      const res = await deliver(event);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ received: true, outcome: 'ignored' });
      const [row] = (await t.dataSource.query(`SELECT event_type, status FROM ${t.config.tablePrefix}checkout_webhook_events WHERE provider = 'gateway_b' AND event_id = ?`, [event.id])) as Array<{
        event_type: string;
        status: string;
      }>;
      expect(row).toEqual({ event_type: type, status: 'ignored' });
      expect((await deliver(event)).body).toEqual({ received: true, outcome: 'duplicate' });
    });

    it('refuses a type longer than the store holds before any provider call (400)', async () => {
      const event = buildEvent(`PAYMENT.${'X'.repeat(248)}`, 'capture', { id: 'LONGTYPE256', status: 'COMPLETED' }, 'too long');
      const res = await deliver(event);
      expectWpError(res.body, 'checkout_invalid_signature', 400);
      expect(verifyCalls()).toEqual([]);
      expect(await storedEvents(event.id as string)).toEqual([]);
    });
  });

  describe('verification', () => {
    const event = () => buildEvent('PAYMENT.CAPTURE.COMPLETED', 'capture', { id: 'CAPTURE1', status: 'COMPLETED' }, 'test');

    it.each(HEADERS)('refuses a delivery without %s (400, no provider call, nothing stored)', async (header) => {
      const delivery = sandbox.webhookDelivery(event());
      delete (delivery.headers as Record<string, string>)[header];
      const res = await deliverGatewayBWebhook(t, 'test', delivery);
      expect(res.status).toBe(400);
      expectWpError(res.body, 'checkout_invalid_signature', 400);
      expect(sandbox.apiCalls()).toEqual([]);
    });

    it('refuses a delivery the provider does not verify: changed bytes, another listener’s signature (400, nothing stored)', async () => {
      const original = event();
      const delivery = sandbox.webhookDelivery(original);
      const tampered = { rawBody: Buffer.from(delivery.rawBody.toString('utf8').replace('"COMPLETED"', '"COMPLETED" ')), headers: delivery.headers };
      const res = await deliverGatewayBWebhook(t, 'test', tampered);
      expectWpError(res.body, 'checkout_invalid_signature', 400);
      const foreign = await deliver(event(), { webhookId: sandbox.addWebhook(sandbox.addApp()) });
      expectWpError(foreign.body, 'checkout_invalid_signature', 400);
      expect(verifyCalls().map((call) => call.status)).toEqual([200, 200]);
      expect(await storedEvents(original.id as string)).toEqual([]);
    });

    it('refuses a mode without a stored Webhook ID (400, no provider call)', async () => {
      await connectGatewayB(bed, 'live', { webhookId: null });
      try {
        const res = await deliver(event(), { mode: 'live', fake: bed.live });
        expectWpError(res.body, 'checkout_invalid_signature', 400);
        expect(bed.live.apiCalls().filter((call) => call.path !== '/v1/oauth2/token')).toEqual([]);
        expect(bed.live.callsTo('POST', '/v1/notifications/verify-webhook-signature')).toEqual([]);
      } finally {
        await connectGatewayB(bed, 'test');
      }
    });

    it('answers an unknown mode 404 before anything else', async () => {
      const res = await deliver(event(), { mode: 'sandbox' });
      expect(res.status).toBe(404);
      expectWpError(res.body, 'rest_no_route', 404);
      expect(sandbox.apiCalls()).toEqual([]);
    });

    it('answers 503 while the provider cannot verify (so it delivers again), then processes the redelivery', async () => {
      const { rec, orderId } = await capturedBehindOurBack();
      const completed = sandbox.captureCompletedEvent(orderId);
      sandbox.fault({ method: 'POST', path: '/v1/notifications/verify-webhook-signature', drop: 'before' });
      const down = await deliver(completed);
      expect(down.status).toBe(503);
      expectWpError(down.body, 'checkout_gateway_unavailable', 503);
      sandbox.fault({ method: 'POST', path: '/v1/notifications/verify-webhook-signature', status: 503 });
      expect((await deliver(completed)).status).toBe(503);
      expect(await storedEvents(completed.id as string)).toEqual([]);
      expect(await paymentRow(t, rec.sync.payment_id)).toMatchObject({ status: 'pending' });
      expect((await deliver(completed)).body.outcome).toBe('processed');
    });

    it('refuses a verified body that is not an event (400)', async () => {
      const res = await deliver({ hello: 'world' });
      expect(res.status).toBe(400);
    });
  });

  describe('when no webhook arrives', () => {
    it('the reconciliation sweep completes a captured order as the webhook would, and leaves an approved one to the payer', async () => {
      const { rec, orderId } = await capturedBehindOurBack();
      const approvedOnly = await record();
      const approved = await createOrder(t, approvedOnly);
      sandbox.approveOrder(approved.body.order_id);
      const clock = advanceClock(t, 10 * 60_000);
      try {
        const report = await t.app.get(ReconciliationService).runOnce({ pauseMs: 0 });
        expect(report.changes).toContainEqual(expect.objectContaining({ payment_id: rec.sync.payment_id, gateway: 'gateway_b', outcome: 'moved', from: 'pending', to: 'completed' }));
        expect(report.changes.find((change) => change.payment_id === approvedOnly.sync.payment_id)).toBeUndefined();
      } finally {
        clock.mockRestore();
      }
      const row = await paymentRow(t, rec.sync.payment_id);
      expect(row).toMatchObject({ status: 'completed', provider_payment_ref: orderId });
      expect(Number(row.amount_received)).toBe(1000);
      expect(await paymentRow(t, approvedOnly.sync.payment_id)).toMatchObject({ status: 'pending' });
      expect(sandbox.callsTo('POST', `/v2/checkout/orders/${approved.body.order_id}/capture`)).toEqual([]);
      // The webhook arriving late changes nothing more.
      expect((await deliver(sandbox.captureCompletedEvent(orderId))).body.outcome).toBe('processed');
      expect((await logEvents(t, rec.sync.payment_id)).filter((name) => name === 'status_changed')).toHaveLength(1);
    });
  });
});
