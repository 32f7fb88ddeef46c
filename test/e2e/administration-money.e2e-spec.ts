import { randomBytes } from 'node:crypto';
import request from 'supertest';
import { PaymentRepository } from '../../src/modules/payments/payment.repository.js';
import type { PaymentEntity } from '../../src/modules/payments/payment.entity.js';
import { PaymentDisputeEntity } from '../../src/modules/payments/payment-dispute.entity.js';
import { RefundEntity } from '../../src/modules/payments/refunds/refund.entity.js';
import { expectWpError } from '../support/http.js';
import { statementsDuring } from '../support/statements.js';
import { startTestApp, type TestApp, type TestUser } from '../support/test-app.js';

const DAY = 86_400_000;

interface Totals {
  mode: string;
  currency: string;
  payments: number;
  paid: number;
  failed: number;
  gross: number;
  refunded: number;
  application_fees: number;
  lost_disputes: number;
  net: number;
}

/** RFC 4180 records of the export (no quoted field holds a comma or line break in these rows), after its byte-order mark. */
function csvRecords(file: string): Array<Record<string, string>> {
  const [header, ...rows] = file.replace(/^\uFEFF/, '').split('\r\n').filter(Boolean).map((line) => line.split(','));
  return rows.map((cells) => Object.fromEntries(header.map((name, index) => [name, cells[index]])));
}

/**
 * Money on the dashboard (issue 30 item 3): GET /administration/dashboard/money and GET
 * /administration/payments/totals, computed by the database from seeded payments with refunds
 * (succeeded with a fee given back, pending), lost and won disputes, failed and pending payments,
 * in two modes and three currencies; every filter of the list honoured; the net equal to the sum
 * of the CSV export's net column (one definition).
 */
