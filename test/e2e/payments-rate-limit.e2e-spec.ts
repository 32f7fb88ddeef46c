import request from 'supertest';
import type { PaymentForm } from '../../src/modules/forms/index.js';
import { expectWpError } from '../support/http.js';
import { connectGateway, createPaymentForm, referenceOf, type SyncAnswer } from '../support/payment-fixtures.js';
import { redisNamespace } from '../support/redis.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

async function checkoutReady(t: TestApp): Promise<PaymentForm> {
  await connectGateway(t, 'gateway_a', 'test');
  return createPaymentForm(t);
}

function creation(t: TestApp, form: PaymentForm, forwardedFor?: string) {
  const req = request(t.http).post(`${t.base}/payment/sync-details`);
  if (forwardedFor) req.set('X-Forwarded-For', forwardedFor);
  return req.send({ form_id: form.id, payment_gateway: 'gateway_a', payment_method: 'ccard' });
}

function expectRateLimited(res: request.Response, maxSeconds: number): void {
  expect(res.status).toBe(429);
  expectWpError(res.body, 'checkout_rate_limited', 429);
  const retryAfter = Number(res.headers['retry-after']);
  expect(retryAfter).toBeGreaterThan(0);
  expect(retryAfter).toBeLessThanOrEqual(maxSeconds);
  expect(res.body.data.retry_after).toBe(retryAfter);
}

async function countPayments(t: TestApp): Promise<number> {
  const [{ n }] = await t.dataSource.query(`SELECT COUNT(*) AS n FROM ${t.config.tablePrefix}checkout_payments`);
  return Number(n);
}

describe('rate limits of the public payment routes (in memory)', () => {
  let t: TestApp;
  let form: PaymentForm;
  beforeAll(async () => {
    t = await startTestApp();
    form = await checkoutReady(t);
  });
  afterAll(() => t.close());

  it('allows 10 new rows per client IP in 10 minutes; the 11th is 429 with Retry-After and writes nothing', async () => {
    const answers: SyncAnswer[] = [];
    for (let i = 0; i < 10; i += 1) {
      // Without TRUST_PROXY a forged X-Forwarded-For changes nothing: the socket address counts.
      const res = await creation(t, form, `203.0.113.${i}`);
      expect(res.status).toBe(201);
      answers.push(res.body);
    }
    const refused = await creation(t, form, '198.51.100.1');
    expectRateLimited(refused, 600);
    expect(await countPayments(t)).toBe(10);

    // Updates of existing rows count against the public limit, not the creation one.
    const update = await request(t.http)
      .post(`${t.base}/payment/sync-details`)
      .send({ payment_id: answers[0].payment_id, payment_secret: answers[0].payment_secret, form_id: form.id, payment_gateway: 'gateway_a', payment_method: 'sepa' });
    expect(update.status).toBe(200);
    const status = await request(t.http).post(`${t.base}/payment/status`).send(referenceOf(update.body, form.id, 'gateway_a', 'sepa'));
    expect(status.status).toBe(200);
  });

  it('does not limit admin routes', async () => {
    for (let i = 0; i < 3; i += 1) {
      expect((await request(t.http).get(`${t.base}/payment/history`).set('Authorization', t.admin.auth)).status).toBe(200);
    }
  });
});

describe('rate limits behind a trusted proxy', () => {
  let t: TestApp;
  let form: PaymentForm;
  beforeAll(async () => {
    t = await startTestApp({ TRUST_PROXY: 'true', RATE_LIMIT_NEW_PAYMENT: '3', RATE_LIMIT_NEW_PAYMENT_WINDOW_SECONDS: '120' });
    form = await checkoutReady(t);
  });
  afterAll(() => t.close());

  it('counts per client address from X-Forwarded-For', async () => {
    for (let i = 0; i < 3; i += 1) expect((await creation(t, form, '192.0.2.10')).status).toBe(201);
    expectRateLimited(await creation(t, form, '192.0.2.10'), 120);
    expect((await creation(t, form, '192.0.2.11')).status).toBe(201);
    // IPv4-mapped IPv6 is the same client.
    expectRateLimited(await creation(t, form, '::ffff:192.0.2.10'), 120);
  });

  it('believes only the proxy in front: an address the client prepends itself is not its key', async () => {
    // The proxy appends the address it saw (192.0.2.10, already limited); the forged first entry changes nothing.
    expectRateLimited(await creation(t, form, '198.51.100.7, 192.0.2.10'), 120);
  });
});

describe('the public payment limit', () => {
  let t: TestApp;
  let form: PaymentForm;
  beforeAll(async () => {
    t = await startTestApp({ RATE_LIMIT_PUBLIC_PAYMENT: '5', RATE_LIMIT_PUBLIC_PAYMENT_WINDOW_SECONDS: '60' });
    form = await checkoutReady(t);
  });
  afterAll(() => t.close());

  it('is shared by every public payment route of one client, and refuses before the reference is checked', async () => {
    const created: SyncAnswer = (await creation(t, form)).body;
    const reference = referenceOf(created, form.id);
    for (let i = 0; i < 3; i += 1) expect((await request(t.http).post(`${t.base}/payment/status`).send(reference)).status).toBe(200);
    // A refused reference counts too: guessing secrets is limited like anything else.
    expect((await request(t.http).post(`${t.base}/payment/status`).send({ ...reference, payment_secret: 'guess' })).status).toBe(403);
    const update = await request(t.http)
      .post(`${t.base}/payment/sync-details`)
      .send({ payment_id: created.payment_id, payment_secret: created.payment_secret, form_id: form.id, payment_gateway: 'gateway_a', payment_method: 'ccard' });
    expect(update.status).toBe(200);

    expectRateLimited(await request(t.http).post(`${t.base}/payment/status`).send(reference), 60);
    expectRateLimited(
      await request(t.http)
        .post(`${t.base}/payment/sync-details`)
        .send({ payment_id: created.payment_id, payment_secret: created.payment_secret, form_id: form.id, payment_gateway: 'gateway_a', payment_method: 'ccard' }),
      60,
    );
    // Creation has its own budget.
    expect((await creation(t, form)).status).toBe(201);
  });
});

describe('rate limits shared by two instances through Redis', () => {
  // Every key of this run lives under its own prefix (ioredis reads keyPrefix from the URL).
  const redis = redisNamespace('payment-limits');
  let first: TestApp;
  let second: TestApp;
  let firstForm: PaymentForm;
  let secondForm: PaymentForm;

  beforeAll(async () => {
    // Both boot before any data is written: on MySQL they share (and the second empties) one database.
    first = await startTestApp({ REDIS_URL: redis.url });
    second = await startTestApp({ REDIS_URL: redis.url });
    firstForm = await checkoutReady(first);
    secondForm = await checkoutReady(second);
  });
  afterAll(async () => {
    await first?.close();
    await second?.close();
    await redis.clear();
  });

  it('counts new rows of one client across both instances', async () => {
    for (let i = 0; i < 5; i += 1) expect((await creation(first, firstForm)).status).toBe(201);
    for (let i = 0; i < 5; i += 1) expect((await creation(second, secondForm)).status).toBe(201);
    expectRateLimited(await creation(first, firstForm), 600);
    expectRateLimited(await creation(second, secondForm), 600);
  });

  it('keeps the counters in Redis under the run’s prefix', async () => {
    const keys = await redis.keys();
    expect(keys.some((key) => key.includes('checkout:rate-limit:new_payment:'))).toBe(true);
  });
});
