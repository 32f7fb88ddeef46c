import request from 'supertest';
import type { PaymentForm } from '../../src/modules/forms/index.js';
import { GatewayStateService } from '../../src/modules/gateways/index.js';
import { CheckoutContextService } from '../../src/modules/payments/checkout-context.service.js';
import type { FakeGatewayB } from '../fakes/gateway-b/index.js';
import { connectThroughProxy, type GatewayATestBed, startGatewayATestBed } from '../support/gateway-a.js';
import { createIntent, createRecord, finishCheckout } from '../support/gateway-a-checkout.js';
import { GatewayAContractService } from '../../src/modules/gateway-a/index.js';
import { signedEvent } from '../fakes/gateway-a/index.js';
import { captureOrder, connectGatewayB, createGatewayBRecord, createOrder, type GatewayBTestBed, startGatewayBTestBed } from '../support/gateway-b.js';
import { expectWpError } from '../support/http.js';
import { connectGateway, createPaymentForm, referenceOf, type SyncAnswer } from '../support/payment-fixtures.js';
import { sharedDatabaseUrl } from '../support/shared-database.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { advanceClock, paymentRow } from '../support/app-state.js';

/** A parsed JSON body; `any` keeps the many assertions on answers short. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Body = Record<string, any>;

const DAY_MS = 24 * 60 * 60_000;

async function countPayments(t: TestApp): Promise<number> {
  const [{ n }] = await t.dataSource.query(`SELECT COUNT(*) AS n FROM ${t.config.tablePrefix}checkout_payments`);
  return Number(n);
}

/** Unpublishes a form as the merchant does (PUT with status draft). */
async function unpublish(t: TestApp, form: PaymentForm): Promise<void> {
  await request(t.http).put(`${t.base}/administration/payment-forms/${form.id}`).set('Authorization', t.admin.auth).send({ status: 'draft' }).expect(200);
}

async function keyRows(t: TestApp): Promise<Body[]> {
  return t.dataSource.query(`SELECT * FROM ${t.config.tablePrefix}checkout_idempotency_keys ORDER BY id`);
}

async function keyRow(t: TestApp, key: string): Promise<Body | undefined> {
  return (await keyRows(t)).find((row) => row.idempotency_key === key);
}

/** A promise the test resolves by hand, to hold a request inside the service while others arrive. */
function gate(): { opened: Promise<void>; open: () => void } {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { opened, open };
}

/**
 * Holds the next sync-details inside the service (before it writes) until `release` is called;
 * `entered` resolves once it got there.
 */
function holdNextSyncDetails(t: TestApp): { entered: Promise<void>; release: () => void; restore: () => void } {
  const context = t.app.get(CheckoutContextService);
  const original = context.resolve.bind(context);
  const arrived = gate();
  const released = gate();
  const spy = jest.spyOn(context, 'resolve').mockImplementationOnce(async (...args) => {
    arrived.open();
    await released.opened;
    return original(...args);
  });
  return { entered: arrived.opened, release: released.open, restore: () => spy.mockRestore() };
}

