import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import request from 'supertest';
import { GatewayBSignatureVerifier } from '../../src/modules/gateway-b/webhook/gateway-b-signature.verifier.js';
import type { VerificationSlots } from '../../src/modules/gateway-b/webhook/verification-slots.js';
import { WebhookIntakeService } from '../../src/modules/webhooks/index.js';
import { WebhookEventRepository } from '../../src/modules/webhooks/webhook-event.repository.js';
import { buildEvent, type FakeGatewayB, type Json } from '../fakes/gateway-b/index.js';
import { connectGatewayB, createGatewayBRecord, createOrder, type GatewayBTestBed, startGatewayBTestBed } from '../support/gateway-b.js';
import { expectWpError } from '../support/http.js';
import { createPaymentForm } from '../support/payment-fixtures.js';
import { redisNamespace, TEST_REDIS_URL } from '../support/redis.js';
import { TcpProxy } from '../support/tcp-proxy.js';
import { installationIdOf, type TestApp } from '../support/test-app.js';
import { paymentRow } from '../support/app-state.js';

/** The verifier's slots (private): the test waits until deliveries are queued instead of guessing with a sleep. */
const slotsOf = (t: TestApp) => (t.app.get(GatewayBSignatureVerifier) as unknown as { slots: VerificationSlots }).slots;

