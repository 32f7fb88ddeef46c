import request from 'supertest';
import Stripe from 'stripe';
import type { PaymentForm } from '../../src/modules/forms/index.js';
import { GatewayStateService } from '../../src/modules/gateways/index.js';
import { ReconciliationService } from '../../src/modules/operations/index.js';
import { logEvents, paymentRow } from '../support/app-state.js';
import { connectThroughProxy, type GatewayATestBed, startGatewayATestBed } from '../support/gateway-a.js';
import { createIntent, createRecord, finishCheckout, gatewayClient } from '../support/gateway-a-checkout.js';
import { createPaymentForm } from '../support/payment-fixtures.js';

/**
 * Refunds and disputes made at gateway A (its dashboard, the payer's bank) reach the ledger: the
 * sweep reads GET /v1/events from a stored cursor and re-reads each object; `reconcile --payment`
 * lists them by payment intent. Idempotent: a second pass changes nothing.
 */
describe('refunds and disputes made at gateway A', () => {
  let bed: GatewayATestBed;
  let form: PaymentForm;

  beforeAll(async () => {
    bed = await startGatewayATestBed({ RATE_LIMIT_NEW_PAYMENT: '10000', RATE_LIMIT_PUBLIC_PAYMENT: '10000' });
    const landing = await connectThroughProxy(bed, 'test');
    expect(landing.searchParams.get('gateway_a_webhook')).toBe('verified');
    await bed.t.app.get(GatewayStateService).setActiveMethods('gateway_a', ['ccard']);
    form = await createPaymentForm(bed.t);
  });
  afterAll(() => bed.close());

  const t = () => bed.t;
  const sweep = () => t().app.get(ReconciliationService).runOnce({ pauseMs: 0 });
  const reconcileOne = (id: number) => t().app.get(ReconciliationService).reconcileOne(id);
  const disputeRows = (id: number): Promise<Array<Record<string, unknown>>> => t().dataSource.query(`SELECT * FROM ${t().config.tablePrefix}checkout_payment_disputes WHERE payment_id = ? ORDER BY id`, [id]);
  const dashboard = async () => (await request(t().http).get(`${t().base}/administration/dashboard`).set('Authorization', t().admin.auth)).body.notifications as Array<Record<string, unknown>>;

  /** A completed one-time payment: its id and payment intent. */
  async function paid(): Promise<{ id: number; intent: string }> {
    const record = await createRecord(t(), form);
    const intent = await createIntent(t(), record);
    await (await gatewayClient(t())).paymentIntents.confirm(intent.body.intent_id, { payment_method: 'pm_card_visa' });
    expect((await finishCheckout(t(), record, { intent_id: intent.body.intent_id })).body.status).toBe('completed');
    return { id: record.sync.payment_id, intent: intent.body.intent_id };
  }

  it('a dispute opened by the bank reaches the payment through the event sweep, once, with a dashboard notification and its link', async () => {
    const { id, intent } = await paid();
    const opened = bed.fake.moneyAfter.openDispute(intent, { reason: 'fraudulent', dueBy: Math.floor(Date.UTC(2026, 11, 5) / 1000) });
    bed.fake.clearRequests();
    const first = await sweep();
    expect(first.stoppedBy).toBeNull();
    expect(first.aftermath).toEqual([expect.objectContaining({ payment_id: id, changed: true, disputes_changed: 1, gateway: 'gateway_a' })]);
    // Ids only from the events: the dispute is read back at the pinned API version.
    const [events] = bed.fake.requestsTo('GET', '/v1/events');
    expect(events.query).toMatchObject({ types: expect.arrayContaining(['charge.refunded', 'charge.refund.updated', 'charge.dispute.created', 'charge.dispute.closed']), created: { gte: expect.any(String) } });
    const [reread] = bed.fake.requestsTo('GET', `/v1/disputes/${opened.id as string}`);
    expect(reread.stripeVersion).toBe(Stripe.API_VERSION);
    expect(await disputeRows(id)).toEqual([
      expect.objectContaining({ provider_dispute_id: opened.id, status: 'needs_response', amount: 1000, currency: 'USD', reason: 'fraudulent', gateway: 'gateway_a' }),
    ]);
    expect(await logEvents(t(), id)).toContain('dispute_opened');
    const notice = (await dashboard()).find((entry) => entry.id === `payments.dispute.${id}`);
    expect(notice).toMatchObject({ severity: 'error', source: 'payments', link: `https://dashboard.stripe.com/test/disputes/${opened.id as string}` });
    expect(notice!.message).toContain('2026-12-05T00:00:00.000Z');

    // A second pass (the cursor overlaps) changes nothing.
    const second = await sweep();
    expect(second.aftermath).toEqual([]);
    expect((await logEvents(t(), id)).filter((event) => event.startsWith('dispute_'))).toEqual(['dispute_opened']);

    // Lost: the notification goes, the row says lost.
    bed.fake.moneyAfter.setDisputeStatus(opened.id as string, 'lost');
    expect((await sweep()).aftermath).toEqual([expect.objectContaining({ payment_id: id, disputes_changed: 1 })]);
    expect(await disputeRows(id)).toEqual([expect.objectContaining({ status: 'lost' })]);
    expect((await dashboard()).some((entry) => entry.id === `payments.dispute.${id}`)).toBe(false);
  });

  it('reconcile --payment reads one payment\'s disputes by payment intent at once, idempotently', async () => {
    const { id, intent } = await paid();
    const opened = bed.fake.moneyAfter.openDispute(intent, { amount: 400, status: 'warning_needs_response' });
    bed.fake.clearRequests();
    expect(await reconcileOne(id)).toMatchObject({ payment_id: id, outcome: 'moved', from: 'completed', to: 'completed' });
    const [list] = bed.fake.requestsTo('GET', '/v1/disputes');
    expect(list.query).toMatchObject({ payment_intent: intent });
    expect(await disputeRows(id)).toEqual([expect.objectContaining({ provider_dispute_id: opened.id, status: 'warning_needs_response', amount: 400 })]);
    expect(await reconcileOne(id)).toMatchObject({ outcome: 'unchanged' });
    expect(await paymentRow(t(), id)).toMatchObject({ status: 'completed' });
  });

  it('leaves alone what belongs to no payment of this installation', async () => {
    // An intent made at the provider by someone else (no payment here holds it).
    const stranger = await (await gatewayClient(t())).paymentIntents.create({ amount: 800, currency: 'usd', payment_method: 'pm_card_visa', confirm: true, allowed_payment_method_types: ['card'] });
    const before: Array<{ n: number | string }> = await t().dataSource.query(`SELECT COUNT(*) AS n FROM ${t().config.tablePrefix}checkout_payment_disputes`);
    const dispute = bed.fake.moneyAfter.openDispute(stranger.id);
    const report = await sweep();
    expect(report.stoppedBy).toBeNull();
    expect(report.aftermath).toEqual([]);
    const after: Array<{ n: number | string }> = await t().dataSource.query(`SELECT COUNT(*) AS n FROM ${t().config.tablePrefix}checkout_payment_disputes`);
    expect(Number(after[0].n)).toBe(Number(before[0].n));
    expect((await dashboard()).some((entry) => String(entry.message).includes(dispute.id as string))).toBe(false);
  });
});