describe('Idempotency-Key on POST /payment/sync-details', () => {
  let t: TestApp;
  let form: PaymentForm;
  let draft: PaymentForm;
  let client = 0;
  /** A client address of its own per test (TRUST_PROXY), so each test has its own creation budget. */
  let ip: string;

  beforeAll(async () => {
    t = await startTestApp({ TRUST_PROXY: 'true', RATE_LIMIT_NEW_PAYMENT: '3', RATE_LIMIT_NEW_PAYMENT_WINDOW_SECONDS: '600' });
    await connectGateway(t, 'gateway_a', 'test');
    form = await createPaymentForm(t);
    draft = await createPaymentForm(t, {}, 'draft');
  });
  afterAll(() => t.close());
  beforeEach(() => {
    client += 1;
    ip = `198.51.100.${client}`;
  });

  const creationBody = (overrides: Body = {}): Body => ({ form_id: form.id, payment_gateway: 'gateway_a', payment_method: 'ccard', email_address: 'payer@example.test', first_name: 'Pat', ...overrides });
  const sync = (body: Body, options: { key?: string; from?: string; formEncoded?: boolean } = {}) => {
    const req = request(t.http).post(`${t.base}/payment/sync-details`).set('X-Forwarded-For', options.from ?? ip);
    if (options.key !== undefined) req.set('Idempotency-Key', options.key);
    if (options.formEncoded) return req.type('form').send(new URLSearchParams(Object.entries(body).map(([name, value]): [string, string] => [name, String(value)])).toString());
    return req.send(body);
  };

  it('answers a repeat with the same payment (201 again): one row, the secret derived again, a fresh valid token, marked as replayed', async () => {
    const before = await countPayments(t);
    const first = await sync(creationBody(), { key: 'order-7d3c1a2e' });
    expect(first.status).toBe(201);
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    // Tokens carry their issue time in seconds: wait for the next one, so a fresh token differs.
    await new Promise((resolve) => setTimeout(resolve, 1100));

    const repeat = await sync(creationBody(), { key: 'order-7d3c1a2e' });
    expect(repeat.status).toBe(201);
    expect(repeat.headers['idempotent-replayed']).toBe('true');
    const a = first.body as SyncAnswer;
    const b = repeat.body as SyncAnswer;
    expect(b).toEqual({ ...a, checkout_token: expect.any(String), checkout_token_expires_at: expect.any(String) });
    expect(b.checkout_token).not.toBe(a.checkout_token);
    expect(Date.parse(b.checkout_token_expires_at)).toBeGreaterThan(Date.parse(a.checkout_token_expires_at));
    expect(await countPayments(t)).toBe(before + 1);
    // The new token is a valid reference of the payment.
    const status = await request(t.http).post(`${t.base}/payment/status`).set('X-Forwarded-For', ip).send(referenceOf(b, form.id));
    expect(status.status).toBe(200);
    expect(status.body).toMatchObject({ payment_id: a.payment_id, status: 'pending' });

    // Stored: key, an HMAC of the client, the route, the body's hash, the payment id. No secret, no token, no address.
    const row = await keyRow(t, 'order-7d3c1a2e');
    expect(row).toMatchObject({ route: 'payment/sync-details', state: 'completed', lease_token: null, result: JSON.stringify({ payment_id: a.payment_id }) });
    expect(row!.client_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(row!.request_hash).toMatch(/^[0-9a-f]{64}$/);
    const stored = JSON.stringify(row);
    for (const secret of [a.payment_secret, a.checkout_token, b.checkout_token, ip, 'payer@example.test']) expect(stored).not.toContain(secret);
    const log: Body[] = await t.dataSource.query(`SELECT event FROM ${t.config.tablePrefix}checkout_log WHERE payment_id = ?`, [a.payment_id]);
    expect(log.map((entry) => entry.event)).toEqual(['payment_created']);
  });

  it('does not count a repeat against the creation limit (3 here): repeats cost nothing of it, a new creation does', async () => {
    const created = await sync(creationBody(), { key: 'budget-1' });
    expect(created.status).toBe(201);
    for (let i = 0; i < 4; i += 1) {
      const repeat = await sync(creationBody(), { key: 'budget-1' });
      expect(repeat.status).toBe(201);
      expect(repeat.body.payment_id).toBe(created.body.payment_id);
    }
    // Two more creations fit in the budget of 3; the fourth is refused.
    expect((await sync(creationBody({ first_name: 'Two' }))).status).toBe(201);
    expect((await sync(creationBody({ first_name: 'Three' }), { key: 'budget-3' })).status).toBe(201);
    const refused = await sync(creationBody({ first_name: 'Four' }), { key: 'budget-4' });
    expect(refused.status).toBe(429);
    expectWpError(refused.body, 'checkout_rate_limited', 429);
    // A refused request holds no key, and repeats still answer.
    expect(await keyRow(t, 'budget-4')).toBeUndefined();
    expect((await sync(creationBody(), { key: 'budget-1' })).body.payment_id).toBe(created.body.payment_id);
  });

  it('hashes the validated request: the same request form-encoded, with other key order and untrimmed text, is a repeat', async () => {
    const first = await sync(creationBody({ custom_fields: undefined }), { key: 'encoding-1' });
    expect(first.status).toBe(201);
    const before = await countPayments(t);
    const { first_name, email_address, payment_method, payment_gateway, form_id } = creationBody();
    const repeat = await sync({ first_name: `  ${first_name} `, email_address, payment_method, payment_gateway, form_id }, { key: 'encoding-1', formEncoded: true });
    expect(repeat.status).toBe(201);
    expect(repeat.body.payment_id).toBe(first.body.payment_id);
    expect(await countPayments(t)).toBe(before);
  });

  it('answers the same key with another body 422 naming the key, and writes nothing', async () => {
    const first = await sync(creationBody(), { key: 'reused-key' });
    expect(first.status).toBe(201);
    const before = await countPayments(t);
    const rowBefore = await keyRow(t, 'reused-key');

    const other = await sync(creationBody({ first_name: 'Someone else' }), { key: 'reused-key' });
    expect(other.status).toBe(422);
    const error = expectWpError(other.body, 'checkout_idempotency_mismatch', 422);
    expect(error.message).toContain('Idempotency-Key');
    expect(error.data.params).toHaveProperty('Idempotency-Key');
    expect(other.headers['idempotent-replayed']).toBeUndefined();
    expect(await countPayments(t)).toBe(before);
    expect(await keyRow(t, 'reused-key')).toEqual(rowBefore);
  });

  it('creates a payment per request without a key, as before', async () => {
    const before = await countPayments(t);
    const a = await sync(creationBody());
    const b = await sync(creationBody());
    expect([a.status, b.status]).toEqual([201, 201]);
    expect(b.body.payment_id).not.toBe(a.body.payment_id);
    expect(await countPayments(t)).toBe(before + 2);
  });

  it('keeps clients apart: another client with the same key and body gets its own payment; the same IPv6 /64 is the same client', async () => {
    const mine = await sync(creationBody(), { key: 'shared-key', from: '2001:db8:7:1::10' });
    const sameNetwork = await sync(creationBody(), { key: 'shared-key', from: '2001:db8:7:1::99' });
    const theirs = await sync(creationBody(), { key: 'shared-key', from: '2001:db8:7:2::10' });
    expect([mine.status, sameNetwork.status, theirs.status]).toEqual([201, 201, 201]);
    expect(sameNetwork.body.payment_id).toBe(mine.body.payment_id);
    expect(sameNetwork.headers['idempotent-replayed']).toBe('true');
    expect(theirs.body.payment_id).not.toBe(mine.body.payment_id);
    expect(theirs.headers['idempotent-replayed']).toBeUndefined();
    expect((await keyRows(t)).filter((row) => row.idempotency_key === 'shared-key')).toHaveLength(2);
  });

  it.each([
    ['empty', ''],
    ['over 255 characters', 'k'.repeat(256)],
    ['with a space', 'two words'],
    ['not ASCII', 'clé-1'],
  ])('refuses a key %s with 400 naming Idempotency-Key, before anything is written', async (_why, key) => {
    const before = await countPayments(t);
    const rows = (await keyRows(t)).length;
    const res = await sync(creationBody(), { key });
    expect(res.status).toBe(400);
    expect(expectWpError(res.body, 'rest_invalid_param', 400).data.params).toEqual({ 'Idempotency-Key': expect.stringContaining('visible ASCII') });
    expect(await countPayments(t)).toBe(before);
    expect(await keyRows(t)).toHaveLength(rows);
  });

  it('answers a repeat that arrives while the first still runs 409 with Retry-After; the first then finishes and later repeats replay it', async () => {
    const before = await countPayments(t);
    const hold = holdNextSyncDetails(t);
    try {
      const firstAnswer = sync(creationBody(), { key: 'double-click' }).then((res) => res);
      await hold.entered;
      expect(await keyRow(t, 'double-click')).toMatchObject({ state: 'running', result: null });

      const second = await sync(creationBody(), { key: 'double-click' });
      expect(second.status).toBe(409);
      expectWpError(second.body, 'checkout_idempotency_in_progress', 409);
      expect(second.headers['retry-after']).toBe('1');
      expect(second.body.data.retry_after).toBe(1);

      hold.release();
      const first = await firstAnswer;
      expect(first.status).toBe(201);
      const third = await sync(creationBody(), { key: 'double-click' });
      expect(third.status).toBe(201);
      expect(third.body.payment_id).toBe(first.body.payment_id);
      expect(await countPayments(t)).toBe(before + 1);
    } finally {
      hold.release();
      hold.restore();
    }
  });

  it('frees the key when the first request fails, so the repeat runs again', async () => {
    const body = creationBody({ form_id: draft.id });
    const refused = await sync(body, { key: 'after-a-failure' });
    expect(refused.status).toBe(404);
    expect(await keyRow(t, 'after-a-failure')).toBeUndefined();

    // The merchant publishes the form; the payer's retry with the same key and body now creates.
    await request(t.http).put(`${t.base}/administration/payment-forms/${draft.id}`).set('Authorization', t.admin.auth).send({ status: 'publish' }).expect(200);
    const retried = await sync(body, { key: 'after-a-failure' });
    expect(retried.status).toBe(201);
    expect(retried.headers['idempotent-replayed']).toBeUndefined();
    expect(await keyRow(t, 'after-a-failure')).toMatchObject({ state: 'completed', result: JSON.stringify({ payment_id: retried.body.payment_id }) });
  });

  it('does not let a crashed first request hold the key: past its lease a repeat runs, and the late first one is rolled back', async () => {
    const before = await countPayments(t);
    const hold = holdNextSyncDetails(t);
    let clock: jest.SpyInstance | undefined;
    try {
      const stuckAnswer = sync(creationBody(), { key: 'stuck' }).then((res) => res);
      await hold.entered;
      clock = advanceClock(t, 61_000);

      const repeat = await sync(creationBody(), { key: 'stuck' });
      expect(repeat.status).toBe(201);
      expect(repeat.headers['idempotent-replayed']).toBeUndefined();

      // The first one wakes up after losing its key: its creation is rolled back (409, retry), not a second payment.
      hold.release();
      const stuck = await stuckAnswer;
      expect(stuck.status).toBe(409);
      expectWpError(stuck.body, 'checkout_idempotency_in_progress', 409);
      expect(await countPayments(t)).toBe(before + 1);
      const again = await sync(creationBody(), { key: 'stuck' });
      expect(again.body.payment_id).toBe(repeat.body.payment_id);
    } finally {
      hold.release();
      hold.restore();
      clock?.mockRestore();
    }
  });

  it('forgets a key after 24 hours (a repeat then creates anew) and purges expired keys', async () => {
    const first = await sync(creationBody(), { key: 'yesterday' });
    const other = await sync(creationBody({ first_name: 'Other' }), { key: 'yesterday-other' });
    expect([first.status, other.status]).toEqual([201, 201]);
    const clock = advanceClock(t, DAY_MS - 60_000);
    try {
      expect((await sync(creationBody(), { key: 'yesterday' })).body.payment_id).toBe(first.body.payment_id);
      clock.mockRestore();
      advanceClock(t, DAY_MS + 1000);
      const later = await sync(creationBody(), { key: 'yesterday' });
      expect(later.status).toBe(201);
      expect(later.headers['idempotent-replayed']).toBeUndefined();
      expect(later.body.payment_id).not.toBe(first.body.payment_id);
      // The claim purged the expired rows on its way (the other key's among them).
      expect(await keyRow(t, 'yesterday-other')).toBeUndefined();
      expect(await keyRow(t, 'yesterday')).toMatchObject({ result: JSON.stringify({ payment_id: later.body.payment_id }) });
    } finally {
      clock.mockRestore();
      jest.restoreAllMocks();
    }
  });

  it('hands out no fresh checkout token once the form is unpublished: a repeat answers 409 checkout_invalid_state', async () => {
    const own = await createPaymentForm(t);
    const body = creationBody({ form_id: own.id });
    const first = await sync(body, { key: 'unpublished-later' });
    expect(first.status).toBe(201);
    await unpublish(t, own);
    const repeat = await sync(body, { key: 'unpublished-later' });
    expect(repeat.status).toBe(409);
    expect(expectWpError(repeat.body, 'checkout_invalid_state', 409).message).toContain('not published');
    expect(repeat.body).not.toHaveProperty('checkout_token');
  });

  it('takes the key on updates too: a repeat answers the record as it is now, without applying the update again', async () => {
    const created = (await sync(creationBody(), { key: 'create-then-update' })).body as SyncAnswer;
    const update = { payment_id: created.payment_id, payment_secret: created.payment_secret, form_id: form.id, payment_gateway: 'gateway_a', payment_method: 'ccard', first_name: 'Updated' };
    const first = await sync(update, { key: 'update-1' });
    expect(first.status).toBe(200);
    // A later change (without a key), then the old update is retried: it does not undo the change.
    expect((await sync({ ...update, first_name: 'Latest' })).status).toBe(200);
    const repeat = await sync(update, { key: 'update-1' });
    expect(repeat.status).toBe(200);
    expect(repeat.headers['idempotent-replayed']).toBe('true');
    expect(repeat.body.payment_id).toBe(created.payment_id);
    expect((await paymentRow(t, created.payment_id)).first_name).toBe('Latest');
  });
});

describe('Idempotency-Key across two instances on one database', () => {
  let one: TestApp;
  let two: TestApp;
  let form: PaymentForm;

  beforeAll(async () => {
    const databaseUrl = sharedDatabaseUrl();
    one = await startTestApp({ DATABASE_URL: databaseUrl });
    await connectGateway(one, 'gateway_a', 'test');
    form = await createPaymentForm(one);
    two = await startTestApp({ DATABASE_URL: databaseUrl }, { keepDatabase: true });
  });
  afterAll(async () => {
    await two?.close();
    await one?.close();
  });

  const sync = (t: TestApp, key: string) =>
    request(t.http).post(`${t.base}/payment/sync-details`).set('Idempotency-Key', key).send({ form_id: form.id, payment_gateway: 'gateway_a', payment_method: 'ccard' });

  it('answers a repeat on the other instance with the same payment', async () => {
    const before = await countPayments(one);
    const first = await sync(one, 'two-instances-1');
    const repeat = await sync(two, 'two-instances-1');
    expect([first.status, repeat.status]).toEqual([201, 201]);
    expect(repeat.body.payment_id).toBe(first.body.payment_id);
    expect(repeat.headers['idempotent-replayed']).toBe('true');
    expect(await countPayments(two)).toBe(before + 1);
  });

  it('makes one record of simultaneous duplicates on both instances', async () => {
    const before = await countPayments(one);
    const answers = await Promise.all([sync(one, 'two-instances-2'), sync(two, 'two-instances-2'), sync(one, 'two-instances-2'), sync(two, 'two-instances-2')]);
    const created = answers.filter((res) => res.status === 201);
    expect(created.length).toBeGreaterThanOrEqual(1);
    expect(new Set(created.map((res) => res.body.payment_id)).size).toBe(1);
    for (const res of answers.filter((answer) => answer.status !== 201)) {
      expect(res.status).toBe(409);
      expect(res.body.code).toBe('checkout_idempotency_in_progress');
    }
    expect(await countPayments(one)).toBe(before + 1);
  });
});

describe('Idempotency-Key on POST /gateway-a/payment-intent-or-setup', () => {
  let bed: GatewayATestBed;
  let form: PaymentForm;
  const t = () => bed.t;

  beforeAll(async () => {
    bed = await startGatewayATestBed({ RATE_LIMIT_NEW_PAYMENT: '10000', RATE_LIMIT_PUBLIC_PAYMENT: '10000' });
    form = await createPaymentForm(bed.t);
    const landing = await connectThroughProxy(bed, 'test');
    expect(landing.searchParams.get('gateway_a_webhook')).toBe('verified');
    await bed.t.app.get(GatewayStateService).setActiveMethods('gateway_a', ['ccard', 'sepa']);
  });
  afterAll(() => bed.close());

  it('answers a repeat with the intent the first created, read back from the gateway: no second create, no stored client secret', async () => {
    const record = await createRecord(t(), form);
    bed.fake.clearRequests();
    const first = await createIntent(t(), record).set('Idempotency-Key', 'intent-1');
    expect(first.status).toBe(200);
    expect(bed.fake.requestsTo('POST', '/v1/payment_intents')).toHaveLength(1);

    bed.fake.clearRequests();
    const repeat = await createIntent(t(), record).set('Idempotency-Key', 'intent-1');
    expect(repeat.status).toBe(200);
    expect(repeat.headers['idempotent-replayed']).toBe('true');
    expect(repeat.body).toEqual(first.body);
    // One read of that intent; no create, no customer look-up.
    expect(bed.fake.requests.map((r) => `${r.method} ${r.path}`)).toEqual([`GET /v1/payment_intents/${first.body.intent_id}`]);

    const row = await keyRow(t(), 'intent-1');
    expect(row).toMatchObject({ route: 'gateway-a/payment-intent-or-setup', state: 'completed', result: JSON.stringify({ payment_id: record.sync.payment_id, intent_id: first.body.intent_id }) });
    expect(JSON.stringify(row)).not.toContain(first.body.client_secret);
    expect(JSON.stringify(row)).not.toContain(record.sync.payment_secret);

    // A repeat after the payment completed still answers the intent (now succeeded); without the key the route refuses a new intent.
    bed.fake.resources.setIntentStatus(first.body.intent_id, 'succeeded');
    expect((await request(t().http).post(`${t().base}/gateway-a/checkout`).send(record.reference)).body.status).toBe('completed');
    const late = await createIntent(t(), record).set('Idempotency-Key', 'intent-1');
    expect(late.status).toBe(200);
    expect(late.body).toMatchObject({ intent_id: first.body.intent_id, client_secret: first.body.client_secret, requires_action: false });
    expect((await createIntent(t(), record)).status).toBe(409);
  });

  it('opens no intent for a form that was unpublished (409, no gateway call), with or without a key', async () => {
    const own = await createPaymentForm(t());
    const record = await createRecord(t(), own);
    await unpublish(t(), own);
    bed.fake.requests.length = 0;
    for (const key of ['intent-unpublished', undefined]) {
      const req = createIntent(t(), record);
      const res = await (key ? req.set('Idempotency-Key', key) : req);
      expect(res.status).toBe(409);
      expectWpError(res.body, 'checkout_invalid_state', 409);
    }
    expect(bed.fake.requests).toHaveLength(0);
    // Its status can still be read.
    expect((await request(t().http).post(`${t().base}/payment/status`).send(record.reference)).status).toBe(200);
  });

  it('refuses a replay of an intent opened before the form was unpublished (409, no client secret), yet that intent is finalised by the checkout route and by its webhook', async () => {
    const own = await createPaymentForm(t());
    const byCheckout = await createRecord(t(), own);
    const byWebhook = await createRecord(t(), own);
    const opened = await createIntent(t(), byCheckout).set('Idempotency-Key', 'intent-before-unpublish');
    expect(opened.status).toBe(200);
    const other = await createIntent(t(), byWebhook);
    expect(other.status).toBe(200);
    await unpublish(t(), own);

    bed.fake.clearRequests();
    const replay = await createIntent(t(), byCheckout).set('Idempotency-Key', 'intent-before-unpublish');
    expect(replay.status).toBe(409);
    expectWpError(replay.body, 'checkout_invalid_state', 409);
    expect(JSON.stringify(replay.body)).not.toContain(opened.body.client_secret);
    expect(bed.fake.requests).toHaveLength(0);

    // The payer who already confirmed it finishes: the checkout route reads it back and completes the record.
    bed.fake.resources.setIntentStatus(opened.body.intent_id, 'succeeded');
    const finished = await finishCheckout(t(), byCheckout);
    expect(finished.status).toBe(200);
    expect(finished.body.status).toBe('completed');

    // And the provider's event still applies to an intent opened before.
    const paid = bed.fake.resources.setIntentStatus(other.body.intent_id, 'succeeded');
    const secret = (await t().app.get(GatewayAContractService).getSigningSecret('test'))!;
    const { body, signature } = signedEvent('payment_intent.succeeded', paid, secret);
    const delivered = await request(t().http).post(`${t().base}/webhook/gateway-a-callback/test`).set('Content-Type', 'application/json').set('Gateway-A-Signature', signature).send(body);
    expect(delivered.body).toEqual({ received: true, outcome: 'processed' });
    expect(await paymentRow(t(), byWebhook.sync.payment_id)).toMatchObject({ status: 'completed' });
  });

  it('answers the same key with another body (save the card) 422 and calls no gateway', async () => {
    const record = await createRecord(t(), form);
    const first = await createIntent(t(), record).set('Idempotency-Key', 'intent-2');
    expect(first.status).toBe(200);
    bed.fake.clearRequests();
    const other = await createIntent(t(), record, { save_payment_method: true }).set('Idempotency-Key', 'intent-2');
    expect(other.status).toBe(422);
    expectWpError(other.body, 'checkout_idempotency_mismatch', 422);
    expect(bed.fake.requests).toHaveLength(0);
    expect((await paymentRow(t(), record.sync.payment_id)).provider_payment_ref).toBe(first.body.intent_id);
  });

  it('answers a repeat while the gateway still creates the first 409 with Retry-After, then one intent', async () => {
    const record = await createRecord(t(), form);
    bed.fake.clearRequests();
    bed.fake.latencyMs = 800;
    try {
      const firstAnswer = createIntent(t(), record).set('Idempotency-Key', 'intent-3').then((res) => res);
      await new Promise((resolve) => setTimeout(resolve, 300));
      const second = await createIntent(t(), record).set('Idempotency-Key', 'intent-3');
      expect(second.status).toBe(409);
      expectWpError(second.body, 'checkout_idempotency_in_progress', 409);
      expect(second.headers['retry-after']).toBe('1');
      const first = await firstAnswer;
      expect(first.status).toBe(200);
    } finally {
      bed.fake.latencyMs = 0;
    }
    expect(bed.fake.requestsTo('POST', '/v1/payment_intents')).toHaveLength(1);
  });
});

describe('Idempotency-Key on POST /gateway-b/order', () => {
  let bed: GatewayBTestBed;
  let t: TestApp;
  let sandbox: FakeGatewayB;
  let form: PaymentForm;

  beforeAll(async () => {
    bed = await startGatewayBTestBed({ GATEWAY_TIMEOUT_MS: '3000' });
    t = bed.t;
    sandbox = bed.sandbox;
    await connectGatewayB(bed, 'test');
    form = await createPaymentForm(t, { plans: [{ title: 'Payment', prices: [{ amount: 1999, currency: 'USD', frequency: 'one-time' }] }] });
  });
  afterAll(() => bed.close());
  beforeEach(() => {
    sandbox.clearCalls();
    sandbox.clearFaults();
  });

  it('answers a repeat with the order the first created, read back: one create at the gateway', async () => {
    const record = await createGatewayBRecord(t, form);
    const first = await createOrder(t, record).set('Idempotency-Key', 'order-1');
    expect(first.status).toBe(200);
    sandbox.approveOrder(first.body.order_id);

    const repeat = await createOrder(t, record).set('Idempotency-Key', 'order-1');
    expect(repeat.status).toBe(200);
    expect(repeat.headers['idempotent-replayed']).toBe('true');
    // The order as it is now: approved, so no approval link any more.
    expect(repeat.body).toEqual({ ...first.body, order_status: 'APPROVED', approve_url: null });
    expect(sandbox.callsTo('POST', '/v2/checkout/orders')).toHaveLength(1);
    expect(sandbox.callsTo('GET', `/v2/checkout/orders/${first.body.order_id}`)).toHaveLength(1);
    expect(await keyRow(t, 'order-1')).toMatchObject({ route: 'gateway-b/order', result: JSON.stringify({ payment_id: record.sync.payment_id, order_id: first.body.order_id }) });
  });

  it('opens no order for a form that was unpublished (409, no gateway call), but captures an order opened before', async () => {
    const own = await createPaymentForm(t, { plans: [{ title: 'Payment', prices: [{ amount: 1999, currency: 'USD', frequency: 'one-time' }] }] });
    const opened = await createGatewayBRecord(t, own);
    const order = await createOrder(t, opened);
    expect(order.status).toBe(200);
    sandbox.approveOrder(order.body.order_id);
    const late = await createGatewayBRecord(t, own);
    await unpublish(t, own);
    sandbox.clearCalls();

    const refused = await createOrder(t, late).set('Idempotency-Key', 'order-unpublished');
    expect(refused.status).toBe(409);
    expectWpError(refused.body, 'checkout_invalid_state', 409);
    expect(sandbox.callsTo('POST', '/v2/checkout/orders')).toHaveLength(0);

    const captured = await captureOrder(t, opened, order.body.order_id);
    expect(captured.status).toBe(200);
    expect(captured.body.status).toBe('completed');
  });

  it('answers a repeat while the gateway still creates the first 409 with Retry-After; after it, the same order', async () => {
    const record = await createGatewayBRecord(t, form);
    sandbox.fault({ method: 'POST', path: '/v2/checkout/orders', delayMs: 800 });
    const firstAnswer = createOrder(t, record).set('Idempotency-Key', 'order-2').then((res) => res);
    await new Promise((resolve) => setTimeout(resolve, 300));
    const second = await createOrder(t, record).set('Idempotency-Key', 'order-2');
    expect(second.status).toBe(409);
    expectWpError(second.body, 'checkout_idempotency_in_progress', 409);
    expect(second.headers['retry-after']).toBe('1');
    const first = await firstAnswer;
    expect(first.status).toBe(200);
    const third = await createOrder(t, record).set('Idempotency-Key', 'order-2');
    expect(third.body.order_id).toBe(first.body.order_id);
    expect(sandbox.callsTo('POST', '/v2/checkout/orders')).toHaveLength(1);
  });

  it('frees the key when the gateway fails, so the retry creates the order', async () => {
    const record = await createGatewayBRecord(t, form);
    sandbox.fault({ method: 'POST', path: '/v2/checkout/orders', status: 500, times: 2 });
    const failed = await createOrder(t, record).set('Idempotency-Key', 'order-3');
    expect(failed.status).toBe(502);
    expect(await keyRow(t, 'order-3')).toBeUndefined();
    const retried = await createOrder(t, record).set('Idempotency-Key', 'order-3');
    expect(retried.status).toBe(200);
    expect(retried.headers['idempotent-replayed']).toBeUndefined();
    expect(await paymentRow(t, record.sync.payment_id)).toMatchObject({ provider_payment_ref: retried.body.order_id });
  });
});
