import { randomBytes } from 'node:crypto';
import request from 'supertest';
import { CSV_BOM, PAYMENT_CSV_HEADER, PAYMENT_EXPORT_LIMITS } from '../../src/modules/administration/payments-csv.js';
import { FormsService } from '../../src/modules/forms/index.js';
import { PaymentLedgerService, PaymentSearchIndex } from '../../src/modules/payments/index.js';
import { PaymentRepository } from '../../src/modules/payments/payment.repository.js';
import type { PaymentEntity } from '../../src/modules/payments/payment.entity.js';
import { PaymentDisputeEntity } from '../../src/modules/payments/payment-dispute.entity.js';
import { RefundEntity } from '../../src/modules/payments/refunds/refund.entity.js';
import { APP_CONFIG, type AppConfig } from '../../src/config/index.js';
import { expectWpError } from '../support/http.js';
import { parseCsv } from '../support/csv.js';
import { connectGateway, formSettings, type SyncAnswer } from '../support/payment-fixtures.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

type Row = Record<string, unknown> & { id: number };

/**
 * The admin console's payments screens (issue 22): GET /administration/payments (filtered, paged),
 * GET /administration/payments/{id} (with log and provider references) and the CSV export.
 */
describe('admin payments: list, one payment, CSV export', () => {
  let t: TestApp;
  const ids: Record<string, number> = {};
  const forms: Record<string, number> = {};

  const get = (path: string, query: Record<string, string | number> = {}, auth = t.admin.auth) =>
    request(t.http).get(`${t.base}/administration/payments${path}`).query(query).set('Authorization', auth);
  const listIds = async (query: Record<string, string | number> = {}) => {
    const res = await get('', query);
    expect(res.status).toBe(200);
    return (res.body as Row[]).map((row) => row.id);
  };
  const exportCsv = (query: Record<string, string | number> = {}) =>
    get('/export.csv', query).buffer(true).parse((res, done) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => done(null, text));
    });

  beforeAll(async () => {
    t = await startTestApp({ RATE_LIMIT_NEW_PAYMENT: '10000', RATE_LIMIT_PUBLIC_PAYMENT: '10000' });
    const formsService = t.app.get(FormsService);
    const create = async (title: string) => (await formsService.create({ title, status: 'publish', authorId: t.admin.id, settings: formSettings() })).id;
    forms.donation = await create('Donation drive');
    forms.shop = await create('Shop, "spring" sale');
    forms.gone = await create('Deleted later');

    // Rows written as the ledger writes them, with chosen creation times: p2 and p3 share theirs (the id breaks the tie).
    const repository = t.app.get(PaymentRepository);
    const insert = (values: Partial<PaymentEntity> & Pick<PaymentEntity, 'gateway' | 'paymentMethod' | 'mode' | 'status' | 'amount' | 'currency'>, at: string) =>
      t.dataSource.transaction(async (manager) =>
        (await repository.insert(manager, { frequency: 'one-time', secretNonce: randomBytes(32).toString('base64url'), createdAt: new Date(at), updatedAt: new Date(at), ...values })).id,
      );
    ids.p1 = await insert(
      {
        formId: forms.donation, gateway: 'gateway_a', paymentMethod: 'ccard', mode: 'test', status: 'completed', amount: 1000, currency: 'USD', emailAddress: 'ada@example.com', firstName: 'Ada', lastName: 'Lovelace',
        amountReceived: 1000, applicationFeeAmount: 20, providerPaymentRef: 'pi_export_1', customFields: JSON.stringify({ company: 'Analytical; Engines=Ltd', size: 'M', gone_field: 'x\\y' }),
        amountRefunded: 300, dispute: { status: 'lost', amount: 100, reason: 'fraudulent', evidence_due_by: null, provider_dispute_id: 'du_export_1' },
      },
      '2026-01-10T10:00:00.000Z',
    );
    // p1's ledger: a succeeded refund of 300 that gave back 6 of the fee, a pending one (not counted), a lost dispute of 100.
    const at = new Date('2026-01-11T00:00:00.000Z');
    const refund = { paymentId: ids.p1, gateway: 'gateway_a', mode: 'test', currency: 'USD', reason: null, note: null, source: 'provider' as const, createdBy: null, failureCode: null, failureMessage: null, createdAt: at, updatedAt: at };
    await t.dataSource.getRepository(RefundEntity).insert({ ...refund, amount: 300, status: 'succeeded', providerRefundId: 're_export_1', applicationFeeRefunded: 6, rowNonce: 'n'.repeat(42) + '1' });
    await t.dataSource.getRepository(RefundEntity).insert({ ...refund, amount: 50, status: 'pending', providerRefundId: 're_export_2', applicationFeeRefunded: 1, rowNonce: 'n'.repeat(42) + '2' });
    await t.dataSource.getRepository(PaymentDisputeEntity).insert({
      paymentId: ids.p1, gateway: 'gateway_a', providerDisputeId: 'du_export_1', status: 'lost', amount: 100, currency: 'USD', reason: 'fraudulent', evidenceDueBy: null,
      dashboardUrl: 'https://dashboard.stripe.com/test/disputes/du_export_1', openedAt: at, updatedAt: at,
    });
    ids.p2 = await insert(
      { formId: forms.donation, gateway: 'gateway_a', paymentMethod: 'ccard', mode: 'live', status: 'pending', amount: 2500, currency: 'USD', emailAddress: 'grace@example.com', firstName: 'Grace', lastName: 'Hopper' },
      '2026-01-15T12:00:00.000Z',
    );
    ids.p3 = await insert(
      {
        formId: forms.shop,
        gateway: 'gateway_b',
        paymentMethod: 'standard_checkout',
        mode: 'test',
        status: 'failed',
        amount: 500,
        currency: 'EUR',
        emailAddress: '=HYPERLINK("http://evil.example","x")@example.com',
        firstName: "=cmd|' /C calc'!A0",
        lastName: 'Smith, "Jr"\r\nline two',
        failureReason: { code: 'INSTRUMENT_DECLINED', decline_code: null, message: 'The instrument presented was declined.' },
      },
      '2026-01-15T12:00:00.000Z',
    );
    ids.p4 = await insert(
      { formId: forms.shop, gateway: 'gateway_b', paymentMethod: 'standard_checkout', mode: 'test', status: 'completed', amount: 700, currency: 'JPY', emailAddress: 'a_b@example.com', firstName: '+Zoë', lastName: '50% off' },
      '2026-02-01T00:00:00.000Z',
    );
    ids.p5 = await insert(
      { formId: forms.gone, gateway: 'gateway_a', paymentMethod: 'ccard', mode: 'live', status: 'completed', amount: 1250, currency: 'KWD', emailAddress: 'axb@example.com', firstName: '@home', lastName: '-minus' },
      '2026-02-03T08:30:00.000Z',
    );
    await request(t.http).delete(`${t.base}/administration/payment-forms/${forms.gone}`).set('Authorization', t.admin.auth).expect(200);
  });
  afterAll(() => t.close());

  const newestFirst = () => [ids.p5, ids.p4, ids.p3, ids.p2, ids.p1];

  describe('GET /administration/payments', () => {
    it('lists every payment newest first (created_at, then id), with the paging headers and the row fields', async () => {
      const res = await get('');
      expect(res.status).toBe(200);
      expect(res.headers['x-wp-total']).toBe('5');
      expect(res.headers['x-wp-totalpages']).toBe('1');
      expect((res.body as Row[]).map((row) => row.id)).toEqual(newestFirst());
      expect((res.body as Row[]).find((row) => row.id === ids.p1)).toEqual({
        id: ids.p1,
        status: 'completed',
        amount: 1000,
        currency: 'USD',
        gateway: 'gateway_a',
        payment_method: 'ccard',
        mode: 'test',
        email_address: 'ada@example.com',
        first_name: 'Ada',
        last_name: 'Lovelace',
        form_id: forms.donation,
        form_title: 'Donation drive',
        parent_payment_id: null,
        failure_reason: null,
        amount_refunded: 300,
        disputed: true,
        created_at: '2026-01-10T10:00:00.000Z',
        updated_at: '2026-01-10T10:00:00.000Z',
      });
      // A failed payment shows the provider's reason in the list.
      expect((res.body as Row[]).find((row) => row.id === ids.p3)).toMatchObject({
        status: 'failed',
        failure_reason: { code: 'INSTRUMENT_DECLINED', decline_code: null, message: 'The instrument presented was declined.' },
      });
      // The form was deleted: its id stays, its title is gone.
      expect((res.body as Row[]).find((row) => row.id === ids.p5)).toMatchObject({ form_id: forms.gone, form_title: null });
      // Never the secret nonce or the client IP.
      expect(JSON.stringify(res.body)).not.toContain('n'.repeat(43));
      expect(Object.keys(res.body[0])).not.toEqual(expect.arrayContaining(['secret_nonce', 'client_ip']));
    });

    it('pages in a stable order: the pages together are the list, once each (ties of created_at broken by id)', async () => {
      const pages: number[] = [];
      for (const page of [1, 2, 3]) {
        const res = await get('', { page, per_page: 2 });
        expect(res.headers['x-wp-total']).toBe('5');
        expect(res.headers['x-wp-totalpages']).toBe('3');
        pages.push(...(res.body as Row[]).map((row) => row.id));
      }
      expect(pages).toEqual(newestFirst());
      expect((await get('', { page: 4, per_page: 2 })).body).toEqual([]);
    });

    it('filters by status, gateway, mode and form, each alone and together', async () => {
      expect(await listIds({ status: 'completed' })).toEqual([ids.p5, ids.p4, ids.p1]);
      expect(await listIds({ gateway: 'gateway_b' })).toEqual([ids.p4, ids.p3]);
      expect(await listIds({ mode: 'live' })).toEqual([ids.p5, ids.p2]);
      expect(await listIds({ form_id: forms.donation })).toEqual([ids.p2, ids.p1]);
      expect(await listIds({ status: 'completed', gateway: 'gateway_a', mode: 'test' })).toEqual([ids.p1]);
      expect(await listIds({ form_id: 999999 })).toEqual([]);
      const res = await get('', { status: 'completed', per_page: 1 });
      expect(res.headers['x-wp-total']).toBe('3');
      expect(res.headers['x-wp-totalpages']).toBe('3');
    });

    it('filters by creation time: created_from inclusive, created_before exclusive; a date alone is midnight UTC; offsets are honoured', async () => {
      expect(await listIds({ created_from: '2026-01-15T12:00:00.000Z' })).toEqual([ids.p5, ids.p4, ids.p3, ids.p2]);
      expect(await listIds({ created_before: '2026-01-15T12:00:00.000Z' })).toEqual([ids.p1]);
      expect(await listIds({ created_from: '2026-01-15', created_before: '2026-02-01' })).toEqual([ids.p3, ids.p2]);
      expect(await listIds({ created_from: '2026-02-01T01:00:00+01:00' })).toEqual([ids.p5, ids.p4]);
      expect(await listIds({ created_from: '2026-01-15T12:00:00.001Z', created_before: '2026-02-01T00:00:00.001Z' })).toEqual([ids.p4]);
    });

    it('searches by the start of a term: the whole email or its beginning, any word of a name, ignoring case and accents (issue 36)', async () => {
      expect(await listIds({ search: 'ADA@EXAMPLE' })).toEqual([ids.p1]);
      expect(await listIds({ search: 'ada@example.com' })).toEqual([ids.p1]);
      expect(await listIds({ search: 'hopper' })).toEqual([ids.p2]);
      expect(await listIds({ search: 'hop' })).toEqual([ids.p2]);
      expect(await listIds({ search: 'grace hop' })).toEqual([ids.p2]);
      expect(await listIds({ search: 'hop grace' })).toEqual([ids.p2]);
      expect(await listIds({ search: '  lovelace  ' })).toEqual([ids.p1]);
      // Accents and case: +Zoë is found as zoe, ZOË and zoë; the `+` is no part of a word.
      expect(await listIds({ search: 'zoe' })).toEqual([ids.p4]);
      expect(await listIds({ search: 'ZOË' })).toEqual([ids.p4]);
      // Every word must match: Grace matches, Lovelace is another payment's.
      expect(await listIds({ search: 'grace lovelace' })).toEqual([]);
      // Not a substring search any more: the middle or end of a term finds nothing.
      expect(await listIds({ search: 'ovelace' })).toEqual([]);
      expect(await listIds({ search: 'example.com' })).toEqual([]);
      expect(await listIds({ search: 'nobody' })).toEqual([]);
      expect(await listIds({ search: '' })).toEqual(newestFirst());
      // Each name's words: "Smith, \"Jr\"" has smith and jr.
      expect(await listIds({ search: 'jr' })).toEqual([ids.p3]);
      expect(await listIds({ search: 'a', status: 'completed', gateway: 'gateway_b' })).toEqual([ids.p4]);
    });

    it('finds a payment by its id, its provider reference and its capture id; a changed field is found by its new value only', async () => {
      expect(await listIds({ search: String(ids.p3) })).toEqual([ids.p3]);
      expect(await listIds({ search: 'pi_export_1' })).toEqual([ids.p1]);
      expect(await listIds({ search: 'PI_EXPORT' })).toEqual([ids.p1]);
      const repository = t.app.get(PaymentRepository);
      await t.dataSource.transaction((manager) => repository.update(manager, ids.p2, { providerCaptureRef: '8MC585209K746392H' }));
      expect(await listIds({ search: '8mc585209k746392h' })).toEqual([ids.p2]);
      await t.dataSource.transaction((manager) => repository.update(manager, ids.p2, { providerCaptureRef: null, emailAddress: 'amazing.grace@example.com' }));
      expect(await listIds({ search: '8MC585209K746392H' })).toEqual([]);
      expect(await listIds({ search: 'amazing' })).toEqual([ids.p2]);
      expect(await listIds({ search: 'grace@' })).toEqual([]);
      // An update of other columns keeps the terms.
      await t.dataSource.transaction((manager) => repository.update(manager, ids.p2, { emailAddress: 'grace@example.com' }));
      await t.dataSource.transaction((manager) => repository.update(manager, ids.p2, { amount: 2500 }));
      expect(await listIds({ search: 'grace@example.com' })).toEqual([ids.p2]);
    });

    it('catches up the terms of payments an older release wrote without them (a rolling deploy): those updated since the given time', async () => {
      // As the previous release writes: the row changed, no terms (here: its terms removed, its email changed in SQL).
      const terms = `${t.dataSource.options.entityPrefix ?? ''}checkout_payment_search_terms`;
      const payments = `${t.dataSource.options.entityPrefix ?? ''}checkout_payments`;
      await t.dataSource.query(`DELETE FROM ${terms} WHERE payment_id = ?`, [ids.p5]);
      const before = new Date(Date.now() - 1000);
      await t.dataSource.query(`UPDATE ${payments} SET email_address = ?, updated_at = ? WHERE id = ?`, ['old.release@example.com', t.dataSource.options.type === 'better-sqlite3' ? new Date().toISOString().replace('T', ' ').replace('Z', '') : new Date(), ids.p5]);
      expect(await listIds({ search: 'old.release' })).toEqual([]);
      expect(await listIds({ search: 'home' })).toEqual([]);
      const written = await t.app.get(PaymentSearchIndex).catchUp(before);
      expect(written).toBe(1);
      expect(await listIds({ search: 'old.release' })).toEqual([ids.p5]);
      expect(await listIds({ search: 'home' })).toEqual([ids.p5]);
      await t.dataSource.transaction((manager) => t.app.get(PaymentRepository).update(manager, ids.p5, { emailAddress: 'axb@example.com' }));
      expect(await listIds({ search: 'axb@' })).toEqual([ids.p5]);
    });

    it('takes the search text literally: % and _ are not wildcards, quotes and backslashes are plain characters', async () => {
      // `a_b` would also match `axb` if `_` were a wildcard.
      expect(await listIds({ search: 'a_b' })).toEqual([ids.p4]);
      // The whole last name "50% off" is a term (a name of several words is one too).
      expect(await listIds({ search: '50%' })).toEqual([ids.p4]);
      expect(await listIds({ search: '%' })).toEqual([]);
      expect(await listIds({ search: '_' })).toEqual([]);
      expect(await listIds({ search: 'a%b' })).toEqual([]);
      expect(await listIds({ search: "' OR '1'='1" })).toEqual([]);
      expect(await listIds({ search: '\\' })).toEqual([]);
      expect(await listIds({ search: '!' })).toEqual([]);
      expect(await listIds({ search: '=hyperlink' })).toEqual([ids.p3]);
    });

    it('pages by keyset: `after` the previous page\'s X-Checkout-Next-Cursor, the pages together are the list, once each', async () => {
      const seen: number[] = [];
      let after: string | undefined;
      for (;;) {
        const res = await get('', after === undefined ? { per_page: 2 } : { per_page: 2, after });
        expect(res.status).toBe(200);
        expect(res.headers['x-wp-total']).toBe('5');
        expect(res.headers['x-checkout-total-estimated']).toBe('false');
        seen.push(...(res.body as Row[]).map((row) => row.id));
        after = res.headers['x-checkout-next-cursor'] as string | undefined;
        if (after === undefined) break;
        expect(after).toMatch(/^[A-Za-z0-9_-]+$/);
      }
      expect(seen).toEqual(newestFirst());
      // The offset pages hand out the same cursor; with a filter the cursor walks the filtered list.
      const second = await get('', { page: 2, per_page: 2 });
      expect((await get('', { per_page: 2, after: second.headers['x-checkout-next-cursor'] as string })).body.map((row: Row) => row.id)).toEqual([ids.p1]);
      const completed = await get('', { status: 'completed', per_page: 1 });
      expect((await get('', { status: 'completed', per_page: 5, after: completed.headers['x-checkout-next-cursor'] as string })).body.map((row: Row) => row.id)).toEqual([ids.p4, ids.p1]);
    });

    it('refuses a forged or damaged cursor, and `after` with a page past 1, with 400 rest_invalid_param', async () => {
      const valid = (await get('', { per_page: 1 })).headers['x-checkout-next-cursor'] as string;
      const forged = [
        'not a cursor',
        'x'.repeat(65),
        Buffer.from('1767225600000').toString('base64url'),
        Buffer.from('1767225600000.0').toString('base64url'),
        Buffer.from('1767225600000.-1').toString('base64url'),
        Buffer.from('1767225600000.2147483648').toString('base64url'),
        Buffer.from('99999999999999999.1').toString('base64url'),
        Buffer.from("1767225600000.1' OR 1=1").toString('base64url'),
        Buffer.from('{"id":1}').toString('base64url'),
        `${valid}A`,
      ];
      for (const after of forged) {
        const res = await get('', { after });
        expect({ after, status: res.status }).toEqual({ after, status: 400 });
        const error = expectWpError(res.body, 'rest_invalid_param', 400);
        expect({ after, params: Object.keys(error.data.params as object) }).toEqual({ after, params: ['after'] });
      }
      const both = await get('', { after: valid, page: 2 });
      expect(Object.keys(expectWpError(both.body, 'rest_invalid_param', 400).data.params as object)).toEqual(['page']);
      expect((await get('', { after: valid, page: 1 })).status).toBe(200);
    });

    it('refuses bad filters with 400 naming the parameter', async () => {
      const cases: Array<[Record<string, string | number>, string]> = [
        [{ status: 'paid' }, 'status'],
        [{ gateway: 'gateway_z' }, 'gateway'],
        [{ mode: 'sandbox' }, 'mode'],
        [{ form_id: 'abc' }, 'form_id'],
        [{ form_id: 0 }, 'form_id'],
        [{ per_page: 101 }, 'per_page'],
        [{ page: 0 }, 'page'],
        [{ search: 'x'.repeat(101) }, 'search'],
        [{ created_from: '2026-01-01T00:00:00' }, 'created_from'],
        [{ created_from: 'yesterday' }, 'created_from'],
        [{ created_before: '2026-02-30' }, 'created_before'],
        [{ created_from: '2026-02-01', created_before: '2026-02-01' }, 'created_before'],
        [{ created_from: '2026-02-02', created_before: '2026-02-01' }, 'created_before'],
        [{ sort: 'amount' }, 'sort'],
      ];
      for (const [query, param] of cases) {
        const res = await get('', query);
        expect({ query, status: res.status }).toEqual({ query, status: 400 });
        const error = expectWpError(res.body, 'rest_invalid_param', 400);
        expect({ query, params: Object.keys(error.data.params as object) }).toEqual({ query, params: [param] });
      }
    });

    it('is an admin route: 401 without credentials, 403 without checkout_settings', async () => {
      expectWpError((await request(t.http).get(`${t.base}/administration/payments`)).body, 'rest_not_logged_in', 401);
      const editor = await t.createUser('editor');
      const res = await get('', {}, editor.auth);
      expect(res.status).toBe(403);
      expectWpError(res.body, 'rest_forbidden', 403);
      expect((await get('/export.csv', {}, editor.auth)).status).toBe(403);
      expect((await get(`/${ids.p1}`, {}, editor.auth)).status).toBe(403);
    });
  });

  describe('GET /administration/payments/{id}', () => {
    it('answers the record with its fees, plan, custom fields, provider references and log; never the secret', async () => {
      await connectGateway(t, 'gateway_a', 'test');
      const sync = await request(t.http)
        .post(`${t.base}/payment/sync-details`)
        .send({ form_id: forms.donation, payment_gateway: 'gateway_a', payment_method: 'ccard', plan_index: 1, price_index: 0, amount: 4200, email_address: 'payer@example.test', first_name: 'Pat', last_name: 'Payer', custom_fields: { company: 'Engines Ltd', size: 'M' } });
      expect(sync.status).toBe(201);
      const answer = sync.body as SyncAnswer & { payment_secret: string; checkout_token: string };
      const ledger = t.app.get(PaymentLedgerService);
      await ledger.recordProviderDetails(answer.payment_id, { providerPaymentRef: 'pi_detail_1', providerCustomerRef: 'cus_detail_1', applicationFeeAmount: 84 }, 'test');
      await ledger.transition(answer.payment_id, 'completed', { source: 'webhook:gateway_a', patch: { amountReceived: 4200 } });

      const res = await get(`/${answer.payment_id}`);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        id: answer.payment_id,
        status: 'completed',
        amount: 4200,
        currency: 'USD',
        gateway: 'gateway_a',
        payment_method: 'ccard',
        mode: 'test',
        email_address: 'payer@example.test',
        first_name: 'Pat',
        last_name: 'Payer',
        form_id: forms.donation,
        form_title: 'Donation drive',
        parent_payment_id: null,
        failure_reason: null,
        created_at: expect.stringMatching(/Z$/),
        updated_at: expect.stringMatching(/Z$/),
        amount_received: 4200,
        application_fee_amount: 84,
        setup_amount: null,
        plan_index: 1,
        price_index: 0,
        plan_title: 'Donation',
        frequency: 'one-time',
        custom_fields: { company: 'Engines Ltd', size: 'M' },
        // Completed here without a read of its charge: no card is known.
        card: null,
        provider_references: { payment: 'pi_detail_1', customer: 'cus_detail_1', subscription: null, capture: null, subscription_status: null },
        log: expect.any(Array),
        log_total: expect.any(Number),
        renewals: [],
        renewals_total: 0,
        amount_refunded: 0,
        refundable_amount: 4200,
        dispute: null,
        disputed: false,
        subscription: null,
        refunds: [],
        // No refund or log line names a user here.
        user_names: {},
      });
      const log = res.body.log as Array<{ id: number; level: string; event: string; message: string; context: unknown; created_at: string }>;
      expect(res.body.log_total).toBe(log.length);
      expect(log.map((line) => line.event)).toEqual(expect.arrayContaining(['provider_details', 'status_changed']));
      expect(log.map((line) => line.id)).toEqual([...log.map((line) => line.id)].sort((a, b) => a - b));
      const provider = log.find((line) => line.event === 'provider_details')!;
      expect(provider).toEqual({ id: expect.any(Number), level: 'info', event: 'provider_details', message: expect.any(String), context: expect.objectContaining({ source: 'test' }), created_at: expect.stringMatching(/Z$/) });
      const text = JSON.stringify(res.body);
      expect(text).not.toContain(answer.payment_secret);
      expect(text).not.toContain(answer.checkout_token);
      expect(text).not.toContain('secret_nonce');
      expect(text).not.toContain('client_ip');
    });

    it('answers the newest lines of a long log, oldest first, with the total', async () => {
      const ledger = t.app.get(PaymentLedgerService);
      for (let i = 0; i < 205; i++) await ledger.log({ paymentId: ids.p1, level: 'debug', event: 'test_line', message: `line ${i}` });
      const res = await get(`/${ids.p1}`);
      expect(res.body.log_total).toBe(205);
      expect(res.body.log).toHaveLength(200);
      expect(res.body.log[0].message).toBe('line 5');
      expect(res.body.log[199].message).toBe('line 204');
      expect(res.body.log[0].context).toBeNull();
    });

    it("shows a failed payment's reason as the provider gave it", async () => {
      const res = await get(`/${ids.p3}`);
      expect(res.body).toMatchObject({ status: 'failed', failure_reason: { code: 'INSTRUMENT_DECLINED', decline_code: null, message: 'The instrument presented was declined.' } });
    });

    it('names a deleted form by id only and a plan by index only', async () => {
      const res = await get(`/${ids.p5}`);
      expect(res.body).toMatchObject({ form_id: forms.gone, form_title: null, plan_index: null, plan_title: null, custom_fields: {}, log: [], log_total: 0 });
    });

    it('is 404 checkout_not_found for an unknown id and 400 for one that is not a positive integer', async () => {
      expectWpError((await get('/999999')).body, 'checkout_not_found', 404);
      for (const id of ['abc', '0', '-1', '1.5', '99999999999']) {
        const res = await get(`/${id}`);
        expect({ id, status: res.status }).toEqual({ id, status: 400 });
        expectWpError(res.body, 'rest_invalid_param', 400);
      }
    });
  });

  describe('GET /administration/payments/export.csv', () => {
    it('streams an RFC 4180 attachment of the filtered list, newest first, with the header line and the totals', async () => {
      const res = await exportCsv();
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toBe('text/csv; charset=utf-8; header=present');
      expect(res.headers['content-disposition']).toMatch(/^attachment; filename="payments-\d{8}T\d{6}Z\.csv"$/);
      expect(res.headers['cache-control']).toBe('no-store');
      expect(res.headers['x-wp-total']).toBe('6');
      expect(res.headers['x-checkout-truncated']).toBe('false');
      // PAYMENT_EXPORT_MAX_ROWS, default 1,000,000.
      expect(res.headers['x-checkout-export-limit']).toBe('1000000');
      const text = res.body as string;
      // A UTF-8 byte-order mark first, so spreadsheets read accents (replacing the earlier no-BOM rule).
      expect(text.startsWith(`${CSV_BOM}${PAYMENT_CSV_HEADER.join(',')}\r\n`)).toBe(true);
      expect(Buffer.from(text, 'utf8').subarray(0, 3)).toEqual(Buffer.from([0xef, 0xbb, 0xbf]));
      const [header, ...records] = parseCsv(text);
      expect(header).toEqual(PAYMENT_CSV_HEADER);
      const listed = await listIds({ per_page: 100 });
      expect(records.map((record) => Number(record[0]))).toEqual(listed);
      const p1 = records.find((record) => Number(record[0]) === ids.p1)!;
      expect(Object.fromEntries(header.map((name, i) => [name, p1[i]]))).toEqual({
        id: String(ids.p1),
        created_at: '2026-01-10T10:00:00.000Z',
        updated_at: expect.stringMatching(/Z$/),
        status: 'completed',
        amount: '1000',
        currency: 'USD',
        amount_decimal: '10.00',
        gateway: 'gateway_a',
        payment_method: 'ccard',
        mode: 'test',
        email_address: 'ada@example.com',
        first_name: 'Ada',
        last_name: 'Lovelace',
        form_id: String(forms.donation),
        form_title: 'Donation drive',
        parent_payment_id: '',
        amount_refunded: '300',
        amount_refunded_decimal: '3.00',
        application_fee_amount: '20',
        // 1000 received − 300 refunded − (20 − 6) fee kept − 100 lost in a dispute
        net: '586',
        provider_payment_reference: 'pi_export_1',
        failure_reason: '',
        disputed: 'true',
        custom_fields: 'company=Analytical\\; Engines\\=Ltd; size=M; gone_field=x\\\\y',
      });
      const p3 = records.find((record) => Number(record[0]) === ids.p3)!;
      expect(p3[header.indexOf('failure_reason')]).toBe('INSTRUMENT_DECLINED: The instrument presented was declined.');
      expect(p3[header.indexOf('custom_fields')]).toBe('');
      // Nothing received yet: no net; no dispute.
      expect([p3[header.indexOf('net')], p3[header.indexOf('disputed')], p3[header.indexOf('amount_refunded')]]).toEqual(['', 'false', '0']);
    });

    it("with form_id: one custom_fields.<name> column per field of the form, the form's other names kept in custom_fields", async () => {
      const formsService = t.app.get(FormsService);
      const admin = { id: t.admin.id, login: 'admin', role: 'administrator', capabilities: new Set(['checkout_settings', 'edit_others_checkout_forms']) };
      const donation = (await formsService.findById(forms.donation))!;
      await formsService.update(admin, forms.donation, { settings: { ...donation.settings, fields: [...donation.settings.fields, { name: 'company', type: 'text', label: 'Company', required: false }, { name: 'size', type: 'select', label: 'Size', required: false, options: ['S', 'M'] }] } });
      const [header, ...records] = parseCsv((await exportCsv({ form_id: forms.donation })).body as string);
      const customNames = donation.settings.fields.map((field) => field.name).filter((name) => !['email_address', 'first_name', 'last_name'].includes(name));
      expect(header).toEqual([...PAYMENT_CSV_HEADER.slice(0, -1), ...[...customNames, 'company', 'size'].map((name) => `custom_fields.${name}`), 'custom_fields']);
      const p1 = records.find((record) => Number(record[0]) === ids.p1)!;
      expect(p1[header.indexOf('custom_fields.company')]).toBe('Analytical; Engines=Ltd');
      expect(p1[header.indexOf('custom_fields.size')]).toBe('M');
      expect(p1[header.indexOf('custom_fields')]).toBe('gone_field=x\\\\y');
      await formsService.update(admin, forms.donation, { settings: donation.settings });
    });

    it('neutralises cells a spreadsheet would run as formulas and quotes commas, quotes and line breaks', async () => {
      const text = (await exportCsv({ gateway: 'gateway_b' })).body as string;
      // The raw line of p3: every dangerous cell starts with a quote mark, quoted as RFC 4180 needs.
      expect(text).toContain(
        `,"'=HYPERLINK(""http://evil.example"",""x"")@example.com",'=cmd|' /C calc'!A0,"Smith, ""Jr""\r\nline two",${forms.shop},"Shop, ""spring"" sale",,0,0.00,,,,INSTRUMENT_DECLINED: The instrument presented was declined.,false,\r\n`,
      );
      const records = parseCsv(text).slice(1);
      expect(records.map((record) => Number(record[0]))).toEqual([ids.p4, ids.p3]);
      const p4 = records[0];
      expect(p4[PAYMENT_CSV_HEADER.indexOf('first_name')]).toBe("'+Zoë");
      expect(p4[PAYMENT_CSV_HEADER.indexOf('amount_decimal')]).toBe('700');
      const all = parseCsv((await exportCsv()).body as string).slice(1);
      const p5 = all.find((record) => Number(record[0]) === ids.p5)!;
      expect([p5[PAYMENT_CSV_HEADER.indexOf('first_name')], p5[PAYMENT_CSV_HEADER.indexOf('last_name')], p5[PAYMENT_CSV_HEADER.indexOf('amount_decimal')]]).toEqual(["'@home", "'-minus", '1.250']);
    });

    it('applies the same filters as the list', async () => {
      const queries: Array<Record<string, string | number>> = [
        { status: 'completed' },
        { mode: 'live' },
        { search: 'a_b' },
        { created_from: '2026-01-15', created_before: '2026-02-01' },
        { form_id: forms.donation },
      ];
      for (const query of queries) {
        const res = await exportCsv(query);
        const exported = parseCsv(res.body as string).slice(1).map((record) => Number(record[0]));
        expect({ query, exported }).toEqual({ query, exported: await listIds(query) });
        expect(res.headers['x-wp-total']).toBe(String(exported.length));
      }
      const none = await exportCsv({ search: 'nobody' });
      expect(none.body).toBe(`${CSV_BOM}${PAYMENT_CSV_HEADER.join(',')}\r\n`);
      expect(none.headers['x-wp-total']).toBe('0');
    });

    it('reads batch after batch by keyset (ties of created_at included once), and stops at the row limit saying so', async () => {
      const listed = await listIds({ per_page: 100 });
      const limits = { ...PAYMENT_EXPORT_LIMITS };
      const config = t.app.get<AppConfig>(APP_CONFIG);
      const maxRows = config.paymentExportMaxRows;
      try {
        PAYMENT_EXPORT_LIMITS.batchSize = 1;
        const whole = await exportCsv();
        expect(parseCsv(whole.body as string).slice(1).map((record) => Number(record[0]))).toEqual(listed);
        expect(whole.headers['x-checkout-truncated']).toBe('false');

        PAYMENT_EXPORT_LIMITS.batchSize = 2;
        config.paymentExportMaxRows = 3;
        const cut = await exportCsv();
        expect(cut.headers['x-wp-total']).toBe(String(listed.length));
        expect(cut.headers['x-checkout-truncated']).toBe('true');
        expect(cut.headers['x-checkout-export-limit']).toBe('3');
        expect(parseCsv(cut.body as string).slice(1).map((record) => Number(record[0]))).toEqual(listed.slice(0, 3));

        config.paymentExportMaxRows = listed.length;
        expect((await exportCsv()).headers['x-checkout-truncated']).toBe('false');
        // With a filter: cut short past the limit, the total then counted only up to the limit.
        config.paymentExportMaxRows = 1;
        const filtered = await exportCsv({ status: 'completed' });
        expect(filtered.headers['x-checkout-truncated']).toBe('true');
        expect(parseCsv(filtered.body as string).slice(1)).toHaveLength(1);
      } finally {
        Object.assign(PAYMENT_EXPORT_LIMITS, limits);
        config.paymentExportMaxRows = maxRows;
      }
    });

    it('writes the same bytes whatever the batch size: records, form titles, refund and dispute sums cut across batch boundaries', async () => {
      const limits = { ...PAYMENT_EXPORT_LIMITS };
      try {
        for (const query of [{}, { form_id: forms.donation }, { gateway: 'gateway_b' }] as Array<Record<string, string | number>>) {
          const whole = (await exportCsv(query)).body as string;
          expect(parseCsv(whole).length).toBeGreaterThan(2);
          for (const batchSize of [1, 2, 3]) {
            PAYMENT_EXPORT_LIMITS.batchSize = batchSize;
            expect({ query, batchSize, text: (await exportCsv(query)).body as string }).toEqual({ query, batchSize, text: whole });
          }
          Object.assign(PAYMENT_EXPORT_LIMITS, limits);
        }
        // The file of the first test, byte for byte, read one row per batch: p1's line carries the
        // form title, the fee its succeeded refund gave back (not the pending one's), the lost dispute
        // and the custom fields.
        PAYMENT_EXPORT_LIMITS.batchSize = 1;
        const p1 = ((await exportCsv()).body as string).split('\r\n').find((line) => line.startsWith(`${ids.p1},`));
        expect(p1?.replace(/^(\d+,[^,]+),[^,]+Z,/, '$1,<updated_at>,')).toBe(
          `${ids.p1},2026-01-10T10:00:00.000Z,<updated_at>,completed,1000,USD,10.00,gateway_a,ccard,test,ada@example.com,Ada,Lovelace,${forms.donation},Donation drive,,` +
            '300,3.00,20,586,pi_export_1,,true,company=Analytical\\; Engines\\=Ltd; size=M; gone_field=x\\\\y',
        );
      } finally {
        Object.assign(PAYMENT_EXPORT_LIMITS, limits);
      }
    });

    it('lets other requests through while it streams: a payment read started after the first bytes is answered before the file ends', async () => {
      // better-sqlite3 answers synchronously: without a turn of the event loop between batches, a
      // long export held every other request until its last row (2.3 s for 50,000 rows).
      // 3,000 rows in multi-row INSERTs (the export reads them; nothing here searches them): the
      // app's insert path, one row and its search terms at a time, took most of the test's time
      // on a loaded MariaDB.
      const table = `${t.dataSource.options.entityPrefix ?? ''}checkout_payments`;
      const at = t.dataSource.options.type === 'better-sqlite3' ? '2025-06-01 00:00:00.000' : new Date('2025-06-01T00:00:00.000Z');
      for (let start = 0; start < 3000; start += 500) {
        const rows = Array.from({ length: 500 }, (_, index) => start + index);
        await t.dataSource.query(
          `INSERT INTO ${table} (gateway, payment_method, mode, status, amount, currency, frequency, secret_nonce, email_address, custom_fields, created_at, updated_at) VALUES ${rows.map(() => '(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)').join(', ')}`,
          rows.flatMap((i) => ['gateway_a', 'ccard', 'test', 'completed', 100 + i, 'USD', 'one-time', randomBytes(32).toString('base64url'), `bulk${i}@example.com`, '{}', at, at]),
        );
      }
      const limits = { ...PAYMENT_EXPORT_LIMITS };
      const finished: string[] = [];
      try {
        PAYMENT_EXPORT_LIMITS.batchSize = 10;
        let read: Promise<void> | undefined;
        const exported = get('/export.csv', { created_before: '2025-06-02' }).buffer(true).parse((res, done) => {
          let rows = 0;
          res.setEncoding('utf8');
          res.on('data', (chunk: string) => {
            rows += chunk.split('\r\n').length - 1;
            read ??= get(`/${ids.p1}`).then((answer) => {
              expect(answer.status).toBe(200);
              finished.push('payment read');
            });
          });
          res.on('end', () => {
            finished.push('export');
            done(null, rows);
          });
        });
        const res = await exported;
        await read;
        expect(res.body).toBe(3001);
        expect(finished).toEqual(['payment read', 'export']);
      } finally {
        Object.assign(PAYMENT_EXPORT_LIMITS, limits);
      }
    });

    it('refuses bad filters with a JSON 400 before sending any CSV', async () => {
      const res = await get('/export.csv', { status: 'paid' });
      expect(res.status).toBe(400);
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      expect(res.headers['content-disposition']).toBeUndefined();
      expectWpError(res.body, 'rest_invalid_param', 400);
      expect((await get('/export.csv', { page: 1 })).status).toBe(400);
      expect((await request(t.http).get(`${t.base}/administration/payments/export.csv`)).status).toBe(401);
    });
  });
});
