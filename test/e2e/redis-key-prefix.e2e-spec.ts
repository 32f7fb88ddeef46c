import { randomUUID } from 'node:crypto';
import { type Command, Redis } from 'ioredis';
import request from 'supertest';
import { RedisConnection } from '../../src/common/redis/index.js';
import type { PaymentForm } from '../../src/modules/forms/index.js';
import { connectGateway, createPaymentForm } from '../support/payment-fixtures.js';
import { basicAuth, startTestApp, type TestApp } from '../support/test-app.js';

const REDIS_URL = process.env.REDIS_URL || 'redis://127.0.0.1:6379';

/**
 * REDIS_KEY_PREFIX: two services (or installations) on one Redis, each under its own prefix, do
 * not share a counter, and every key each of them writes starts with its prefix.
 */
describe('REDIS_KEY_PREFIX on a Redis shared by two services', () => {
  const run = randomUUID();
  const prefixes = { a: `checkout-test-a:${run}:`, b: `checkout-test-b:${run}:` };
  const limits = { RATE_LIMIT_NEW_PAYMENT: '3', RATE_LIMIT_FAILED_LOGIN: '2' };
  const services: Record<'a' | 'b', { t: TestApp; form: PaymentForm; keys: string[] }> = {} as never;

  beforeAll(async () => {
    for (const name of ['a', 'b'] as const) {
      // On MariaDB both share the suite's database (the second keeps it); on SQLite each has its own.
      const t = await startTestApp({ REDIS_URL, REDIS_KEY_PREFIX: prefixes[name], ...limits }, { keepDatabase: name === 'b' });
      const keys: string[] = [];
      const client = t.app.get(RedisConnection).client!;
      const send = client.sendCommand.bind(client);
      jest.spyOn(client, 'sendCommand').mockImplementation((command: Command, ...rest) => {
        keys.push(...command.getKeys().map(String));
        return send(command, ...rest);
      });
      await connectGateway(t, 'gateway_a', 'test');
      services[name] = { t, form: await createPaymentForm(t), keys };
    }
  });
  afterAll(async () => {
    jest.restoreAllMocks();
    for (const service of Object.values(services)) await service.t.close();
    const cleaner = new Redis(REDIS_URL);
    try {
      for (const prefix of Object.values(prefixes)) {
        const keys = await cleaner.keys(`${prefix}*`);
        if (keys.length) await cleaner.del(...keys);
      }
    } finally {
      cleaner.disconnect();
    }
  });

  const create = (name: 'a' | 'b') =>
    request(services[name].t.http)
      .post(`${services[name].t.base}/payment/sync-details`)
      .send({ form_id: services[name].form.id, payment_gateway: 'gateway_a', payment_method: 'ccard' });
  const login = (name: 'a' | 'b', auth: string) => request(services[name].t.http).get(`${services[name].t.base}/plugin/info`).set('Authorization', auth);

  it('keeps the new-payment counts of the two services apart', async () => {
    for (let i = 0; i < 3; i += 1) expect((await create('a')).status).toBe(201);
    expect((await create('a')).status).toBe(429);
    // The same client at the other service still has its whole budget.
    for (let i = 0; i < 3; i += 1) expect((await create('b')).status).toBe(201);
    expect((await create('b')).status).toBe(429);
  });

  it('keeps the failed-login counts of the two services apart', async () => {
    for (let i = 0; i < 2; i += 1) expect((await login('a', basicAuth('admin', `wrong-${i}`))).status).toBe(401);
    expect((await login('a', services.a.t.admin.auth)).status).toBe(429);
    expect((await login('b', services.b.t.admin.auth)).status).toBe(200);
  });

  it('writes every key under the service’s own prefix', async () => {
    for (const name of ['a', 'b'] as const) {
      const { keys } = services[name];
      expect(keys.length).toBeGreaterThan(0);
      expect(keys.filter((key) => !key.startsWith(prefixes[name]))).toEqual([]);
    }
    const inspector = new Redis(REDIS_URL);
    try {
      const stored = await inspector.keys(`${prefixes.a}*`);
      expect(stored).toEqual(expect.arrayContaining([`${prefixes.a}failed-login:127.0.0.1`, `${prefixes.a}{rate-limit:new_payment:127.0.0.1:new_payment}:hits`]));
    } finally {
      inspector.disconnect();
    }
  });

  it('shares the counts of instances configured with the same prefix', async () => {
    const twin = await startTestApp({ REDIS_URL, REDIS_KEY_PREFIX: prefixes.a, ...limits }, { keepDatabase: true });
    try {
      expect((await request(twin.http).get(`${twin.base}/plugin/info`).set('Authorization', twin.admin.auth)).status).toBe(429);
    } finally {
      await twin.close();
    }
  });
});
