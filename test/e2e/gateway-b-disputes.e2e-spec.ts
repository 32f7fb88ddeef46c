import request from 'supertest';
import type { PaymentForm } from '../../src/modules/forms/index.js';
import { GATEWAY_B_AFTERMATH_LIMITS } from '../../src/modules/gateway-b/index.js';
import { ReconciliationService } from '../../src/modules/operations/index.js';
import type { FakeGatewayB } from '../fakes/gateway-b/index.js';
import { logEvents, paymentRow } from '../support/app-state.js';
import { parseCsv } from '../support/csv.js';
import { captureOrder, connectGatewayB, createGatewayBRecord, createOrder, deliverGatewayBWebhook, type GatewayBTestBed, startGatewayBTestBed } from '../support/gateway-b.js';
import { createPaymentForm } from '../support/payment-fixtures.js';
import type { TestApp } from '../support/test-app.js';

/**
 * Disputes of gateway-B payments (Customer Disputes v1): read with the payment's mode credentials
 * when a verified CUSTOMER.DISPUTE.* event names the payment's capture (its body is not trusted),
 * by `reconcile --payment`, and by the rolling sweep; PayPal's states in the card gateway's words,
 * a dashboard notification per disputed payment, a lost dispute against net. A second pass changes
 * nothing.
 */
