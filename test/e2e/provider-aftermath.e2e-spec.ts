import request from 'supertest';
import Stripe from 'stripe';
import type { PaymentForm } from '../../src/modules/forms/index.js';
import { AFTERMATH_LIMITS, AFTERMATH_OVERLAP_S, gatewayAOption } from '../../src/modules/gateway-a/index.js';
import { GatewayStateService } from '../../src/modules/gateways/index.js';
import { ReconciliationService } from '../../src/modules/operations/index.js';
import { RefundEntity } from '../../src/modules/payments/refunds/refund.entity.js';
import { logEvents, paymentRow } from '../support/app-state.js';
import { connectThroughProxy, type GatewayATestBed, startGatewayATestBed } from '../support/gateway-a.js';
import { createIntent, createRecord, finishCheckout, gatewayClient } from '../support/gateway-a-checkout.js';
import { createPaymentForm } from '../support/payment-fixtures.js';
import { installationIdOf } from '../support/test-app.js';

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
    expect((await paymentRow(t(), id)).dispute).toEqual(JSON.stringify({ status: 'lost', amount: 1000, reason: 'fraudulent', evidence_due_by: '2026-12-05T00:00:00.000Z', provider_dispute_id: opened.id }));
    expect((await dashboard()).some((entry) => entry.id === `payments.dispute.${id}`)).toBe(false);
    // The payment's detail links to the provider's page for it, as the notification did.
    const detail = await request(t().http).get(`${t().base}/administration/payments/${id}`).set('Authorization', t().admin.auth);
    expect(detail.body.dispute).toEqual({ status: 'lost', amount: 1000, reason: 'fraudulent', evidence_due_by: '2026-12-05T00:00:00.000Z', provider_dispute_id: opened.id, provider_url: `https://dashboard.stripe.com/test/disputes/${opened.id as string}` });
  });

  it('reads again 5 minutes before its cursor: an event the provider stored late, with an earlier time, is not missed', async () => {
    const { id, intent } = await paid();
    bed.fake.moneyAfter.dashboardRefund(intent, { amount: 100 });
    await sweep();
    const cursor = JSON.parse((await t().dataSource.query(`SELECT option_value FROM ${t().config.tablePrefix}options WHERE option_name = ?`, [gatewayAOption.aftermathCursor('test')]))[0].option_value as string) as { after: number };
    // Listed only now, though created two minutes before where the last sweep stopped.
    const late = bed.fake.moneyAfter.openDispute(intent, { amount: 100, created: cursor.after - 120 });
    bed.fake.clearRequests();
    expect((await sweep()).aftermath).toEqual([expect.objectContaining({ payment_id: id, disputes_changed: 1 })]);
    const [events] = bed.fake.requestsTo('GET', '/v1/events');
    expect(Number((events.query.created as Record<string, string>).gte)).toBe(cursor.after - AFTERMATH_OVERLAP_S);
    expect(await disputeRows(id)).toEqual([expect.objectContaining({ provider_dispute_id: late.id })]);
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

  const refundRows = (id: number): Promise<Array<Record<string, unknown>>> => t().dataSource.query(`SELECT * FROM ${t().config.tablePrefix}checkout_refunds WHERE payment_id = ? ORDER BY id`, [id]);
  const totals = async (id: number) => {
    const row = await paymentRow(t(), id);
    return { amount_refunded: Number(row.amount_refunded), refund_reserved: Number(row.refund_reserved) };
  };

  it('a refund made in the dashboard is recorded once (source provider), a pending one reserved until it settles', async () => {
    const { id, intent } = await paid();
    const made = bed.fake.moneyAfter.dashboardRefund(intent, { amount: 300 });
    const first = await sweep();
    expect(first.aftermath).toEqual([expect.objectContaining({ payment_id: id, refunds_changed: 1 })]);
    expect(await refundRows(id)).toEqual([expect.objectContaining({ provider_refund_id: made.id, amount: 300, status: 'succeeded', source: 'provider', currency: 'USD', reason: 'requested_by_customer', created_by: null })]);
    expect(await totals(id)).toEqual({ amount_refunded: 300, refund_reserved: 0 });
    expect(await logEvents(t(), id)).toContain('refund_recorded');
    // The payer's refund email goes through the outbox, once per refund.
    const [recorded] = await refundRows(id);
    const emails = async () => (await t().dataSource.query(`SELECT item_key FROM ${t().config.tablePrefix}checkout_outbox WHERE topic = 'refund_emails' AND item_key = ?`, [`refund-${String(recorded.id)}`])).length;
    expect(await emails()).toBe(1);
    // Again: nothing changes (the sweep's overlap reads the same events).
    expect((await sweep()).aftermath).toEqual([]);
    expect(await reconcileOne(id)).toMatchObject({ outcome: 'unchanged' });
    expect(await refundRows(id)).toHaveLength(1);
    expect(await totals(id)).toEqual({ amount_refunded: 300, refund_reserved: 0 });
    expect(await emails()).toBe(1);

    const pending = bed.fake.moneyAfter.dashboardRefund(intent, { amount: 200, status: 'pending' });
    expect(await reconcileOne(id)).toMatchObject({ outcome: 'moved' });
    expect(await totals(id)).toEqual({ amount_refunded: 300, refund_reserved: 200 });
    bed.fake.moneyAfter.setRefundStatus(pending.id as string, 'succeeded');
    expect((await sweep()).aftermath).toEqual([expect.objectContaining({ payment_id: id, refunds_changed: 1 })]);
    expect(await totals(id)).toEqual({ amount_refunded: 500, refund_reserved: 0 });
    expect((await refundRows(id)).map((row) => row.status)).toEqual(['succeeded', 'succeeded']);
  });

  it('a refund of ours the provider answers pending holds its amount until the next sweep reads it succeeded (charge.refund.updated)', async () => {
    const { id, intent } = await paid();
    bed.fake.resources.refundStatus = 'pending';
    let refund: Record<string, unknown>;
    try {
      const res = await request(t().http).post(`${t().base}/administration/payments/${id}/refunds`).set('Authorization', t().admin.auth).send({ amount: 400 });
      expect(res.status).toBe(201);
      refund = res.body.refund as Record<string, unknown>;
    } finally {
      bed.fake.resources.refundStatus = 'succeeded';
    }
    expect(refund).toMatchObject({ status: 'pending', amount: 400, source: 'api' });
    expect(await totals(id)).toEqual({ amount_refunded: 0, refund_reserved: 400 });
    // Still pending: a sweep changes nothing and sends no email.
    expect((await sweep()).aftermath.filter((change) => change.payment_id === id)).toEqual([]);
    expect(await totals(id)).toEqual({ amount_refunded: 0, refund_reserved: 400 });
    const [made] = bed.fake.resources.refundsOf(intent);
    bed.fake.moneyAfter.setRefundStatus(made.id as string, 'succeeded');
    expect((await sweep()).aftermath.filter((change) => change.payment_id === id)).toEqual([expect.objectContaining({ refunds_changed: 1 })]);
    expect(await totals(id)).toEqual({ amount_refunded: 400, refund_reserved: 0 });
    expect(await refundRows(id)).toEqual([expect.objectContaining({ id: refund.id, provider_refund_id: made.id, status: 'succeeded', source: 'api' })]);
    const emails = await t().dataSource.query(`SELECT item_key FROM ${t().config.tablePrefix}checkout_outbox WHERE topic = 'refund_emails' AND item_key = ?`, [`refund-${String(refund.id)}`]);
    expect(emails).toHaveLength(1);
  });

  it('a refund that succeeded and later failed at the provider gives its amount back, once, with its failure code', async () => {
    const { id, intent } = await paid();
    const made = bed.fake.moneyAfter.dashboardRefund(intent, { amount: 400 });
    expect(await reconcileOne(id)).toMatchObject({ outcome: 'moved' });
    expect(await totals(id)).toEqual({ amount_refunded: 400, refund_reserved: 0 });
    bed.fake.moneyAfter.setRefundStatus(made.id as string, 'failed', 'expired_or_canceled_card');
    expect((await sweep()).aftermath.filter((change) => change.payment_id === id)).toEqual([expect.objectContaining({ refunds_changed: 1 })]);
    expect(await totals(id)).toEqual({ amount_refunded: 0, refund_reserved: 0 });
    expect(await refundRows(id)).toEqual([expect.objectContaining({ provider_refund_id: made.id, status: 'failed', failure_code: 'expired_or_canceled_card' })]);
    // Read again: nothing more is given back.
    expect(await reconcileOne(id)).toMatchObject({ outcome: 'unchanged' });
    expect(await totals(id)).toEqual({ amount_refunded: 0, refund_reserved: 0 });
  });

  it('repairs a refund of ours whose commit was lost: matched by our id in its metadata, neither lost nor counted twice', async () => {
    const { id, intent } = await paid();
    // Our refund reserved and sent, the provider's answer never stored (a crash before the commit).
    const now = new Date();
    await t().dataSource.getRepository(RefundEntity).insert({
      paymentId: id, gateway: 'gateway_a', mode: 'test', amount: 250, currency: 'USD', status: 'pending', reason: null, note: null, source: 'console', providerRefundId: null,
      applicationFeeRefunded: null, createdBy: t().admin.id, failureCode: null, failureMessage: null, rowNonce: 'nonce-crash-repair-0000000000000000000000', createdAt: now, updatedAt: now,
    });
    const [ours] = await refundRows(id);
    await t().dataSource.query(`UPDATE ${t().config.tablePrefix}checkout_payments SET refund_reserved = 250 WHERE id = ?`, [id]);
    const atProvider = bed.fake.moneyAfter.dashboardRefund(intent, { amount: 250, metadata: { checkout_installation_id: installationIdOf(t()), checkout_refund_id: String(ours.id) } });
    expect(await reconcileOne(id)).toMatchObject({ outcome: 'moved' });
    expect(await refundRows(id)).toEqual([expect.objectContaining({ id: ours.id, status: 'succeeded', provider_refund_id: atProvider.id, source: 'console' })]);
    expect(await totals(id)).toEqual({ amount_refunded: 250, refund_reserved: 0 });
    expect((await sweep()).aftermath.filter((change) => change.payment_id === id)).toEqual([]);
    expect(await totals(id)).toEqual({ amount_refunded: 250, refund_reserved: 0 });
  });

  it('past its bound, a sweep leaves the older part of the window to the next runs and moves its cursor only once all was read', async () => {
    const payments = [await paid(), await paid(), await paid()];
    for (const payment of payments) bed.fake.moneyAfter.openDispute(payment.intent, { amount: 100 });
    const cursor = async () => JSON.parse((await t().dataSource.query(`SELECT option_value FROM ${t().config.tablePrefix}options WHERE option_name = ?`, [gatewayAOption.aftermathCursor('test')]))[0].option_value as string);
    const limits = { ...AFTERMATH_LIMITS };
    try {
      Object.assign(AFTERMATH_LIMITS, { pageSize: 2, maxPages: 1 });
      const applied = new Set<number>();
      let runs = 0;
      do {
        for (const change of (await sweep()).aftermath) applied.add(change.payment_id);
        runs += 1;
      } while ((await cursor()).resumeAfter !== null && runs < 50);
      // Six events (three opened, three funds withdrawn), two a run, after the earlier tests' events the 5-minute overlap reads again.
      expect(runs).toBeGreaterThan(1);
      expect([...applied].sort()).toEqual(payments.map((payment) => payment.id).sort());
      const done = await cursor();
      expect(done.resumeAfter).toBeNull();
      expect((await sweep()).aftermath).toEqual([]);
      expect((await cursor()).after).toBe(done.after);
    } finally {
      Object.assign(AFTERMATH_LIMITS, limits);
    }
    for (const payment of payments) expect(await disputeRows(payment.id)).toEqual([expect.objectContaining({ status: 'needs_response', amount: 100 })]);
  });

  it('leaves alone what belongs to no payment of this installation', async () => {
    // An intent made at the provider by someone else (no payment here holds it).
    const stranger = await (await gatewayClient(t())).paymentIntents.create({ amount: 800, currency: 'usd', payment_method: 'pm_card_visa', confirm: true, allowed_payment_method_types: ['card'] });
    const before: Array<{ n: number | string }> = await t().dataSource.query(`SELECT COUNT(*) AS n FROM ${t().config.tablePrefix}checkout_payment_disputes`);
    const dispute = bed.fake.moneyAfter.openDispute(stranger.id);
    bed.fake.moneyAfter.dashboardRefund(stranger.id, { amount: 100 });
    const refundsBefore: Array<{ n: number | string }> = await t().dataSource.query(`SELECT COUNT(*) AS n FROM ${t().config.tablePrefix}checkout_refunds`);
    const report = await sweep();
    expect(report.stoppedBy).toBeNull();
    expect(report.aftermath).toEqual([]);
    const after: Array<{ n: number | string }> = await t().dataSource.query(`SELECT COUNT(*) AS n FROM ${t().config.tablePrefix}checkout_payment_disputes`);
    expect(Number(after[0].n)).toBe(Number(before[0].n));
    const refundsAfter: Array<{ n: number | string }> = await t().dataSource.query(`SELECT COUNT(*) AS n FROM ${t().config.tablePrefix}checkout_refunds`);
    expect(Number(refundsAfter[0].n)).toBe(Number(refundsBefore[0].n));
    expect((await dashboard()).some((entry) => String(entry.message).includes(dispute.id as string))).toBe(false);
  });
});
