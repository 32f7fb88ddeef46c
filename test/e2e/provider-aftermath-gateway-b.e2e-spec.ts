import request from 'supertest';
import { CHECKOUT_ALIAS } from '../../src/config/index.js';
import type { PaymentForm } from '../../src/modules/forms/index.js';
import { GATEWAY_B_AFTERMATH_LIMITS } from '../../src/modules/gateway-b/index.js';
import { ReconciliationService } from '../../src/modules/operations/index.js';
import { PaymentQueriesService } from '../../src/modules/payments/index.js';
import { OptionsService } from '../../src/modules/settings/index.js';
import type { FakeGatewayB } from '../fakes/gateway-b/index.js';
import { paymentRow } from '../support/app-state.js';
import { deliverGatewayBWebhook, type GatewayBTestBed, paidGatewayBRecord, startConnectedGatewayB } from '../support/gateway-b.js';
import type { TestApp } from '../support/test-app.js';

/**
 * Refunds made at gateway B (its dashboard) reach the ledger: a rolling cursor re-reads a bounded
 * number of captured payments per sweep, from the order's `purchase_units[].payments.refunds`;
 * `reconcile --payment` reads one at once. A second pass changes nothing.
 */
type Json = Record<string, unknown>;

describe('refunds made at gateway B', () => {
  let bed: GatewayBTestBed;
  let t: TestApp;
  let sandbox: FakeGatewayB;
  let form: PaymentForm;

  beforeAll(async () => {
    ({ bed, form } = await startConnectedGatewayB({ plans: [{ title: 'Payment', prices: [{ amount: 1999, currency: 'USD', frequency: 'one-time' }] }] }));
    t = bed.t;
    sandbox = bed.sandbox;
  });
  afterAll(() => bed.close());

  const sweep = () => t.app.get(ReconciliationService).runOnce({ pauseMs: 0 });
  const totals = async (id: number) => {
    const row = await paymentRow(t, id);
    return { amount_refunded: Number(row.amount_refunded), refund_reserved: Number(row.refund_reserved) };
  };
  const refundRows = (id: number): Promise<Array<Record<string, unknown>>> => t.dataSource.query(`SELECT * FROM ${t.config.tablePrefix}checkout_refunds WHERE payment_id = ? ORDER BY id`, [id]);

  async function captured(): Promise<{ id: number; orderId: string }> {
    const { rec, orderId } = await paidGatewayBRecord(bed, form);
    return { id: rec.sync.payment_id, orderId };
  }

  it('reconcile --payment reads the order\'s refunds at once; a second read changes nothing', async () => {
    const { id, orderId } = await captured();
    const refund = sandbox.orders.dashboardRefund(orderId, { value: '5.00' });
    expect(await t.app.get(ReconciliationService).reconcileOne(id)).toMatchObject({ outcome: 'moved' });
    expect(await refundRows(id)).toEqual([expect.objectContaining({ provider_refund_id: refund.id, amount: 500, status: 'succeeded', source: 'provider', currency: 'USD' })]);
    expect(await totals(id)).toEqual({ amount_refunded: 500, refund_reserved: 0 });
    expect(await t.app.get(ReconciliationService).reconcileOne(id)).toMatchObject({ outcome: 'unchanged' });
    expect(await totals(id)).toEqual({ amount_refunded: 500, refund_reserved: 0 });
  });

  it('a PAYMENT.CAPTURE.REFUNDED webhook, verified, only has the payment read again: its body is not trusted', async () => {
    const { id } = await captured();
    const { orderId } = { orderId: (await paymentRow(t, id)).provider_payment_ref as string };
    const event = structuredClone(sandbox.refundInDashboard(orderId, '2.00').event);
    // A forged amount in the body changes nothing: only the order's refunds count.
    ((event.resource as Record<string, unknown>).amount as Record<string, unknown>).value = '19.99';
    sandbox.clearCalls();
    const res = await deliverGatewayBWebhook(t, 'test', sandbox.webhookDelivery(event));
    expect(res.body).toEqual({ received: true, outcome: 'processed' });
    expect(sandbox.callsTo('POST', '/v1/notifications/verify-webhook-signature')).toHaveLength(1);
    expect(sandbox.callsTo('GET', `/v2/checkout/orders/${orderId}`)).toHaveLength(1);
    expect(await totals(id)).toEqual({ amount_refunded: 200, refund_reserved: 0 });
    // Redelivered: stored once, nothing more.
    await deliverGatewayBWebhook(t, 'test', sandbox.webhookDelivery(event));
    expect(await totals(id)).toEqual({ amount_refunded: 200, refund_reserved: 0 });
    // A capture no payment here holds is ignored (another installation's, or none).
    const stranger = { ...event, id: `WH-${Date.now()}`, resource: { ...(event.resource as object), links: [{ rel: 'up', method: 'GET', href: 'https://api.example/v2/payments/captures/NOTOURS0000000001' }] } };
    expect((await deliverGatewayBWebhook(t, 'test', sandbox.webhookDelivery(stranger))).body).toEqual({ received: true, outcome: 'ignored' });
  });

  it('a PAYMENT.CAPTURE.REVERSED webhook, verified, has the payment read again whether it carries the capture or a refund of it', async () => {
    for (const shape of ['capture', 'refund'] as const) {
      const { id, orderId } = await captured();
      const captureId = (await paymentRow(t, id)).provider_capture_ref as string;
      const refunded = sandbox.refundInDashboard(orderId, '19.99').event;
      const resource = shape === 'refund' ? refunded.resource : { id: captureId, status: 'REVERSED', amount: { currency_code: 'USD', value: '19.99' }, status_details: { reason: 'CHARGEBACK' } };
      const event = { ...refunded, id: `WH-REVERSED-${shape}-${id}`, event_type: 'PAYMENT.CAPTURE.REVERSED', resource_type: shape, summary: 'A payment was reversed', resource };
      sandbox.clearCalls();
      expect((await deliverGatewayBWebhook(t, 'test', sandbox.webhookDelivery(event))).body).toEqual({ received: true, outcome: 'processed' });
      expect(sandbox.callsTo('GET', `/v2/checkout/orders/${orderId}`)).toHaveLength(1);
      expect(await totals(id)).toEqual({ amount_refunded: 1999, refund_reserved: 0 });
    }
  });

  it('a pending refund of ours that completes at the provider is settled by the next sweep, though the rolling cursor is elsewhere', async () => {
    await captured(); // an older captured payment: where the cursor starts over
    const { id } = await captured();
    const { capture } = sandbox.orders.findCapture(sandbox.clientId, (await paymentRow(t, id)).provider_capture_ref as string);
    sandbox.orders.refundStatus = 'PENDING';
    let refund: Json;
    try {
      const res = await request(t.http).post(`${t.base}/administration/payments/${id}/refunds`).set('Authorization', t.admin.auth).send({ amount: 500 });
      expect(res.status).toBe(201);
      refund = res.body.refund as Json;
    } finally {
      sandbox.orders.refundStatus = 'COMPLETED';
    }
    expect(refund).toMatchObject({ status: 'pending', amount: 500 });
    expect(await totals(id)).toEqual({ amount_refunded: 0, refund_reserved: 500 });
    const limits = { ...GATEWAY_B_AFTERMATH_LIMITS };
    try {
      // A cursor that reads one payment a run and has just passed this one: without the pending read it would wait a full round.
      GATEWAY_B_AFTERMATH_LIMITS.capturesPerSweep = 1;
      const { created_at } = (await t.app.get(PaymentQueriesService).findById(id))!;
      await t.app.get(OptionsService).set(`${CHECKOUT_ALIAS}_gateway_b_aftermath_position`, { created_at, id });
      // Still pending at the provider: the sweep reads it and changes nothing.
      expect((await sweep()).aftermath.filter((change) => change.payment_id === id)).toEqual([]);
      expect(await totals(id)).toEqual({ amount_refunded: 0, refund_reserved: 500 });
      const [made] = (((sandbox.orders.findCapture(sandbox.clientId, capture.id as string).unit.payments as Json).refunds as Json[]));
      sandbox.orders.setRefundStatus(made.id as string, 'COMPLETED');
      expect((await sweep()).aftermath.filter((change) => change.payment_id === id)).toEqual([expect.objectContaining({ refunds_changed: 1 })]);
    } finally {
      Object.assign(GATEWAY_B_AFTERMATH_LIMITS, limits);
    }
    expect(await totals(id)).toEqual({ amount_refunded: 500, refund_reserved: 0 });
    expect(await refundRows(id)).toEqual([expect.objectContaining({ id: refund.id, status: 'succeeded', amount: 500, source: 'api' })]);
    // The payer's refund email once it succeeded, through the outbox.
    const emails = await t.dataSource.query(`SELECT item_key FROM ${t.config.tablePrefix}checkout_outbox WHERE topic = 'refund_emails' AND item_key = ?`, [`refund-${String(refund.id)}`]);
    expect(emails).toHaveLength(1);
  });

  it('the sweep re-reads a bounded number of captured payments per run and covers them all over several runs', async () => {
    const payments = [await captured(), await captured(), await captured()];
    for (const payment of payments) sandbox.orders.dashboardRefund(payment.orderId, { value: '19.99' });
    const limits = { ...GATEWAY_B_AFTERMATH_LIMITS };
    try {
      GATEWAY_B_AFTERMATH_LIMITS.capturesPerSweep = 2;
      const orderReads = () => sandbox.callsTo('GET', /^\/v2\/checkout\/orders\//).length;
      sandbox.clearCalls();
      await sweep();
      // At most two orders a run.
      expect(orderReads()).toBeLessThanOrEqual(2);
      for (let run = 0; run < 4; run++) await sweep();
      for (const payment of payments) expect(await totals(payment.id)).toEqual({ amount_refunded: 1999, refund_reserved: 0 });
      // Over again: nothing more.
      for (let run = 0; run < 3; run++) expect((await sweep()).aftermath.filter((change) => change.gateway === 'gateway_b')).toEqual([]);
      for (const payment of payments) expect(await refundRows(payment.id)).toHaveLength(1);
    } finally {
      Object.assign(GATEWAY_B_AFTERMATH_LIMITS, limits);
    }
  });

  it("a cursor that does not read as one (a bare id, as the releases that went by id stored in their own option) starts the round over from the window's start", async () => {
    const { id, orderId } = await captured();
    sandbox.orders.dashboardRefund(orderId, { value: '19.99' });
    const limits = { ...GATEWAY_B_AFTERMATH_LIMITS };
    try {
      GATEWAY_B_AFTERMATH_LIMITS.capturesPerSweep = 1000;
      // An id past every payment: read as an id it would skip them all this run.
      await t.app.get(OptionsService).set(`${CHECKOUT_ALIAS}_gateway_b_aftermath_position`, id + 1000);
      await t.app.get(OptionsService).set(`${CHECKOUT_ALIAS}_gateway_b_aftermath_cursor`, id + 1000);
      expect((await sweep()).aftermath.filter((change) => change.payment_id === id)).toEqual([expect.objectContaining({ refunds_changed: 1 })]);
    } finally {
      Object.assign(GATEWAY_B_AFTERMATH_LIMITS, limits);
    }
    expect(await totals(id)).toEqual({ amount_refunded: 1999, refund_reserved: 0 });
  });
});
