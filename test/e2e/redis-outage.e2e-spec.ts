import { Logger } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import request from 'supertest';
import { expectWpError } from '../support/http.js';
import { TEST_REDIS_URL } from '../support/redis.js';
import { closedPort, TcpProxy } from '../support/tcp-proxy.js';
import { basicAuth, startTestApp, type TestApp } from '../support/test-app.js';

// The suite's Redis (REDIS_URL, or the one the run started: test/support/test-redis.js).
const REDIS_HOST = new URL(TEST_REDIS_URL).hostname;
const REDIS_PORT = Number(new URL(TEST_REDIS_URL).port || 6379);

interface LogSpies {
  down: () => number;
  up: () => number;
  unhandled: () => number;
}

/** Counts the connection-state log lines and ioredis's "Unhandled error event" console output. */
function spyOnLogs(): LogSpies {
  const warn = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
  const log = jest.spyOn(Logger.prototype, 'log').mockImplementation(() => undefined);
  const consoleError = jest.spyOn(console, 'error').mockImplementation(() => undefined);
  const count = (spy: jest.SpyInstance, pattern: RegExp) => spy.mock.calls.filter((call) => (call as unknown[]).some((arg) => typeof arg === 'string' && pattern.test(arg))).length;
  return {
    down: () => count(warn, /Redis is unreachable/),
    up: () => count(log, /Redis is reachable again/),
    unhandled: () => count(consoleError, /Unhandled error event/),
  };
}

async function eventually<T>(probe: () => Promise<T>, accept: (value: T) => boolean, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (accept(value) || Date.now() > deadline) return value;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

function expectUnavailable(res: request.Response): void {
  expect(res.status).toBe(503);
  expectWpError(res.body, 'checkout_unavailable', 503);
  expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
  expect(JSON.stringify(res.body)).not.toMatch(/ECONNREFUSED|ioredis|stack|127\.0\.0\.1/);
}

/** A request timed: [response, milliseconds]. */
async function timed(send: () => request.Test): Promise<[request.Response, number]> {
  const started = Date.now();
  const res = await send();
  return [res, Date.now() - started];
}

const syncDetails = (t: TestApp) => request(t.http).post(`${t.base}/payment/sync-details`).send({ form_id: 1, payment_gateway: 'gateway_a', payment_method: 'ccard' });
const paymentStatus = (t: TestApp) => request(t.http).post(`${t.base}/payment/status`).send({ payment_id: 1 });
const adminRead = (t: TestApp) => request(t.http).get(`${t.base}/settings`).set('Authorization', t.admin.auth);

describe('REDIS_URL set but Redis unreachable from the start', () => {
  let t: TestApp;
  let logs: LogSpies;
  beforeAll(async () => {
    logs = spyOnLogs();
    t = await startTestApp({ REDIS_URL: `redis://${REDIS_HOST}:${await closedPort()}` });
  });
  afterAll(async () => {
    await t.close();
    jest.restoreAllMocks();
  });

  it('answers admin requests 503 checkout_unavailable with Retry-After at once, never 500 (failed-login limiter fails closed)', async () => {
    for (const auth of [t.admin.auth, basicAuth('admin', 'wrong-password')]) {
      const [res, ms] = await timed(() => request(t.http).get(`${t.base}/settings`).set('Authorization', auth));
      expectUnavailable(res);
      expect(ms).toBeLessThan(500);
    }
    // Without credentials nothing needs Redis.
    expect((await request(t.http).get(`${t.base}/settings`)).status).toBe(401);
  });

  it('answers rate-limited public routes 503 at once, before anything else runs', async () => {
    for (const send of [syncDetails, paymentStatus]) {
      const [res, ms] = await timed(() => send(t));
      expectUnavailable(res);
      expect(ms).toBeLessThan(500);
    }
    // Routes without a limit do not depend on Redis.
    expect((await request(t.http).get(`${t.base}/gateway-a/webhook`)).status).toBe(200);
  });

  it('is not ready, naming redis; liveness stays ok', async () => {
    const ready = await request(t.http).get('/readyz');
    expect(ready.status).toBe(503);
    const body = expectWpError(ready.body, 'checkout_unavailable', 503);
    expect(body.message).toContain('redis');
    expect(body.data.unavailable).toEqual(['redis']);
    expect((await request(t.http).get('/healthz')).status).toBe(200);
  });

  it('handles the client’s error events: one log line for the outage, no unhandled-error output', async () => {
    await new Promise((resolve) => setTimeout(resolve, 1500)); // several reconnect attempts
    for (let i = 0; i < 5; i += 1) await adminRead(t);
    expect(logs.down()).toBe(1);
    expect(logs.unhandled()).toBe(0);
  });
});

describe('Redis going away and coming back while the service runs', () => {
  const prefix = `checkout-test:${randomUUID()}:`;
  const proxy = new TcpProxy(REDIS_HOST, REDIS_PORT);
  let t: TestApp;
  let logs: LogSpies;
  beforeAll(async () => {
    logs = spyOnLogs();
    await proxy.start();
    t = await startTestApp({ REDIS_URL: `redis://${REDIS_HOST}:${proxy.port}/0`, REDIS_KEY_PREFIX: prefix });
  });
  afterAll(async () => {
    await t.close();
    await proxy.stop();
    jest.restoreAllMocks();
    const cleaner = new Redis(REDIS_PORT, REDIS_HOST);
    try {
      const keys = await cleaner.keys(`${prefix}*`);
      if (keys.length) await cleaner.del(...keys);
    } finally {
      cleaner.disconnect();
    }
  });

  it('serves, refuses with 503 during the outage, recovers without a restart, and logs each change once', async () => {
    expect((await adminRead(t)).status).toBe(200);
    expect((await request(t.http).get('/readyz')).status).toBe(200);
    expect(logs.down()).toBe(0);

    await proxy.stop();
    expect((await eventually(() => request(t.http).get('/readyz'), (res) => res.status === 503)).status).toBe(503);
    for (let i = 0; i < 5; i += 1) {
      const [res, ms] = await timed(() => adminRead(t));
      expectUnavailable(res);
      expect(ms).toBeLessThan(500);
    }
    expectUnavailable(await syncDetails(t));

    await proxy.start();
    expect((await eventually(() => adminRead(t), (res) => res.status === 200)).status).toBe(200);
    expect((await request(t.http).get('/readyz')).status).toBe(200);
    expect((await syncDetails(t)).status).not.toBe(503);

    await proxy.stop();
    expect((await eventually(() => adminRead(t), (res) => res.status === 503)).status).toBe(503);
    await new Promise((resolve) => setTimeout(resolve, 1500)); // reconnect attempts while down
    await proxy.start();
    expect((await eventually(() => adminRead(t), (res) => res.status === 200)).status).toBe(200);

    expect(logs.down()).toBe(2);
    expect(logs.up()).toBe(2);
    expect(logs.unhandled()).toBe(0);
  });

  it('answers 503 within about a second when Redis stops answering but keeps the connection open', async () => {
    expect((await adminRead(t)).status).toBe(200);
    proxy.freeze();
    try {
      const [res, ms] = await timed(() => adminRead(t));
      expectUnavailable(res);
      expect(ms).toBeLessThan(2500);
      expect((await request(t.http).get('/readyz')).status).toBe(503);
    } finally {
      await proxy.stop();
      await proxy.start();
    }
    expect((await eventually(() => adminRead(t), (res) => res.status === 200)).status).toBe(200);
  });
});