describe('admin money: dashboard figures and the payments list totals', () => {
  let t: TestApp;
  let editor: TestUser;
  const ids: Record<string, number> = {};
  // The dashboard's period as the service computes it: today (UTC) and the 29 days before it.
  const now = new Date();
  const before = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()) + DAY);
  const from = new Date(before.getTime() - 30 * DAY);
  const daysAgo = (days: number, hour = 1) => new Date(before.getTime() - (days + 1) * DAY + hour * 3_600_000);
  const dayOf = (date: Date) => date.toISOString().slice(0, 10);

  const get = (path: string, query: Record<string, string | number> = {}, auth = t.admin.auth) => request(t.http).get(`${t.base}${path}`).query(query).set('Authorization', auth);
  const totals = async (query: Record<string, string | number> = {}): Promise<Totals[]> => {
    const res = await get('/administration/payments/totals', query);
    expect(res.status).toBe(200);
    return res.body.totals;
  };
  const money = async () => {
    const res = await get('/administration/dashboard/money');
    expect(res.status).toBe(200);
    return res.body;
  };
  const group = (mode: string, currency: string, figures: Omit<Totals, 'mode' | 'currency'>): Totals => ({ mode, currency, ...figures });

  beforeAll(async () => {
    t = await startTestApp();
    editor = await t.createUser('editor');
    const repository = t.app.get(PaymentRepository);
    const insert = (name: string, values: Partial<PaymentEntity> & Pick<PaymentEntity, 'gateway' | 'paymentMethod' | 'mode' | 'status' | 'amount' | 'currency'>, at: Date) =>
      t.dataSource.transaction(async (manager) => {
        ids[name] = (await repository.insert(manager, { frequency: 'one-time', secretNonce: randomBytes(32).toString('base64url'), createdAt: at, updatedAt: at, ...values })).id;
      });
    const card = { gateway: 'gateway_a', paymentMethod: 'ccard' };
    const wallet = { gateway: 'gateway_b', paymentMethod: 'standard_checkout' };
    const lostDispute = { status: 'lost', amount: 5000, reason: 'fraudulent', evidence_due_by: null, provider_dispute_id: 'du_money_lost' };
    const wonDispute = { status: 'won', amount: 2500, reason: 'fraudulent', evidence_due_by: null, provider_dispute_id: 'du_money_won' };

    // Live USD: two on the same day (a partial refund that gave back part of the fee, a lost dispute), a won dispute, a failed one with a fee but no money, a pending one, one at the period's first instant, two outside it.
    await insert('l1', { ...card, mode: 'live', status: 'completed', amount: 10000, currency: 'USD', amountReceived: 10000, applicationFeeAmount: 200, amountRefunded: 3000, refundReserved: 1000, emailAddress: 'ada@example.com' }, daysAgo(2, 10));
    await insert('l2', { ...card, mode: 'live', status: 'completed', amount: 5000, currency: 'USD', amountReceived: 5000, applicationFeeAmount: 100, dispute: lostDispute }, daysAgo(2, 11));
    await insert('l3', { ...card, mode: 'live', status: 'completed', amount: 2500, currency: 'USD', amountReceived: 2500, applicationFeeAmount: 50, dispute: wonDispute }, daysAgo(10));
    await insert('l4', { ...card, mode: 'live', status: 'failed', amount: 4000, currency: 'USD', applicationFeeAmount: 80, failureReason: { code: 'card_declined', decline_code: 'insufficient_funds', message: 'Your card has insufficient funds.' } }, daysAgo(1));
    await insert('l5', { ...card, mode: 'live', status: 'pending', amount: 1500, currency: 'USD' }, daysAgo(0, 0));
    // A refund that gave back more fee than the payment carried: the fee kept is 0, never negative (the export's rule).
    await insert('l7', { ...card, mode: 'live', status: 'completed', amount: 1000, currency: 'USD', amountReceived: 1000, applicationFeeAmount: 10, amountRefunded: 1000 }, daysAgo(20));
    await insert('l6', { ...card, mode: 'live', status: 'completed', amount: 100, currency: 'USD', amountReceived: 100 }, from);
    await insert('lOld', { ...card, mode: 'live', status: 'completed', amount: 9999, currency: 'USD', amountReceived: 9999 }, new Date(from.getTime() - 1));
    await insert('lNext', { ...card, mode: 'live', status: 'completed', amount: 7777, currency: 'USD', amountReceived: 7777 }, before);
    // Live EUR: refunded in full.
    await insert('e1', { ...wallet, mode: 'live', status: 'completed', amount: 2000, currency: 'EUR', amountReceived: 2000, amountRefunded: 2000 }, daysAgo(5));
    // Test USD and JPY.
    await insert('t1', { ...card, mode: 'test', status: 'completed', amount: 1000, currency: 'USD', amountReceived: 1000, applicationFeeAmount: 20 }, daysAgo(0, 0.5));
    await insert('t2', { ...card, mode: 'test', status: 'failed', amount: 1000, currency: 'USD' }, daysAgo(0, 0.25));
    await insert('t3', { ...wallet, mode: 'test', status: 'completed', amount: 500, currency: 'JPY', amountReceived: 500 }, daysAgo(3));

    const at = daysAgo(1, 5);
    const refund = { gateway: 'gateway_a', mode: 'live', currency: 'USD', reason: null, note: null, source: 'provider' as const, createdBy: null, failureCode: null, failureMessage: null, createdAt: at, updatedAt: at };
    const refunds = t.dataSource.getRepository(RefundEntity);
    await refunds.insert({ ...refund, paymentId: ids.l1, amount: 3000, status: 'succeeded', providerRefundId: 're_money_1', applicationFeeRefunded: 60, rowNonce: 'm'.repeat(42) + '1' });
    // Pending and failed refunds count for nothing (nor their fee).
    await refunds.insert({ ...refund, paymentId: ids.l1, amount: 1000, status: 'pending', providerRefundId: 're_money_2', applicationFeeRefunded: 20, rowNonce: 'm'.repeat(42) + '2' });
    await refunds.insert({ ...refund, paymentId: ids.l1, amount: 500, status: 'failed', providerRefundId: 're_money_3', applicationFeeRefunded: 10, rowNonce: 'm'.repeat(42) + '3' });
    await refunds.insert({ ...refund, paymentId: ids.l7, amount: 1000, status: 'succeeded', providerRefundId: 're_money_5', applicationFeeRefunded: 30, rowNonce: 'm'.repeat(42) + '5' });
    await refunds.insert({ ...refund, gateway: 'gateway_b', currency: 'EUR', paymentId: ids.e1, amount: 2000, status: 'succeeded', providerRefundId: 're_money_4', applicationFeeRefunded: null, rowNonce: 'm'.repeat(42) + '4' });
    const dispute = { gateway: 'gateway_a', currency: 'USD', reason: 'fraudulent', evidenceDueBy: null, openedAt: at, updatedAt: at };
    const disputes = t.dataSource.getRepository(PaymentDisputeEntity);
    await disputes.insert({ ...dispute, paymentId: ids.l2, providerDisputeId: 'du_money_lost', status: 'lost', amount: 5000, dashboardUrl: 'https://dashboard.stripe.com/disputes/du_money_lost' });
    await disputes.insert({ ...dispute, paymentId: ids.l3, providerDisputeId: 'du_money_won', status: 'won', amount: 2500, dashboardUrl: 'https://dashboard.stripe.com/disputes/du_money_won' });
  });
  afterAll(() => t.close());

  // Hand-computed: net = received − succeeded refunds − (fees − fees refunded) − lost disputes.
  const LIVE_USD = group('live', 'USD', { payments: 7, paid: 5, failed: 1, gross: 18600, refunded: 4000, application_fees: 290, lost_disputes: 5000, net: 9310 });
  const LIVE_EUR = group('live', 'EUR', { payments: 1, paid: 1, failed: 0, gross: 2000, refunded: 2000, application_fees: 0, lost_disputes: 0, net: 0 });
  const TEST_JPY = group('test', 'JPY', { payments: 1, paid: 1, failed: 0, gross: 500, refunded: 0, application_fees: 0, lost_disputes: 0, net: 500 });
  const TEST_USD = group('test', 'USD', { payments: 2, paid: 1, failed: 1, gross: 1000, refunded: 0, application_fees: 20, lost_disputes: 0, net: 980 });

  describe.each(['/administration/dashboard/money', '/administration/payments/totals'])('GET %s', (path) => {
    it('needs credentials (401) and the checkout_settings capability (403)', async () => {
      const anonymous = await request(t.http).get(`${t.base}${path}`);
      expect(anonymous.status).toBe(401);
      expectWpError(anonymous.body, 'rest_not_logged_in', 401);
      const forbidden = await get(path, {}, editor.auth);
      expect(forbidden.status).toBe(403);
      expectWpError(forbidden.body, 'rest_forbidden', 403);
    });
  });

  describe('GET /administration/dashboard/money', () => {
    it('sums the last 30 UTC days per mode and currency, live first: gross, refunded, fees kept, lost disputes, net', async () => {
      const body = await money();
      expect(Object.keys(body).sort()).toEqual(['before', 'daily', 'days', 'from', 'latest_failed', 'latest_payments', 'totals']);
      expect(body).toMatchObject({ from: from.toISOString(), before: before.toISOString(), days: 30 });
      // lOld (a millisecond before the period) and lNext (at its end, exclusive) are outside it; l6 at its first instant is in.
      expect(body.totals).toEqual([LIVE_EUR, LIVE_USD, TEST_JPY, TEST_USD]);
    });

    it('gives each UTC day its own figures, oldest first; the days add up to the period', async () => {
      const { daily, totals: period } = await money();
      const day = (date: Date, mode: string, currency: string) => daily.find((entry: Totals & { day: string }) => entry.day === dayOf(date) && entry.mode === mode && entry.currency === currency);
      // l1 and l2 share a day: the refund, the fee given back and the lost dispute land on the day the payments were made.
      expect(day(daysAgo(2), 'live', 'USD')).toEqual({ day: dayOf(daysAgo(2)), ...group('live', 'USD', { payments: 2, paid: 2, failed: 0, gross: 15000, refunded: 3000, application_fees: 240, lost_disputes: 5000, net: 6760 }) });
      expect(day(daysAgo(1), 'live', 'USD')).toEqual({ day: dayOf(daysAgo(1)), ...group('live', 'USD', { payments: 1, paid: 0, failed: 1, gross: 0, refunded: 0, application_fees: 0, lost_disputes: 0, net: 0 }) });
      expect(day(from, 'live', 'USD')).toMatchObject({ day: dayOf(from), payments: 1, gross: 100, net: 100 });
      expect(daily.map((entry: { day: string }) => entry.day)).toEqual([...daily.map((entry: { day: string }) => entry.day)].sort());
      expect(daily.every((entry: { day: string }) => entry.day >= dayOf(from) && entry.day < dayOf(before))).toBe(true);
      for (const total of period as Totals[]) {
        const days = daily.filter((entry: Totals) => entry.mode === total.mode && entry.currency === total.currency);
        for (const key of ['payments', 'paid', 'failed', 'gross', 'refunded', 'application_fees', 'lost_disputes', 'net'] as const) {
          expect({ group: `${total.mode} ${total.currency}`, key, sum: days.reduce((sum: number, entry: Totals) => sum + entry[key], 0) }).toEqual({ group: `${total.mode} ${total.currency}`, key, sum: total[key] });
        }
      }
    });

    it('lists the latest completed payments and the latest failed ones of the period, newest first, as the list shows them', async () => {
      const body = await money();
      expect(body.latest_payments.map((row: { id: number }) => row.id)).toEqual([ids.t1, ids.l2, ids.l1, ids.t3, ids.e1]);
      expect(body.latest_failed.map((row: { id: number }) => row.id)).toEqual([ids.t2, ids.l4]);
      expect(body.latest_failed[1]).toMatchObject({ status: 'failed', amount: 4000, currency: 'USD', mode: 'live', failure_reason: { code: 'card_declined', decline_code: 'insufficient_funds' } });
      const listed = await get('/administration/payments', { status: 'completed', created_from: body.from, created_before: body.before, per_page: 5 });
      expect(body.latest_payments).toEqual(listed.body);
    });

    (process.env.DATABASE_URL?.startsWith('mysql') ? it.skip : it)('SQLite: reads its sums from the ledger index alone, one range of it, no payment row (migration 1764340000000)', async () => {
      const { statements } = await statementsDuring(t.dataSource, money);
      const sums = statements.filter((sql) => sql.includes('ledger_day'));
      expect(sums).toHaveLength(1);
      const table = `${t.dataSource.options.entityPrefix ?? ''}checkout_payments`;
      // The period's two bounds are its only parameters (the refunds' and disputes' subqueries are fixed texts).
      const bounds = [from, before].map((date) => date.toISOString().replace('T', ' ').replace('Z', ''));
      const plan = (await t.dataSource.query(`EXPLAIN QUERY PLAN ${sums[0]}`, bounds)) as Array<{ detail: string }>;
      expect(plan.map((row) => row.detail)).toContain(`SEARCH payment USING COVERING INDEX IDX_${table}_ledger (created_at>? AND created_at<?)`);
    });

    it('each figure is the list totals under the filters the console links it to', async () => {
      const body = await money();
      for (const entry of body.totals as Totals[]) {
        expect(await totals({ mode: entry.mode, currency: entry.currency, created_from: body.from, created_before: body.before })).toEqual([entry]);
      }
    });
  });

  describe('GET /administration/payments/totals', () => {
    it('sums every payment without filters (outside the dashboard period too)', async () => {
      const all = await totals();
      expect(all).toEqual([LIVE_EUR, { ...LIVE_USD, payments: 9, paid: 7, gross: 18600 + 9999 + 7777, net: 9310 + 9999 + 7777 }, TEST_JPY, TEST_USD]);
    });

    it('honours each filter of the list: mode, currency, gateway, status, refunds, disputes, payer search, form, dates', async () => {
      const period = { created_from: from.toISOString(), created_before: before.toISOString() };
      expect(await totals({ ...period, mode: 'live' })).toEqual([LIVE_EUR, LIVE_USD]);
      expect(await totals({ ...period, currency: 'USD' })).toEqual([LIVE_USD, TEST_USD]);
      expect(await totals({ ...period, gateway: 'gateway_b' })).toEqual([LIVE_EUR, TEST_JPY]);
      expect(await totals({ ...period, status: 'failed' })).toEqual([
        group('live', 'USD', { payments: 1, paid: 0, failed: 1, gross: 0, refunded: 0, application_fees: 0, lost_disputes: 0, net: 0 }),
        group('test', 'USD', { payments: 1, paid: 0, failed: 1, gross: 0, refunded: 0, application_fees: 0, lost_disputes: 0, net: 0 }),
      ]);
      expect(await totals({ refunded: 'full' })).toEqual([LIVE_EUR, group('live', 'USD', { payments: 1, paid: 1, failed: 0, gross: 1000, refunded: 1000, application_fees: 0, lost_disputes: 0, net: 0 })]);
      expect(await totals({ refunded: 'partial' })).toEqual([group('live', 'USD', { payments: 1, paid: 1, failed: 0, gross: 10000, refunded: 3000, application_fees: 140, lost_disputes: 0, net: 6860 })]);
      expect(await totals({ refunded: 'any' })).toEqual([LIVE_EUR, group('live', 'USD', { payments: 2, paid: 2, failed: 0, gross: 11000, refunded: 4000, application_fees: 140, lost_disputes: 0, net: 6860 })]);
      expect(await totals({ disputed: 'true' })).toEqual([group('live', 'USD', { payments: 2, paid: 2, failed: 0, gross: 7500, refunded: 0, application_fees: 150, lost_disputes: 5000, net: 2350 })]);
      expect(await totals({ search: 'ADA@example' })).toEqual([group('live', 'USD', { payments: 1, paid: 1, failed: 0, gross: 10000, refunded: 3000, application_fees: 140, lost_disputes: 0, net: 6860 })]);
      expect(await totals({ created_from: dayOf(daysAgo(2)), created_before: dayOf(daysAgo(1)), mode: 'live' })).toEqual([
        group('live', 'USD', { payments: 2, paid: 2, failed: 0, gross: 15000, refunded: 3000, application_fees: 240, lost_disputes: 5000, net: 6760 }),
      ]);
      expect(await totals({ form_id: 999999 })).toEqual([]);
    });

    it('net is the CSV export’s net column, summed per mode and currency, under any filter', async () => {
      for (const query of [{}, { mode: 'live' }, { disputed: 'true' }, { currency: 'USD', status: 'completed' }, { refunded: 'any' }] as Array<Record<string, string>>) {
        const res = await get('/administration/payments/export.csv', query).buffer(true).parse((res, done) => {
          let text = '';
          res.setEncoding('utf8');
          res.on('data', (chunk: string) => (text += chunk));
          res.on('end', () => done(null, text));
        });
        expect(res.status).toBe(200);
        const sums = new Map<string, number>();
        for (const row of csvRecords(res.body as string)) {
          const key = `${row.mode} ${row.currency}`;
          sums.set(key, (sums.get(key) ?? 0) + (row.net === '' ? 0 : Number(row.net)));
        }
        const answered = await totals(query);
        expect(Object.fromEntries(answered.map((entry) => [`${entry.mode} ${entry.currency}`, entry.net]))).toEqual(Object.fromEntries(sums));
      }
    });

    it('the list itself takes the currency filter', async () => {
      const res = await get('/administration/payments', { currency: 'EUR' });
      expect(res.status).toBe(200);
      expect(res.body.map((row: { id: number }) => row.id)).toEqual([ids.e1]);
    });

    it('refuses a bad filter with 400 naming it, as the list does', async () => {
      for (const currency of ['usd', 'US', 'USDX']) {
        const res = await get('/administration/payments/totals', { currency });
        expect(res.status).toBe(400);
        expectWpError(res.body, 'rest_invalid_param', 400);
        expect(Object.keys(res.body.data.params)).toEqual(['currency']);
      }
      // An empty value is a missing one, as everywhere.
      const empty = await get('/administration/payments/totals', { currency: '' });
      expectWpError(empty.body, 'rest_missing_callback_param', 400);
      const reversed = await get('/administration/payments/totals', { created_from: '2026-02-01', created_before: '2026-01-01' });
      expect(reversed.status).toBe(400);
      expect(Object.keys(reversed.body.data.params)).toEqual(['created_before']);
      const page = await get('/administration/payments/totals', { page: 2 });
      expect(page.status).toBe(400);
    });
  });
});
