import request from 'supertest';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { parseReconcileArguments, runReconcileCommand } from '../../src/cli-reconcile.js';
import { loadConfig } from '../../src/config/index.js';
import { buildDataSourceOptions } from '../../src/database/index.js';
import { Clock } from '../../src/common/clock/index.js';
import type { PaymentForm } from '../../src/modules/forms/index.js';
import { gatewayAOption } from '../../src/modules/gateway-a/index.js';
import { GatewayRegistry, GatewayStateService } from '../../src/modules/gateways/index.js';
import { databasePreflight, DoctorService, RECONCILE_CURSOR_OPTION, RECONCILE_PAGE, ReconciliationService, ReconciliationTask } from '../../src/modules/operations/index.js';
import { PaymentLedgerService, PaymentQueriesService, type PaymentRecord } from '../../src/modules/payments/index.js';
import { OptionsService } from '../../src/modules/settings/index.js';
import { TaskLeaseRepository } from '../../src/modules/tasks/index.js';
import { connectThroughProxy, type GatewayATestBed, startGatewayATestBed } from '../support/gateway-a.js';
import { createIntent, createRecord, gatewayClient } from '../support/gateway-a-checkout.js';
import { expectWpError } from '../support/http.js';
import { createPaymentForm } from '../support/payment-fixtures.js';
import { advanceClock, logEvents, paymentRow } from '../support/app-state.js';

const MINUTES = 60_000;

