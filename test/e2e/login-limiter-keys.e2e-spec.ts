import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import request from 'supertest';
import { expectWpError } from '../support/http.js';
import { basicAuth, startTestApp, type TestApp } from '../support/test-app.js';

const REDIS_URL = process.env.REDIS_URL || 'redis://127.0.0.1:6379';

/** A failed (or, with the right password, successful) admin login from `address`, as the trusted proxy reports it. */
function login(t: TestApp, address: string, auth = basicAuth('admin', `wrong-${randomUUID()}`)) {
  return request(t.http).get(`${t.base}/plugin/info`).set('X-Forwarded-For', address).set('Authorization', auth);
}

function describeKeys(store: 'memory' | 'redis', env: () => Record<string, string>) {
  describe(`failed-login limiter keys (${store})`, () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await startTestApp({ TRUST_PROXY: 'true', RATE_LIMIT_FAILED_LOGIN: '10', RATE_LIMIT_FAILED_LOGIN_WINDOW_SECONDS: '120', ...env() });
    });
    afterAll(() => t.close());

    it('counts the addresses of one IPv6 /64 as one client', async () => {
      const statuses: number[] = [];
      for (let i = 0; i < 30; i += 1) statuses.push((await login(t, `2001:db8:0:7:${((i * 7919) % 0xffff).toString(16)}::${(i + 1).toString(16)}`)).status);
      expect(statuses.slice(0, 10)).toEqual(Array(10).fill(401));
      expect(statuses.slice(10)).toEqual(Array(20).fill(429));
      // Even the right password waits for the window to end.
      const blocked = await login(t, '2001:db8:0:7:ffff::1', t.admin.auth);
      expect(blocked.status).toBe(429);
      expectWpError(blocked.body, 'checkout_rate_limited', 429);
      // The next /64 is another client.
      expect((await login(t, '2001:db8:0:8::1', t.admin.auth)).status).toBe(200);
    });

    it('counts an IPv4 address and its IPv4-mapped IPv6 form as one client', async () => {
      for (let i = 0; i < 5; i += 1) expect((await login(t, '192.0.2.44')).status).toBe(401);
      for (let i = 0; i < 5; i += 1) expect((await login(t, '::ffff:192.0.2.44')).status).toBe(401);
      expect((await login(t, '192.0.2.44', t.admin.auth)).status).toBe(429);
      expect((await login(t, '::ffff:c000:22c', t.admin.auth)).status).toBe(429);
      expect((await login(t, '192.0.2.45', t.admin.auth)).status).toBe(200);
    });
  });
}

describeKeys('memory', () => ({}));

const prefix = `checkout-test:${randomUUID()}:`;
describeKeys('redis', () => ({ REDIS_URL, REDIS_KEY_PREFIX: prefix }));

afterAll(async () => {
  const cleaner = new Redis(REDIS_URL);
  try {
    const keys = await cleaner.keys(`${prefix}*`);
    if (keys.length) await cleaner.del(...keys);
  } finally {
    cleaner.disconnect();
  }
});