/** Waits (polling, at most 10 s) until `done` holds. */
async function until(done: () => boolean): Promise<void> {
  const giveUpAt = Date.now() + 10_000;
  while (!done()) {
    if (Date.now() > giveUpAt) throw new Error('the condition did not hold within 10 s');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

type Delivery = { rawBody: Buffer; headers: Record<string, string> };

const VERIFY = '/v1/notifications/verify-webhook-signature';
const FAILURE_LIMIT = 3;

/** The bounds tested here, small; TRUST_PROXY so that each test names its client in X-Forwarded-For. */
const BOUNDS = {
  TRUST_PROXY: 'true',
  RATE_LIMIT_WEBHOOK_VERIFY_FAILURES: String(FAILURE_LIMIT),
  RATE_LIMIT_WEBHOOK_VERIFY_FAILURES_WINDOW_SECONDS: '600',
  GATEWAY_B_WEBHOOK_VERIFY_CONCURRENCY: '2',
  GATEWAY_TIMEOUT_MS: '10000',
};

let clients = 0;
/** A client address of its own for each use, so that counts never meet across tests. */
const newClient = () => `198.51.100.${++clients}`;

function post(t: TestApp, delivery: Delivery, client: string) {
  const req = request(t.http).post(`${t.base}/webhook/gateway-b-callback/test`).set('Content-Type', 'application/json').set('X-Forwarded-For', client);
  for (const [name, value] of Object.entries(delivery.headers)) req.set(name, value);
  return req.send(delivery.rawBody.toString('utf8'));
}

/** An event the service stores and ignores, with an id of its own. */
const otherEvent = (): Json => buildEvent('CHECKOUT.ORDER.APPROVED', 'checkout-order', { id: `ORDER${randomUUID().slice(0, 8)}`, status: 'APPROVED' }, 'An order has been approved by buyer');

/** Signed for other bytes (the same event without a space): well formed, and the provider says FAILURE. */
function forged(fake: FakeGatewayB, event: Json = otherEvent()): Delivery {
  const { rawBody, headers } = fake.webhookDelivery(event);
  return { rawBody: Buffer.from(`{ ${rawBody.toString('utf8').slice(1)}`), headers };
}

function expectRateLimited(res: request.Response): void {
  expect(res.status).toBe(429);
  expectWpError(res.body, 'checkout_rate_limited', 429);
  const retryAfter = Number(res.headers['retry-after']);
  expect(retryAfter).toBeGreaterThan(0);
  expect(retryAfter).toBeLessThanOrEqual(600);
}

function setUp(env: Record<string, string> = {}) {
  const ctx = {} as { bed: GatewayBTestBed; t: TestApp; sandbox: FakeGatewayB };
  beforeAll(async () => {
    ctx.bed = await startGatewayBTestBed({ ...BOUNDS, ...env });
    ctx.t = ctx.bed.t;
    ctx.sandbox = ctx.bed.sandbox;
    await connectGatewayB(ctx.bed, 'test');
  });
  afterAll(() => ctx.bed.close());
  beforeEach(() => {
    ctx.sandbox.clearCalls();
    ctx.sandbox.clearFaults();
  });
  return ctx;
}

const storedEvents = (t: TestApp, eventId: string) =>
  t.dataSource.query(`SELECT status, event_type, payment_id, reason, processed_at FROM ${t.config.tablePrefix}checkout_webhook_events WHERE provider = 'gateway_b' AND event_id = ?`, [eventId]) as Promise<
    Array<Record<string, unknown>>
  >;

describe('gateway-B webhook verification is bounded before any provider call', () => {
  const ctx = setUp();
  const verifyCalls = () => ctx.sandbox.callsTo('POST', VERIFY).length;

  describe('PAYPAL-TRANSMISSION-TIME', () => {
    const client = newClient();
    it.each([
      ['six minutes old', () => new Date(Date.now() - 6 * 60_000)],
      ['six minutes ahead', () => new Date(Date.now() + 6 * 60_000)],
      ['from 2016', () => '2016-02-18T20:01:35Z'],
      ['not a date of the calendar', () => '2026-02-30T10:00:00Z'],
    ])('refuses a transmission time %s: 400, no provider call, nothing stored', async (_label, time) => {
      const event = otherEvent();
      const res = await post(ctx.t, ctx.sandbox.webhookDelivery(event, { transmissionTime: time() }), client);
      expect(res.status).toBe(400);
      expectWpError(res.body, 'checkout_invalid_signature', 400);
      expect(ctx.sandbox.apiCalls()).toEqual([]);
      expect(await storedEvents(ctx.t, event.id as string)).toEqual([]);
    });

    it('takes one within five minutes either way, and counted none of the refusals as failures', async () => {
      for (const offset of [-4 * 60_000, 4 * 60_000, 0, 0]) {
        const res = await post(ctx.t, ctx.sandbox.webhookDelivery(otherEvent(), { transmissionTime: new Date(Date.now() + offset) }), client);
        expect(res.status).toBe(200);
        expect(res.body).toEqual({ received: true, outcome: 'ignored' });
      }
      expect(verifyCalls()).toBe(4);
    });
  });

  describe('failed verifications per client', () => {
    it('stops costing provider calls after the limit; a genuine delivery from another client still passes', async () => {
      const attacker = newClient();
      for (let i = 0; i < FAILURE_LIMIT; i += 1) expectWpError((await post(ctx.t, forged(ctx.sandbox), attacker)).body, 'checkout_invalid_signature', 400);
      expect(verifyCalls()).toBe(FAILURE_LIMIT);
      for (let i = 0; i < 5; i += 1) expectRateLimited(await post(ctx.t, forged(ctx.sandbox), attacker));
      // A genuine delivery from that client waits too: the provider delivers it again later.
      const event = otherEvent();
      expectRateLimited(await post(ctx.t, ctx.sandbox.webhookDelivery(event), attacker));
      expect(verifyCalls()).toBe(FAILURE_LIMIT);
      expect(await storedEvents(ctx.t, event.id as string)).toEqual([]);

      const elsewhere = await post(ctx.t, ctx.sandbox.webhookDelivery(event), newClient());
      expect(elsewhere.body).toEqual({ received: true, outcome: 'ignored' });
      expect(verifyCalls()).toBe(FAILURE_LIMIT + 1);
      expect(await storedEvents(ctx.t, event.id as string)).toHaveLength(1);
    });

    it('holds under a parallel flood: at most limit + slots - 1 calls, the rest 429', async () => {
      const attacker = newClient();
      const answers = await Promise.all(Array.from({ length: 12 }, () => post(ctx.t, forged(ctx.sandbox), attacker)));
      const calls = verifyCalls();
      expect(calls).toBeGreaterThanOrEqual(FAILURE_LIMIT);
      expect(calls).toBeLessThanOrEqual(FAILURE_LIMIT + 1);
      expect(answers.filter((res) => res.status === 400)).toHaveLength(calls);
      answers.filter((res) => res.status !== 400).forEach(expectRateLimited);
    });

    it('never counts a successful verification', async () => {
      const client = newClient();
      for (let i = 0; i < FAILURE_LIMIT + 2; i += 1) expect((await post(ctx.t, ctx.sandbox.webhookDelivery(otherEvent()), client)).status).toBe(200);
      for (let i = 0; i < FAILURE_LIMIT; i += 1) expect((await post(ctx.t, forged(ctx.sandbox), client)).status).toBe(400);
      expect(verifyCalls()).toBe(2 * FAILURE_LIMIT + 2);
      expectRateLimited(await post(ctx.t, forged(ctx.sandbox), client));
    });
  });

  describe('an event id already stored', () => {
    it('is answered duplicate without a call, and an unproven body naming it changes nothing and learns nothing', async () => {
      const { t, sandbox } = ctx;
      const stored = otherEvent();
      expect((await post(t, sandbox.webhookDelivery(stored), newClient())).body).toEqual({ received: true, outcome: 'ignored' });
      const genuineRedelivery = await post(t, sandbox.webhookDelivery(stored), newClient());
      const rowBefore = await storedEvents(t, stored.id as string);
      sandbox.clearCalls();

      // A forgery reusing that id to complete a pending payment of this installation.
      const form = await createPaymentForm(t);
      const rec = await createGatewayBRecord(t, form);
      const orderId = (await createOrder(t, rec)).body.order_id as string;
      const paymentId = rec.sync.payment_id;
      const capture = buildEvent(
        'PAYMENT.CAPTURE.COMPLETED',
        'capture',
        {
          id: 'FORGEDCAPTURE0001',
          status: 'COMPLETED',
          amount: { currency_code: 'USD', value: '10.00' },
          custom_id: String(paymentId),
          invoice_id: `checkout-${installationIdOf(t)}-${paymentId}`,
          supplementary_data: { related_ids: { order_id: orderId } },
        },
        'forged',
        { id: stored.id as string },
      );
      const attacker = newClient();
      for (let i = 0; i < FAILURE_LIMIT; i += 1) expect((await post(t, forged(sandbox), attacker)).status).toBe(400);
      sandbox.clearCalls();
      const forgery = forged(sandbox, capture);
      for (const client of [attacker, newClient()]) {
        const res = await post(t, forgery, client);
        expect(res.status).toBe(200);
        expect(res.body).toEqual(genuineRedelivery.body);
        expect(res.body).toEqual({ received: true, outcome: 'duplicate' });
      }
      expect(sandbox.apiCalls()).toEqual([]);
      expect(await storedEvents(t, stored.id as string)).toEqual(rowBefore);
      expect(await paymentRow(t, paymentId)).toMatchObject({ status: 'pending', provider_capture_ref: null, amount_received: null });
    });

    it('is verified as usual while it is not finished (an earlier attempt failed): only a proven delivery applies it', async () => {
      const { t, sandbox } = ctx;
      const event = otherEvent();
      const events = t.app.get(WebhookEventRepository);
      await events.recordEventOnce({ provider: 'gateway_b', eventId: event.id as string, type: event.event_type as string, mode: 'test' });
      expectWpError((await post(t, forged(sandbox, event), newClient())).body, 'checkout_invalid_signature', 400);
      expect(verifyCalls()).toBe(1);
      expect(await storedEvents(t, event.id as string)).toEqual([expect.objectContaining({ status: 'received' })]);
      expect((await post(t, sandbox.webhookDelivery(event), newClient())).body).toEqual({ received: true, outcome: 'ignored' });
      expect(verifyCalls()).toBe(2);
    });
  });

  describe('verdicts', () => {
    it('reuses a verdict only for the same five headers and the same raw body', async () => {
      const { t, sandbox } = ctx;
      const delivery = forged(sandbox);
      expect((await post(t, delivery, newClient())).status).toBe(400);
      expect((await post(t, delivery, newClient())).status).toBe(400);
      expect(verifyCalls()).toBe(1);

      const changed: Record<string, string> = {
        'PAYPAL-AUTH-ALGO': 'SHA512withRSA',
        'PAYPAL-CERT-URL': `${delivery.headers['PAYPAL-CERT-URL']}?v=2`,
        'PAYPAL-TRANSMISSION-ID': randomUUID(),
        'PAYPAL-TRANSMISSION-SIG': `${delivery.headers['PAYPAL-TRANSMISSION-SIG'].startsWith('A') ? 'B' : 'A'}${delivery.headers['PAYPAL-TRANSMISSION-SIG'].slice(1)}`,
        'PAYPAL-TRANSMISSION-TIME': new Date(Date.parse(delivery.headers['PAYPAL-TRANSMISSION-TIME']) + 1000).toISOString().replace(/\.\d{3}Z$/, 'Z'),
      };
      for (const [name, value] of Object.entries(changed)) {
        expect(value).not.toBe(delivery.headers[name]);
        expect((await post(t, { rawBody: delivery.rawBody, headers: { ...delivery.headers, [name]: value } }, newClient())).status).toBe(400);
      }
      expect((await post(t, { rawBody: Buffer.concat([delivery.rawBody, Buffer.from(' ')]), headers: delivery.headers }, newClient())).status).toBe(400);
      expect(verifyCalls()).toBe(1 + 5 + 1);
    });

    it('counts a reused FAILURE against the client like a fresh one', async () => {
      const client = newClient();
      const delivery = forged(ctx.sandbox);
      for (let i = 0; i < FAILURE_LIMIT; i += 1) expect((await post(ctx.t, delivery, client)).status).toBe(400);
      expectRateLimited(await post(ctx.t, forged(ctx.sandbox), client));
      expect(verifyCalls()).toBe(1);
    });

    it('lets concurrent copies of one genuine delivery share one provider call; one applies it', async () => {
      const event = otherEvent();
      const delivery = ctx.sandbox.webhookDelivery(event);
      const answers = await Promise.all(Array.from({ length: 5 }, () => post(ctx.t, delivery, newClient())));
      expect(answers.map((res) => res.status)).toEqual([200, 200, 200, 200, 200]);
      expect(answers.map((res) => res.body.outcome).sort()).toEqual(['duplicate', 'duplicate', 'duplicate', 'duplicate', 'ignored']);
      expect(verifyCalls()).toBe(1);
    });

    it('reuses a SUCCESS for a redelivery while the event is still being applied elsewhere', async () => {
      const { t, sandbox } = ctx;
      const intake = t.app.get(WebhookIntakeService);
      const timing = intake.timing;
      intake.timing = { ...timing, waitForClaimMs: 200, pollMs: 20 };
      try {
        const event = otherEvent();
        const events = t.app.get(WebhookEventRepository);
        const recorded = await events.recordEventOnce({ provider: 'gateway_b', eventId: event.id as string, type: event.event_type as string, mode: 'test' });
        if (!recorded.recorded) throw new Error('not recorded');
        await events.claim(recorded.event.id, 'another-instance', new Date(), new Date(Date.now() + 60_000));
        const delivery = sandbox.webhookDelivery(event);
        for (let i = 0; i < 2; i += 1) expectWpError((await post(t, delivery, newClient())).body, 'checkout_unavailable', 503);
        expect(verifyCalls()).toBe(1);
        await events.release(recorded.event.id, 'another-instance', 'attempt failed: checkout_unavailable');
        expect((await post(t, delivery, newClient())).body).toEqual({ received: true, outcome: 'ignored' });
        expect(verifyCalls()).toBe(1);
      } finally {
        intake.timing = timing;
      }
    });
  });

  describe('concurrent verifications (GATEWAY_B_WEBHOOK_VERIFY_CONCURRENCY=2)', () => {
    it('lets a burst beyond the bound wait for a slot instead of refusing it', async () => {
      ctx.sandbox.fault({ method: 'POST', path: VERIFY, delayMs: 400, times: 4 });
      const started = Date.now();
      const answers = await Promise.all(Array.from({ length: 4 }, () => post(ctx.t, ctx.sandbox.webhookDelivery(otherEvent()), newClient())));
      expect(answers.map((res) => res.status)).toEqual([200, 200, 200, 200]);
      // Two at a time: two rounds of 400 ms.
      expect(Date.now() - started).toBeGreaterThanOrEqual(780);
      expect(verifyCalls()).toBe(4);
    });

    it('answers 503 with Retry-After, without a call, when no slot comes free in time or too many wait', async () => {
      ctx.sandbox.fault({ method: 'POST', path: VERIFY, delayMs: 6000, times: 2 });
      const holders = [0, 1].map(() => post(ctx.t, ctx.sandbox.webhookDelivery(otherEvent()), newClient()).then((res) => res));
      await until(() => verifyCalls() === 2);
      // 16 may wait (8 per slot), for 3 s at most; the 17th is refused at once.
      const started = Date.now();
      const waiting = Array.from({ length: 16 }, () => post(ctx.t, ctx.sandbox.webhookDelivery(otherEvent()), newClient()).then((res) => res));
      // Every one of them queued (not a fixed sleep: on a loaded machine requests arrive late).
      await until(() => slotsOf(ctx.t).queued === 16);
      const [overflow, overflowMs] = await (async () => {
        const at = Date.now();
        const res = await post(ctx.t, ctx.sandbox.webhookDelivery(otherEvent()), newClient());
        return [res, Date.now() - at] as const;
      })();
      expect(overflowMs).toBeLessThan(1000);
      for (const res of [overflow, ...(await Promise.all(waiting))]) {
        expect(res.status).toBe(503);
        expectWpError(res.body, 'checkout_unavailable', 503);
        expect(res.headers['retry-after']).toBe('10');
      }
      expect(Date.now() - started).toBeGreaterThanOrEqual(2900);
      expect(verifyCalls()).toBe(2);
      expect((await Promise.all(holders)).map((res) => res.status)).toEqual([200, 200]);
      // The slots are free again.
      expect((await post(ctx.t, ctx.sandbox.webhookDelivery(otherEvent()), newClient())).status).toBe(200);
    }, 20_000);
  });
});

describe('failed verifications counted in Redis (REDIS_URL)', () => {
  const redis = redisNamespace('gbverify');
  const ctx = setUp(redis.env);
  afterAll(() => redis.clear());

  it('shares the count through Redis and never stores a success', async () => {
    const client = newClient();
    expect((await post(ctx.t, ctx.sandbox.webhookDelivery(otherEvent()), client)).status).toBe(200);
    expect(await redis.keys()).toEqual([]);
    for (let i = 0; i < FAILURE_LIMIT; i += 1) expect((await post(ctx.t, forged(ctx.sandbox), client)).status).toBe(400);
    const key = `${redis.prefix}webhook-verify-failures:${client}`;
    const raw = new Redis(TEST_REDIS_URL);
    try {
      expect(await raw.get(key)).toBe(String(FAILURE_LIMIT));
      expect(await raw.pttl(key)).toBeGreaterThan(590_000);
      expectRateLimited(await post(ctx.t, forged(ctx.sandbox), client));
      // Whatever the shared store says holds: another instance's reset is this one's.
      await raw.del(key);
      expect((await post(ctx.t, forged(ctx.sandbox), client)).status).toBe(400);
      expect(await raw.get(key)).toBe('1');
    } finally {
      raw.disconnect();
    }
    expect(ctx.sandbox.callsTo('POST', VERIFY)).toHaveLength(1 + FAILURE_LIMIT + 1);
  });
});

describe('Redis unreachable: the local limit stands in, genuine deliveries keep flowing', () => {
  const proxy = new TcpProxy('127.0.0.1', 6379);
  const redis = redisNamespace('gbverify-down');
  const env: Record<string, string> = { REDIS_KEY_PREFIX: redis.prefix };
  beforeAll(async () => {
    await proxy.start();
    env.REDIS_URL = `redis://127.0.0.1:${proxy.port}`;
  });
  const ctx = setUp(env);
  afterAll(async () => {
    await proxy.stop();
    await redis.clear();
  });

  it('limits forgeries per client in memory and verifies genuine deliveries (no 503)', async () => {
    await proxy.stop();
    const deadline = Date.now() + 10_000;
    while ((await request(ctx.t.http).get('/readyz')).status !== 503 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
    expect((await request(ctx.t.http).get('/readyz')).status).toBe(503);

    const attacker = newClient();
    for (let i = 0; i < FAILURE_LIMIT; i += 1) expect((await post(ctx.t, forged(ctx.sandbox), attacker)).status).toBe(400);
    expectRateLimited(await post(ctx.t, forged(ctx.sandbox), attacker));
    expect(ctx.sandbox.callsTo('POST', VERIFY)).toHaveLength(FAILURE_LIMIT);
    const res = await post(ctx.t, ctx.sandbox.webhookDelivery(otherEvent()), newClient());
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ received: true, outcome: 'ignored' });
    // Payment routes, by contrast, fail closed while the shared counts cannot be read.
    expect((await request(ctx.t.http).post(`${ctx.t.base}/payment/status`).send({ payment_id: 1 })).status).toBe(503);
    expect(await redis.keys()).toEqual([]);
  });
});