describe('operations: reconciliation, doctor and slow providers', () => {
  let bed: GatewayATestBed;
  let form: PaymentForm;
  let subscriptionForm: PaymentForm;
  const t = () => bed.t;
  const reconcile = (options: { since?: Date } = {}) => t().app.get(ReconciliationService).runOnce({ pauseMs: 0, ...options });

  beforeAll(async () => {
    bed = await startGatewayATestBed({ RATE_LIMIT_NEW_PAYMENT: '10000', RATE_LIMIT_PUBLIC_PAYMENT: '10000', RECONCILE_INTERVAL_SECONDS: '0', GATEWAY_TIMEOUT_MS: '400' });
    const landing = await connectThroughProxy(bed, 'test');
    expect(landing.searchParams.get('gateway_a_webhook')).toBe('verified');
    await t().app.get(GatewayStateService).setActiveMethods('gateway_a', ['ccard', 'sepa']);
    form = await createPaymentForm(t());
    subscriptionForm = await createPaymentForm(t(), { plans: [{ title: 'Monthly', prices: [{ amount: 999, currency: 'EUR', frequency: 'm_1', setup_amount: 500 }] }] });
  });
  afterAll(() => bed.close());
  afterEach(() => {
    jest.restoreAllMocks();
    bed.fake.clearFailures();
    bed.fake.latencyMs = 0;
  });

  /** A one-time record whose intent the payer paid at the gateway, with no webhook delivered. */
  const paidWithoutWebhook = async (email: string) => {
    const record = await createRecord(t(), form, { email_address: email });
    const intent = await createIntent(t(), record);
    await (await gatewayClient(t())).paymentIntents.confirm(intent.body.intent_id, { payment_method: 'pm_card_visa' });
    return { record, id: record.sync.payment_id, intentId: intent.body.intent_id as string };
  };

  /** A payments row written straight into the table (the sweep's queries at their edges, without the checkout path). */
  interface SweepRow {
    status: string;
    /** Creation time, ms */
    created: number;
    /** Whether the sweep must examine it */
    waiting: boolean;
    /** No provider object yet */
    noRef?: boolean;
    /** Last changed then (default: a minute after its creation) */
    touched?: number;
    gateway?: string;
    captureRef?: boolean;
  }
  let sweepRowRef = 0;
  const datetime = (ms: number) => new Date(ms).toISOString().replace('T', ' ').replace('Z', '');
  /** Written in a shuffled order, so ids do not follow creation times (as between Galera servers); the ids come back in `rows`' order. */
  const insertSweepRows = async (rows: SweepRow[]): Promise<number[]> => {
    const ids: number[] = new Array<number>(rows.length);
    const order = rows.map((_, index) => index).sort((a, b) => ((a * 37) % 101) - ((b * 37) % 101) || b - a);
    for (const index of order) {
      const row = rows[index];
      const ref = ++sweepRowRef;
      const gateway = row.gateway ?? 'gateway_a';
      await t().dataSource.query(
        `INSERT INTO ${t().config.tablePrefix}checkout_payments (form_id, gateway, payment_method, mode, status, amount, currency, frequency, custom_fields, secret_nonce, provider_payment_ref, provider_capture_ref, amount_received, amount_refunded, refund_reserved, created_at, updated_at) VALUES (?, ?, ?, 'test', ?, 1000, 'USD', 'one-time', '{}', ?, ?, ?, ?, 0, 0, ?, ?)`,
        [
          form.id, gateway, gateway === 'gateway_b' ? 'standard_checkout' : 'ccard', row.status, `sweep${String(ref).padStart(38, '0')}`,
          row.noRef ? null : `pi_sweep${ref}`, row.captureRef ? `CAPSWEEP${ref}` : null, row.status === 'completed' ? 1000 : null,
          datetime(row.created), datetime(row.touched ?? row.created + MINUTES),
        ],
      );
      const [{ id }] = await t().dataSource.query(`SELECT id FROM ${t().config.tablePrefix}checkout_payments WHERE secret_nonce = ?`, [`sweep${String(ref).padStart(38, '0')}`]);
      ids[index] = Number(id);
    }
    return ids;
  };
  /** Out of every later test's way (the doctor's waiting check, the other sweeps). */
  const cancelSweepRows = (ids: number[]) => t().dataSource.query(`UPDATE ${t().config.tablePrefix}checkout_payments SET status = 'canceled' WHERE id IN (${ids.map(() => '?').join(', ')})`, ids);

  describe('the reconciliation sweep', () => {
    it('completes a paid payment whose webhook never arrived, as the webhook would (log source reconcile, emails once), and only once', async () => {
      const { id } = await paidWithoutWebhook('lost-webhook@example.test');
      expect(await paymentRow(t(), id)).toMatchObject({ status: 'pending' });

      // Too recent: the webhook may still be on its way.
      expect((await reconcile()).changes.filter((change) => change.payment_id === id)).toEqual([]);
      expect(await paymentRow(t(), id)).toMatchObject({ status: 'pending' });

      advanceClock(t(), 6 * MINUTES);
      const report = await reconcile();
      expect(report.changes).toContainEqual(expect.objectContaining({ payment_id: id, gateway: 'gateway_a', outcome: 'moved', from: 'pending', to: 'completed' }));
      expect(await paymentRow(t(), id)).toMatchObject({ status: 'completed', amount_received: 1000 });
      const [statusLine] = await t().dataSource.query(
        `SELECT context FROM ${t().config.tablePrefix}checkout_log WHERE payment_id = ? AND event = 'status_changed' ORDER BY id DESC LIMIT 1`,
        [id],
      );
      expect(JSON.parse(statusLine.context)).toMatchObject({ from: 'pending', to: 'completed', source: 'reconcile' });

      expect((await reconcile()).changes.filter((change) => change.payment_id === id)).toEqual([]);
      await t().app.get(PaymentLedgerService).transition(id, 'completed', { source: 'test' });
      const { PaymentCompletionEmails } = await import('../../src/modules/payments/index.js');
      await t().app.get(PaymentCompletionEmails).settled();
      expect((await logEvents(t(), id)).filter((event) => event === 'emails_sent')).toHaveLength(1);
    });

    it('moves a payment whose intent is processing at the gateway to processing', async () => {
      const record = await createRecord(t(), form, { email_address: 'processing@example.test' });
      const intent = await createIntent(t(), record);
      bed.fake.resources.setIntentStatus(intent.body.intent_id, 'processing');
      advanceClock(t(), 6 * MINUTES);
      await reconcile();
      expect(await paymentRow(t(), record.sync.payment_id)).toMatchObject({ status: 'processing' });
    });

    it('leaves a payment whose intent disagrees with it (logged mismatch), and one still waiting for the payer', async () => {
      const { id, intentId } = await paidWithoutWebhook('tampered@example.test');
      (bed.fake.resources.get(intentId) as Record<string, unknown>).amount = 1;
      const waiting = await createRecord(t(), form, { email_address: 'still-typing@example.test' });
      await createIntent(t(), waiting);
      advanceClock(t(), 6 * MINUTES);
      const report = await reconcile();
      expect(report.changes).toContainEqual(expect.objectContaining({ payment_id: id, outcome: 'mismatch' }));
      expect(report.changes.map((change) => change.payment_id)).not.toContain(waiting.sync.payment_id);
      expect(await paymentRow(t(), id)).toMatchObject({ status: 'pending', amount_received: null });
      expect(await logEvents(t(), id)).toContain('reconcile_mismatch');
      expect(await paymentRow(t(), waiting.sync.payment_id)).toMatchObject({ status: 'pending' });
    });

    it('creates the subscription of a confirmed setup and completes it when its first invoice is paid', async () => {
      const record = await createRecord(t(), subscriptionForm, { email_address: 'subscriber@example.test' });
      const setup = await createIntent(t(), record);
      await (await gatewayClient(t())).setupIntents.confirm(setup.body.intent_id, { payment_method: 'pm_card_visa' });
      advanceClock(t(), 6 * MINUTES);
      await reconcile();
      const row = await paymentRow(t(), record.sync.payment_id);
      expect(row).toMatchObject({ status: 'completed', provider_subscription_ref: expect.stringMatching(/^sub_/) });
      expect(Number(row.amount_received)).toBe(1499);
    });

    it('ends a pass before its next record once the instance shuts down (shouldStop), and the next pass does the rest', async () => {
      // Only these two: records of earlier tests are left out by their creation time.
      const since = t().app.get(Clock).now();
      const first = await paidWithoutWebhook('stop-first@example.test');
      const second = await paidWithoutWebhook('stop-second@example.test');
      advanceClock(t(), 6 * MINUTES);
      let asked = 0;
      const stopped = await t().app.get(ReconciliationService).runOnce({ since, pauseMs: 0, shouldStop: () => asked++ >= 1 });
      expect(stopped).toMatchObject({ examined: 1, changes: [expect.objectContaining({ outcome: 'moved', to: 'completed' })] });
      const statuses = async () => [(await paymentRow(t(), first.id)).status, (await paymentRow(t(), second.id)).status].sort();
      expect(await statuses()).toEqual(['completed', 'pending']);
      expect((await reconcile({ since })).examined).toBe(1);
      expect(await statuses()).toEqual(['completed', 'completed']);
    });

    it('pages the window by creation time: every waiting payment of it is examined once, in order, past the first page and from its first instant on; none before it', async () => {
      const now = t().app.get(Clock).now().getTime();
      // The window of this pass starts 10 days back; the rows below are older than every other test's.
      const since = new Date(now - 10 * 24 * 60 * MINUTES);
      const rows: SweepRow[] = [
        // Just before the window: left out. At its first instant: examined.
        { status: 'pending', created: since.getTime() - 1, waiting: false },
        { status: 'pending', created: since.getTime(), waiting: true },
      ];
      // More than two pages of waiting payments, both statuses, seven to a creation time (so page
      // boundaries fall inside a run of equal times), with rows that are not waiting between them.
      for (let n = 0; n < 2 * RECONCILE_PAGE + 20; n++) {
        const created = since.getTime() + 1000 + Math.floor(n / 7) * 1000;
        rows.push({ status: n % 4 === 3 ? 'processing' : 'pending', created, waiting: true });
        if (n % 5 === 0) rows.push({ status: 'completed', created, waiting: false });
        if (n % 6 === 0) rows.push({ status: 'pending', created, waiting: false, noRef: true });
        if (n % 9 === 0) rows.push({ status: 'processing', created, waiting: false, touched: now - MINUTES });
      }
      const ids = await insertSweepRows(rows);
      const waiting = rows.flatMap((row, index) => (row.waiting ? [{ id: ids[index], created: row.created }] : [])).sort((a, b) => a.created - b.created || a.id - b.id);
      const seen: number[] = [];
      const reconciler = t().app.get(GatewayRegistry).get('gateway_a').reconciler!;
      jest.spyOn(reconciler, 'reconcile').mockImplementation(async (id) => {
        seen.push(id);
        return { outcome: 'unchanged', from: 'pending', to: 'pending' };
      });
      try {
        const report = await t().app.get(ReconciliationService).runOnce({ since, pauseMs: 0, maxRecords: waiting.length });
        expect(report.examined).toBe(waiting.length);
        expect(seen).toEqual(waiting.map((row) => row.id));
      } finally {
        await cancelSweepRows(ids);
      }
    });

    it('a pass bounded by its maximum leaves a cursor: the next one goes on after it, and at the window\'s end starts over, so payments still waiting cannot hold back newer ones', async () => {
      const now = t().app.get(Clock).now().getTime();
      // Older than every other test's records, inside the default 30-day window.
      const rows: SweepRow[] = [0, 1, 2].map((n) => ({ status: 'pending', created: now - 20 * 24 * 60 * MINUTES + n * 1000, waiting: true }));
      const ids = await insertSweepRows(rows);
      const options = t().app.get(OptionsService);
      let seen: number[] = [];
      const reconciler = t().app.get(GatewayRegistry).get('gateway_a').reconciler!;
      jest.spyOn(reconciler, 'reconcile').mockImplementation(async (id) => {
        seen.push(id);
        return { outcome: 'unchanged', from: 'pending', to: 'pending' };
      });
      const pass = async () => {
        seen = [];
        await t().app.get(ReconciliationService).runOnce({ pauseMs: 0, maxRecords: 2 });
        return seen;
      };
      try {
        // Still waiting after their read: without the cursor every pass would read these two again.
        expect(await pass()).toEqual([ids[0], ids[1]]);
        expect(await options.get(RECONCILE_CURSOR_OPTION, null)).toEqual({ created_at: new Date(rows[1].created).toISOString(), id: ids[1] });
        const next = await pass();
        expect(next[0]).toBe(ids[2]);
        // Round the window (the other tests' waiting payments are newer) and back to the first.
        const round = [...next];
        for (let run = 0; run < 20 && !round.slice(1).includes(ids[0]); run++) round.push(...(await pass()));
        const back = round.indexOf(ids[0]);
        expect(back).toBeGreaterThan(0);
        // Each waiting payment once per round.
        expect(new Set(round.slice(0, back)).size).toBe(back);
        // A pass that walks the whole window leaves no cursor.
        await t().app.get(ReconciliationService).runOnce({ pauseMs: 0 });
        expect(await options.get(RECONCILE_CURSOR_OPTION, 'unset')).toBeNull();
      } finally {
        await cancelSweepRows(ids);
        await options.set(RECONCILE_CURSOR_OPTION, null);
      }
    });

    it("gateway B's refund sweep pages its window's captured payments by creation time with a cursor, from the window's first instant on", async () => {
      const now = t().app.get(Clock).now().getTime();
      const since = new Date(now - 20 * 24 * 60 * MINUTES);
      const rows: SweepRow[] = [
        { status: 'completed', created: since.getTime() - 1, waiting: false, gateway: 'gateway_b', captureRef: true },
        { status: 'completed', created: since.getTime(), waiting: true, gateway: 'gateway_b', captureRef: true },
      ];
      for (let n = 0; n < 25; n++) {
        const created = since.getTime() + 1000 + Math.floor(n / 4) * 1000;
        rows.push({ status: 'completed', created, waiting: true, gateway: 'gateway_b', captureRef: true });
        if (n % 3 === 0) rows.push({ status: 'completed', created, waiting: false, gateway: 'gateway_a', captureRef: true });
        if (n % 4 === 0) rows.push({ status: 'completed', created, waiting: false, gateway: 'gateway_b' });
        if (n % 5 === 0) rows.push({ status: 'refunded', created, waiting: false, gateway: 'gateway_b', captureRef: true });
      }
      const ids = await insertSweepRows(rows);
      try {
        const expected = rows.flatMap((row, index) => (row.waiting ? [{ id: ids[index], created: row.created }] : [])).sort((a, b) => a.created - b.created || a.id - b.id);
        const queries = t().app.get(PaymentQueriesService);
        const read: PaymentRecord[] = [];
        let after: { createdAt: Date; id: number } | null = null;
        for (;;) {
          const page: PaymentRecord[] = await queries.findCaptured({ gateway: 'gateway_b', since, after, limit: 3 });
          read.push(...page);
          if (page.length < 3) break;
          const last = page[page.length - 1];
          after = { createdAt: new Date(last.created_at), id: last.id };
        }
        // Other tests' captured payments are newer than these: the ones of this test come first, in order.
        expect(read.slice(0, expected.length).map((payment) => payment.id)).toEqual(expected.map((row) => row.id));
        expect(read.map((payment) => payment.id)).not.toContain(ids[0]);
      } finally {
        await cancelSweepRows(ids);
      }
    });

    it('stops at the first provider failure and backs off; the record is left as it was', async () => {
      const { id, intentId } = await paidWithoutWebhook('provider-down@example.test');
      bed.fake.fail({ method: 'GET', path: `/v1/payment_intents/${intentId}`, status: 500, times: 10 });
      advanceClock(t(), 6 * MINUTES);
      const report = await reconcile();
      expect(report.stoppedBy).toBe('gateway_a: checkout_gateway_error');
      expect(await paymentRow(t(), id)).toMatchObject({ status: 'pending' });
      const task = t().app.get(ReconciliationTask);
      const first = task.nextDelayMs(report);
      const second = task.nextDelayMs(report);
      expect(second).toBeGreaterThan(first);
      expect(task.nextDelayMs({ examined: 1, changes: [], aftermath: [], stoppedBy: null })).toBeLessThan(first);
    });

    it('runs on one instance at a time (the task lease)', async () => {
      const leases = t().app.get(TaskLeaseRepository);
      expect(await leases.tryAcquire('reconcile_waiting_payments', 'another-instance', new Date(), 60_000)).toBe(true);
      try {
        expect(await t().app.get(ReconciliationTask).runLeased()).toEqual({ ran: false, reason: 'busy' });
      } finally {
        await leases.release('reconcile_waiting_payments', 'another-instance');
      }
      expect((await t().app.get(ReconciliationTask).runLeased()).ran).toBe(true);
    });
  });

  describe('npm run cli -- reconcile', () => {
    const cli = async (args: { payment?: string; since?: string; minAge?: string }) => {
      const out: string[] = [];
      const err: string[] = [];
      const code = await runReconcileCommand(t().app, parseReconcileArguments(args), { out: (line) => out.push(line), err: (line) => err.push(line) });
      return { code, out, err };
    };
    const statusLog = async (id: number) =>
      (
        await t().dataSource.query(`SELECT context FROM ${t().config.tablePrefix}checkout_log WHERE payment_id = ? AND event = 'status_changed' ORDER BY id`, [id])
      ).map((row: { context: string }) => JSON.parse(row.context));

    it('--payment settles that payment at once, however recent, as the webhook would (log source reconcile), and only once', async () => {
      const { id } = await paidWithoutWebhook('operator-knows@example.test');
      // Seconds old: the sweep leaves it alone.
      expect((await reconcile()).changes.map((change) => change.payment_id)).not.toContain(id);

      expect(await cli({ payment: String(id) })).toEqual({ code: 0, out: [`payment ${id} (gateway_a): moved pending -> completed (intent succeeded)`], err: [] });
      expect(await paymentRow(t(), id)).toMatchObject({ status: 'completed', amount_received: 1000 });
      expect(await statusLog(id)).toEqual([expect.objectContaining({ from: 'pending', to: 'completed', source: 'reconcile' })]);

      // Once completed, --payment reads back its refunds and disputes instead (none here): nothing moves.
      expect(await cli({ payment: String(id) })).toEqual({ code: 0, out: [`payment ${id} (gateway_a): unchanged completed -> completed (the provider agrees with the ledger)`], err: [] });
      expect(await statusLog(id)).toHaveLength(1);
    });

    it('--payment leaves a payment with nothing to read, names a missing one, and changes nothing when the provider fails', async () => {
      const typing = await createRecord(t(), form, { email_address: 'no-intent-yet@example.test' });
      const noIntent = typing.sync.payment_id;
      expect(await cli({ payment: String(noIntent) })).toEqual({
        code: 0,
        out: [`payment ${noIntent} (gateway_a): skipped (the payer has not reached the provider yet: there is nothing to read)`],
        err: [],
      });
      expect(await paymentRow(t(), noIntent)).toMatchObject({ status: 'pending' });

      expect(await cli({ payment: '999999' })).toEqual({ code: 1, out: [], err: ['No payment 999999.'] });

      const { id, intentId } = await paidWithoutWebhook('operator-provider-down@example.test');
      bed.fake.fail({ method: 'GET', path: `/v1/payment_intents/${intentId}`, status: 500, times: 10 });
      const failed = await cli({ payment: String(id) });
      expect(failed.code).toBe(1);
      expect(failed.err).toEqual([expect.stringContaining(`payment ${id}: the provider did not answer (checkout_gateway_error); nothing changed`)]);
      expect(await paymentRow(t(), id)).toMatchObject({ status: 'pending' });
    });

    it('--min-age replaces the five minutes of the sweep', async () => {
      const { id } = await paidWithoutWebhook('min-age@example.test');
      advanceClock(t(), 1 * MINUTES);
      const standard = await cli({});
      expect(standard.code).toBe(0);
      expect(standard.out.join('\n')).not.toContain(`payment ${id} `);
      expect(await paymentRow(t(), id)).toMatchObject({ status: 'pending' });

      const sooner = await cli({ minAge: '30s' });
      expect(sooner.code).toBe(0);
      expect(sooner.out).toContain(`payment ${id} (gateway_a): moved pending -> completed (intent succeeded)`);
      expect(await paymentRow(t(), id)).toMatchObject({ status: 'completed' });
    });

    it('refuses arguments it cannot use before the application is asked anything', () => {
      expect(() => parseReconcileArguments({ payment: '12', minAge: '1m' })).toThrow('--payment settles one payment whatever its age: it takes neither --since nor --min-age');
      expect(() => parseReconcileArguments({ payment: 'abc' })).toThrow('--payment must be a payment id');
      expect(() => parseReconcileArguments({ minAge: '5 minutes' })).toThrow('--min-age must be an age such as 30s, 10m, 2h or 7d');
    });
  });

  describe('doctor', () => {
    const doctor = () => t().app.get(DoctorService).run();
    const named = async (name: string) => (await doctor()).find((check) => check.name === name);

    it('reports a connected, verified gateway A, the outbox and a test-mode base URL, and never a secret', async () => {
      const checks = await doctor();
      expect(checks).toContainEqual(expect.objectContaining({ name: 'gateway_a test credentials', status: 'ok' }));
      expect(checks).toContainEqual(expect.objectContaining({ name: 'gateway_a test webhook', status: 'ok' }));
      expect(checks).toContainEqual(expect.objectContaining({ name: 'smtp', status: 'warn' }));
      expect(checks).toContainEqual(expect.objectContaining({ name: 'public base url', status: 'warn' }));
      const secretKey = (await t().app.get(OptionsService).getSecret(gatewayAOption.credential('test', 'secret_key')))!;
      expect(JSON.stringify(checks)).not.toContain(secretKey);
      expect(JSON.stringify(checks)).not.toContain('whsec_');
    });

    it('fails when the gateway refuses the stored key, and when live mode runs on a non-public base URL', async () => {
      const options = t().app.get(OptionsService);
      const name = gatewayAOption.credential('test', 'secret_key');
      const original = (await options.getSecret(name))!;
      await options.setSecret(name, 'sk_test_revoked_key_000000000000');
      try {
        expect(await named('gateway_a test credentials')).toMatchObject({ status: 'fail', fix: expect.stringContaining('/payment-gateway/connect') });
      } finally {
        await options.setSecret(name, original);
      }
      const state = t().app.get(GatewayStateService);
      await state.setMode('gateway_a', 'live');
      try {
        expect(await named('public base url')).toMatchObject({ status: 'fail' });
      } finally {
        await state.setMode('gateway_a', 'test');
      }
    });

    it('fails on payments that have waited for their provider for more than a day', async () => {
      const { id } = await paidWithoutWebhook('a-day-late@example.test');
      advanceClock(t(), 25 * 60 * MINUTES);
      const check = await named('waiting payments');
      expect(check).toMatchObject({ status: 'fail', fix: expect.stringContaining('reconcile') });
      expect(check!.message).toContain(String(id));
    });

    it('checks the database before starting the application: pending migrations are a fail with the fix', async () => {
      const file = join(mkdtempSync(join(tmpdir(), 'checkout-doctor-')), 'doctor.sqlite');
      const fileConfig = loadConfig({ DATABASE_URL: `sqlite:${file}` });
      expect(await databasePreflight(fileConfig)).toMatchObject({ name: 'database', status: 'fail', fix: expect.stringContaining('migration:run') });
      // Migrated (as the service does at boot): ok. The app's own database is migrated too when it is a server database.
      const migrated = new DataSource(buildDataSourceOptions(fileConfig));
      await migrated.initialize();
      await migrated.runMigrations();
      await migrated.destroy();
      expect(await databasePreflight(fileConfig)).toMatchObject({ name: 'database', status: 'ok' });
      if (t().config.databaseUrl?.startsWith('mysql')) expect(await databasePreflight(t().config)).toMatchObject({ name: 'database', status: 'ok' });
    });
  });

  describe('a slow or unreachable provider', () => {
    it('answers the payer 503 checkout_gateway_unavailable quickly instead of hanging, and changes nothing', async () => {
      const record = await createRecord(t(), form, { email_address: 'slow-provider@example.test' });
      const before = await paymentRow(t(), record.sync.payment_id);
      bed.fake.latencyMs = 5_000;
      const started = Date.now();
      const res = await createIntent(t(), record);
      const took = Date.now() - started;
      expect(res.status).toBe(503);
      expectWpError(res.body, 'checkout_gateway_unavailable', 503);
      expect(res.headers['retry-after']).toBe('30');
      // GATEWAY_TIMEOUT_MS of this app: two attempts of 400 ms plus the SDK's backoff.
      expect(took).toBeLessThan(4_000);
      expect(await paymentRow(t(), record.sync.payment_id)).toEqual(before);
    });

    it('keeps 502 checkout_gateway_error for a provider that answers with a failure', async () => {
      const record = await createRecord(t(), form, { email_address: 'failing-provider@example.test' });
      bed.fake.fail({ method: 'POST', path: '/v1/payment_intents', status: 400, error: { message: 'no' } });
      const res = await request(t().http).post(`${t().base}/gateway-a/payment-intent-or-setup`).send(record.reference);
      expect(res.status).toBe(502);
      expectWpError(res.body, 'checkout_gateway_error', 502);
    });
  });
});