describe('disputes of gateway B payments', () => {
  let bed: GatewayBTestBed;
  let t: TestApp;
  let sandbox: FakeGatewayB;
  let form: PaymentForm;

  beforeAll(async () => {
    bed = await startGatewayBTestBed();
    t = bed.t;
    sandbox = bed.sandbox;
    await connectGatewayB(bed, 'test');
    form = await createPaymentForm(t, { plans: [{ title: 'Payment', prices: [{ amount: 1999, currency: 'USD', frequency: 'one-time' }] }] });
  });
  afterAll(() => bed.close());
  beforeEach(() => sandbox.clearFaults());

  const sweep = () => t.app.get(ReconciliationService).runOnce({ pauseMs: 0 });
  const reconcileOne = (id: number) => t.app.get(ReconciliationService).reconcileOne(id);
  const admin = (path: string) => request(t.http).get(`${t.base}/administration${path}`).set('Authorization', t.admin.auth);
  const shownDispute = async (id: number) => (await admin(`/payments/${id}`)).body.dispute as Record<string, unknown> | null;
  const notices = async (id: number) => ((await admin('/dashboard')).body.notifications as Array<Record<string, unknown>>).filter((entry) => entry.id === `payments.dispute.${id}`);
  const disputeLog = async (id: number) => (await logEvents(t, id)).filter((event) => event.startsWith('dispute_'));
  const disputeCount = async () => Number(((await t.dataSource.query(`SELECT COUNT(*) AS n FROM ${t.config.tablePrefix}checkout_payment_disputes`)) as Array<{ n: number | string }>)[0].n);
  const resolutionCenter = (disputeId: unknown) => `https://www.sandbox.paypal.com/resolutioncenter/view/${String(disputeId)}`;

  /** The payment's row of the CSV export, by column. */
  async function exported(id: number): Promise<Record<string, string>> {
    const res = await admin('/payments/export.csv?gateway=gateway_b')
      .buffer(true)
      .parse((answer, done) => {
        let text = '';
        answer.setEncoding('utf8');
        answer.on('data', (chunk: string) => (text += chunk));
        answer.on('end', () => done(null, text));
      });
    const [header, ...records] = parseCsv(res.body as string);
    const record = records.find((fields) => fields[0] === String(id))!;
    return Object.fromEntries(header.map((name, index) => [name, record[index]]));
  }

  /** A completed gateway-B payment: its id, order and capture. */
  async function captured(): Promise<{ id: number; orderId: string; captureId: string }> {
    const rec = await createGatewayBRecord(t, form);
    const order = await createOrder(t, rec);
    sandbox.approveOrder(order.body.order_id);
    expect((await captureOrder(t, rec, order.body.order_id)).body.status).toBe('completed');
    const id = rec.sync.payment_id;
    return { id, orderId: order.body.order_id as string, captureId: (await paymentRow(t, id)).provider_capture_ref as string };
  }

  it('a dispute opened at the provider shows on the payment after a verified dispute event, with one notification linking to it; the body is not trusted, a second pass changes nothing', async () => {
    const { id, orderId, captureId } = await captured();
    const due = new Date('2026-12-08T10:00:00.000Z');
    const { dispute, event } = sandbox.openDispute(orderId, { value: '5.00', reason: 'MERCHANDISE_OR_SERVICE_NOT_RECEIVED', dueDate: due });
    sandbox.clearCalls();
    expect((await deliverGatewayBWebhook(t, 'test', sandbox.webhookDelivery(event))).body).toEqual({ received: true, outcome: 'processed' });
    // Read back with the mode's credentials: the capture's disputes listed, each one read in full.
    const [list] = sandbox.callsTo('GET', '/v1/customer/disputes');
    expect(list.query).toEqual({ disputed_transaction_id: captureId, page_size: '50' });
    expect(list.clientId).toBe(sandbox.clientId);
    expect(sandbox.callsTo('GET', `/v1/customer/disputes/${String(dispute.dispute_id)}`)).toHaveLength(1);
    const expected = { status: 'needs_response', amount: 500, reason: 'merchandise_or_service_not_received', evidence_due_by: due.toISOString(), provider_dispute_id: dispute.dispute_id, provider_url: resolutionCenter(dispute.dispute_id) };
    expect(await shownDispute(id)).toEqual(expected);
    expect(await paymentRow(t, id)).toMatchObject({ status: 'completed' });
    const [notice] = await notices(id);
    expect(notice).toMatchObject({ severity: 'error', source: 'payments', link: resolutionCenter(dispute.dispute_id) });
    expect(notice.message).toContain(due.toISOString());
    expect(await disputeLog(id)).toEqual(['dispute_opened']);

    // The same event again, then one whose body says the dispute was lost: only PayPal's answer counts.
    await deliverGatewayBWebhook(t, 'test', sandbox.webhookDelivery(event));
    const forged = structuredClone(event);
    Object.assign(forged, { id: `WH-FORGED${Date.now()}`, event_type: 'CUSTOMER.DISPUTE.RESOLVED' });
    Object.assign(forged.resource as object, { status: 'RESOLVED', dispute_outcome: { outcome_code: 'RESOLVED_BUYER_FAVOUR' } });
    expect((await deliverGatewayBWebhook(t, 'test', sandbox.webhookDelivery(forged))).body).toEqual({ received: true, outcome: 'processed' });
    expect(await reconcileOne(id)).toMatchObject({ payment_id: id, outcome: 'unchanged' });
    expect(await shownDispute(id)).toEqual(expected);
    expect(await disputeLog(id)).toEqual(['dispute_opened']);
    expect(await notices(id)).toHaveLength(1);
  });

  it('reconcile --payment reads the disputes at once; resolved in the buyer\'s favour the dispute is lost and counts against net', async () => {
    const { id, orderId } = await captured();
    const { dispute } = sandbox.openDispute(orderId, { value: '5.00', status: 'WAITING_FOR_BUYER_RESPONSE', stage: 'INQUIRY', dueDate: null });
    expect(await reconcileOne(id)).toMatchObject({ payment_id: id, outcome: 'moved', from: 'completed', to: 'completed' });
    expect(await shownDispute(id)).toEqual({ status: 'warning_under_review', amount: 500, reason: 'merchandise_or_service_not_received', evidence_due_by: null, provider_dispute_id: dispute.dispute_id, provider_url: resolutionCenter(dispute.dispute_id) });
    expect(await notices(id)).toEqual([expect.objectContaining({ severity: 'warning', link: resolutionCenter(dispute.dispute_id) })]);
    const before = await exported(id);
    expect(before).toMatchObject({ disputed: 'true', amount_refunded: '0' });
    const fee = Number(before.application_fee_amount || 0);
    expect(before.net).toBe(String(1999 - fee));

    sandbox.updateDispute(dispute.dispute_id as string, { status: 'UNDER_REVIEW', stage: 'CHARGEBACK' });
    sandbox.resolveDispute(dispute.dispute_id as string, 'RESOLVED_BUYER_FAVOUR', { amountRefunded: '5.00' });
    expect(await reconcileOne(id)).toMatchObject({ outcome: 'moved' });
    expect(await shownDispute(id)).toMatchObject({ status: 'lost', amount: 500, provider_dispute_id: dispute.dispute_id });
    expect(await notices(id)).toEqual([]);
    expect((await exported(id)).net).toBe(String(1999 - fee - 500));
    expect(await reconcileOne(id)).toMatchObject({ outcome: 'unchanged' });
    expect(await disputeLog(id)).toEqual(['dispute_opened', 'dispute_updated']);
    expect((await exported(id)).net).toBe(String(1999 - fee - 500));
  });

  it('resolved in the seller\'s favour (the resolved event has it read again) the dispute is won and net is whole', async () => {
    const { id, orderId } = await captured();
    const { dispute } = sandbox.openDispute(orderId, { reason: 'UNAUTHORISED' });
    expect(await reconcileOne(id)).toMatchObject({ outcome: 'moved' });
    expect(await shownDispute(id)).toMatchObject({ status: 'needs_response', amount: 1999, reason: 'unauthorised' });
    const { event } = sandbox.resolveDispute(dispute.dispute_id as string, 'RESOLVED_SELLER_FAVOUR');
    expect((await deliverGatewayBWebhook(t, 'test', sandbox.webhookDelivery(event))).body).toEqual({ received: true, outcome: 'processed' });
    expect(await shownDispute(id)).toMatchObject({ status: 'won', amount: 1999, evidence_due_by: null });
    expect(await notices(id)).toEqual([]);
    const row = await exported(id);
    expect(row.net).toBe(String(1999 - Number(row.application_fee_amount || 0)));
    expect(await reconcileOne(id)).toMatchObject({ outcome: 'unchanged' });
  });

  it('the rolling sweep reads the disputes of the captured payments it re-reads, within its bound', async () => {
    const payments = [await captured(), await captured(), await captured()];
    for (const payment of payments) sandbox.openDispute(payment.orderId, { value: '1.00' });
    const limits = { ...GATEWAY_B_AFTERMATH_LIMITS };
    try {
      GATEWAY_B_AFTERMATH_LIMITS.capturesPerSweep = 2;
      sandbox.clearCalls();
      await sweep();
      // At most two payments a run: an order read and a dispute list each.
      expect(sandbox.callsTo('GET', /^\/v2\/checkout\/orders\//).length).toBeLessThanOrEqual(2);
      expect(sandbox.callsTo('GET', '/v1/customer/disputes').length).toBeLessThanOrEqual(2);
      for (let run = 0; run < 10; run++) await sweep();
      for (const payment of payments) expect(await shownDispute(payment.id)).toMatchObject({ status: 'needs_response', amount: 100 });
      for (let run = 0; run < 6; run++) expect((await sweep()).aftermath.filter((change) => change.gateway === 'gateway_b')).toEqual([]);
      for (const payment of payments) expect(await disputeLog(payment.id)).toEqual(['dispute_opened']);
    } finally {
      Object.assign(GATEWAY_B_AFTERMATH_LIMITS, limits);
    }
  });

  it('leaves alone a dispute of another merchant\'s capture, and one the provider lists whose details name another capture', async () => {
    const before = await disputeCount();
    // Another merchant's order, captured at the provider (no payment here holds it).
    const other = sandbox.addApp();
    const order = sandbox.orders.create(other.clientId, { intent: 'CAPTURE', purchase_units: [{ amount: { currency_code: 'USD', value: '19.99' } }] });
    sandbox.orders.approve(order.id);
    sandbox.orders.capture(other.clientId, order.id);
    const { event } = sandbox.openDispute(order.id);
    sandbox.clearCalls();
    expect((await deliverGatewayBWebhook(t, 'test', sandbox.webhookDelivery(event))).body).toEqual({ received: true, outcome: 'ignored' });
    expect(sandbox.callsTo('GET', /^\/v1\/customer\/disputes/)).toEqual([]);
    expect((await sweep()).aftermath.filter((change) => change.gateway === 'gateway_b')).toEqual([]);
    expect(await disputeCount()).toBe(before);

    // A payment of ours whose listed dispute, read in full, disputes another transaction.
    const { id, orderId } = await captured();
    const { dispute } = sandbox.openDispute(orderId);
    sandbox.fault({ method: 'GET', path: `/v1/customer/disputes/${String(dispute.dispute_id)}`, body: { ...dispute, disputed_transactions: [{ seller_transaction_id: 'NOTTHISCAPTURE001' }] } });
    expect(await reconcileOne(id)).toMatchObject({ outcome: 'unchanged' });
    expect(await shownDispute(id)).toBeNull();
    expect(await disputeCount()).toBe(before);
    expect(await notices(id)).toEqual([]);
  });

  it('the provider failing while disputes are read: reconcile --payment answers 502, the sweep stops and reads again next time', async () => {
    const { id, orderId } = await captured();
    sandbox.openDispute(orderId);
    sandbox.fault({ method: 'GET', path: '/v1/customer/disputes', status: 503, times: 2 });
    await expect(reconcileOne(id)).rejects.toMatchObject({ status: 502, code: 'checkout_gateway_error' });
    expect(await shownDispute(id)).toBeNull();
    sandbox.fault({ method: 'GET', path: '/v1/customer/disputes', status: 503, times: Infinity });
    expect((await sweep()).stoppedBy).toBe('gateway_b: checkout_gateway_error');
    sandbox.clearFaults();
    expect(await reconcileOne(id)).toMatchObject({ outcome: 'moved' });
    expect(await shownDispute(id)).toMatchObject({ status: 'needs_response', amount: 1999 });
  });
});
