import request from 'supertest';
import type { PaymentForm } from '../../src/modules/forms/index.js';
import { PaymentLedgerService } from '../../src/modules/payments/index.js';
import { OptionsService } from '../../src/modules/settings/index.js';
import { signPayload } from '../fakes/gateway-a/index.js';
import { createGatewayBRecord } from '../support/gateway-b.js';
import { expectWpError } from '../support/http.js';
import { connectGateway, createPaymentForm } from '../support/payment-fixtures.js';
import { startTestApp, type TestApp, type TestUser } from '../support/test-app.js';
import { logEvents, paymentRow } from '../support/app-state.js';

/** A parsed JSON body; `any` keeps the many assertions on answers short. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Body = Record<string, any>;

describe('section B webhooks (POST /webhook/receive, GET /webhook/status, POST /webhook/rotate-secret)', () => {
  let t: TestApp;
  let form: PaymentForm;
  let editor: TestUser;
  let ledger: PaymentLedgerService;
  let counter = 0;

  beforeAll(async () => {
    t = await startTestApp({ RATE_LIMIT_NEW_PAYMENT: '10000' });
    await connectGateway(t, 'gateway_b', 'test');
    await connectGateway(t, 'gateway_a', 'test');
    form = await createPaymentForm(t);
    editor = await t.createUser('editor');
    ledger = t.app.get(PaymentLedgerService);
  });
  afterAll(() => t.close());

  const admin = (method: 'get' | 'post', path: string) => request(t.http)[method](`${t.base}${path}`).set('Authorization', t.admin.auth);
  const rotate = async (): Promise<string> => {
    const res = await admin('post', '/webhook/rotate-secret');
    expect(res.status).toBe(200);
    return res.body.secret as string;
  };
  const send = (raw: string, signature?: string) => {
    const req = request(t.http).post(`${t.base}/webhook/receive`).set('Content-Type', 'application/json');
    if (signature !== undefined) req.set('Checkout-Signature', signature);
    return req.send(raw);
  };
  const envelope = (transactionId: string, amount: number | string, currency = 'USD', extra: Body = {}) =>
    JSON.stringify({ id: `evt_generic_${++counter}_${Date.now()}`, event: 'payment_intent.succeeded', data: { transaction_id: transactionId, amount, currency }, ...extra });
  const storedEvents = async () =>
    (await t.dataSource.query(`SELECT event_id, status, mode, payment_id, reason FROM ${t.config.tablePrefix}checkout_webhook_events WHERE provider = 'generic' ORDER BY id`)) as Body[];
  /** A pending gateway-B record whose provider payment id (its section B transaction id) is `ref`. */
  const pendingRecord = async (ref: string | null, body: Body = {}) => {
    const rec = await createGatewayBRecord(t, form, body);
    if (ref) await ledger.recordProviderDetails(rec.sync.payment_id, { providerPaymentRef: ref }, 'test');
    return rec.sync.payment_id;
  };

  describe('GET /webhook/status and the secret', () => {
    it('needs an administrator (401, 403, cross-site 403)', async () => {
      for (const path of ['/webhook/status', '/webhook/rotate-secret']) {
        const method = path.endsWith('status') ? 'get' : 'post';
        expect((await request(t.http)[method](`${t.base}${path}`)).status).toBe(401);
        expectWpError((await request(t.http)[method](`${t.base}${path}`).set('Authorization', editor.auth)).body, 'rest_forbidden', 403);
        const crossSite = await request(t.http)[method](`${t.base}${path}`).set('Authorization', t.admin.auth).set('Sec-Fetch-Site', 'cross-site');
        expectWpError(crossSite.body, 'rest_cross_site_request', 403);
      }
    });

    it('answers the receive URL, status active and the secret as a mask only (created at first use, sealed)', async () => {
      const first = await admin('get', '/webhook/status');
      expect(first.status).toBe(200);
      expect(first.body).toEqual({ webhook_url: 'http://checkout.test/wp-json/checkout/v1/webhook/receive', status: 'active', secret: expect.stringMatching(/^whsec_…[\w-]{4}$/) });
      expect((await admin('get', '/webhook/status')).body).toEqual(first.body);
      const secret = await t.app.get(OptionsService).getSecret('checkout_generic_webhook_secret');
      expect(secret).toMatch(/^whsec_[\w-]{43}$/);
      const [row] = await t.dataSource.query(`SELECT option_value AS value FROM ${t.config.tablePrefix}options WHERE option_name = ?`, ['checkout_generic_webhook_secret']);
      expect(row.value).not.toContain(secret!.slice(6));
    });

    it('rotate-secret shows the new secret whole once; the old one stops working', async () => {
      const old = await rotate();
      const id = await pendingRecord(null);
      const rotated = await admin('post', '/webhook/rotate-secret');
      expect(rotated.body).toEqual({ webhook_url: expect.stringMatching(/\/webhook\/receive$/), status: 'active', secret: expect.stringMatching(/^whsec_[\w-]{43}$/), message: expect.any(String) });
      const fresh = rotated.body.secret as string;
      expect(fresh).not.toBe(old);
      expect((await admin('get', '/webhook/status')).body.secret).toBe(`whsec_…${fresh.slice(-4)}`);
      const raw = envelope(String(id), '10.00');
      expectWpError((await send(raw, signPayload(raw, old))).body, 'checkout_invalid_signature', 400);
      expect((await send(raw, signPayload(raw, fresh))).body).toEqual({ success: true, message: 'Webhook processed.', outcome: 'processed' });
    });
  });

  describe('POST /webhook/receive', () => {
    let secret: string;
    beforeAll(async () => {
      secret = await rotate();
    });

    it('refuses an unsigned, wrongly signed or stale delivery (400), storing nothing', async () => {
      const id = await pendingRecord('ORDERUNSIGNED0001');
      const raw = envelope('ORDERUNSIGNED0001', 10);
      const before = (await storedEvents()).length;
      for (const signature of [undefined, 'garbage', signPayload(raw, 'whsec_notTheSiteSecret'), signPayload(raw, secret, Math.floor(Date.now() / 1000) - 301)]) {
        const res = await send(raw, signature);
        expect(res.status).toBe(400);
        expectWpError(res.body, 'checkout_invalid_signature', 400);
      }
      expect((await storedEvents()).length).toBe(before);
      expect(await paymentRow(t, id)).toMatchObject({ status: 'pending' });
    });

    it('completes the payment named by its provider payment id when amount (major units, exact) and currency match, once', async () => {
      const id = await pendingRecord('ORDERGENERIC00001', { plan_index: 1, amount: 1999 });
      const raw = envelope('ORDERGENERIC00001', 19.99);
      const res = await send(raw, signPayload(raw, secret));
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ success: true, message: 'Webhook processed.', outcome: 'processed' });
      const row = await paymentRow(t, id);
      expect(row).toMatchObject({ status: 'completed' });
      expect(Number(row.amount_received)).toBe(1999);
      const stored = (await storedEvents()).at(-1)!;
      expect(stored).toMatchObject({ status: 'processed', mode: null, payment_id: id });

      // The same event again (even freshly signed) is a duplicate.
      expect((await send(raw, signPayload(raw, secret))).body).toMatchObject({ success: true, outcome: 'duplicate' });
      expect((await logEvents(t, id)).filter((name) => name === 'status_changed')).toHaveLength(1);
    });

    it('names a payment without a provider id by its local id; without an envelope id the body’s hash identifies the event', async () => {
      const id = await pendingRecord(null);
      const raw = JSON.stringify({ event: 'payment_intent.succeeded', data: { transaction_id: String(id), amount: '10', currency: 'USD' } });
      expect((await send(raw, signPayload(raw, secret))).body.outcome).toBe('processed');
      expect(await paymentRow(t, id)).toMatchObject({ status: 'completed' });
      expect((await send(raw, signPayload(raw, secret))).body.outcome).toBe('duplicate');
      expect((await storedEvents()).at(-1)!.event_id).toMatch(/^sha256:[0-9a-f]{64}$/);
    });

    it('rejects an amount or currency that differs (logged, the payment stays pending)', async () => {
      const id = await pendingRecord('ORDERGENERIC00002');
      for (const raw of [envelope('ORDERGENERIC00002', 9.99), envelope('ORDERGENERIC00002', 1000), envelope('ORDERGENERIC00002', 10, 'EUR'), envelope('ORDERGENERIC00002', 10, 'JPY')]) {
        const res = await send(raw, signPayload(raw, secret));
        expect(res.status).toBe(200);
        expect(res.body.outcome).toBe('rejected');
      }
      expect(await paymentRow(t, id)).toMatchObject({ status: 'pending', amount_received: null });
      expect((await logEvents(t, id)).filter((name) => name === 'webhook_contract_mismatch')).toHaveLength(4);
    });

    it('ignores other events, unknown payments and finished payments', async () => {
      const id = await pendingRecord('ORDERGENERIC00003');
      const other = JSON.stringify({ id: `evt_other_${Date.now()}`, event: 'payment_intent.payment_failed', data: { transaction_id: 'ORDERGENERIC00003', amount: 10, currency: 'USD' } });
      expect((await send(other, signPayload(other, secret))).body.outcome).toBe('ignored');
      const unknown = envelope('NOSUCHPAYMENT', 10);
      expect((await send(unknown, signPayload(unknown, secret))).body.outcome).toBe('ignored');
      await ledger.transition(id, 'canceled', { source: 'test' });
      const late = envelope('ORDERGENERIC00003', 10);
      expect((await send(late, signPayload(late, secret))).body.outcome).toBe('ignored');
      expect(await paymentRow(t, id)).toMatchObject({ status: 'canceled' });
    });

    it('validates the signed envelope (400 naming the field), and refuses a body that is not the envelope', async () => {
      const missing = JSON.stringify({ event: 'payment_intent.succeeded', data: { transaction_id: 'X' } });
      const res = await send(missing, signPayload(missing, secret));
      expectWpError(res.body, 'rest_missing_callback_param', 400);
      expect(Object.keys(res.body.data.params)).toEqual(['data.amount', 'data.currency']);
      const negative = envelope('X', -5);
      expect((await send(negative, signPayload(negative, secret))).status).toBe(400);
      const extra = envelope('X', 5, 'USD', { surprise: true });
      expect((await send(extra, signPayload(extra, secret))).status).toBe(400);
    });

    it.each([
      ['a top-level __proto__', (raw: string) => raw.replace('{', '{"__proto__":{"polluted":true},'), '__proto__'],
      ['a top-level constructor', (raw: string) => raw.replace('{', '{"constructor":{"prototype":1},'), 'constructor'],
      ['a __proto__ inside data', (raw: string) => raw.replace('"data":{', '"data":{"__proto__":{"polluted":true},'), 'data.__proto__'],
      ['a constructor inside data', (raw: string) => raw.replace('"data":{', '"data":{"constructor":1,'), 'data.constructor'],
      ['an unknown key inside data', (raw: string) => raw.replace('"data":{', '"data":{"surprise":1,'), 'data.surprise'],
    ])('answers a signed envelope with %s 400 naming that key, storing nothing', async (_label, inject, field) => {
      const id = await pendingRecord(`ORDERPROTO${field.length}${counter}`);
      const raw = inject(envelope(`ORDERPROTO${field.length}${counter}`, 10));
      const before = (await storedEvents()).length;
      const res = await send(raw, signPayload(raw, secret));
      expect(res.status).toBe(400);
      const body = expectWpError(res.body, 'rest_invalid_param', 400);
      expect(Object.keys(body.data.params as object)).toEqual([field]);
      expect(body.message).toContain(field);
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
      expect((await storedEvents()).length).toBe(before);
      expect(await paymentRow(t, id)).toMatchObject({ status: 'pending' });
    });
  });
});
