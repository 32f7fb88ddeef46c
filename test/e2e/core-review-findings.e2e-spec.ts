import request from 'supertest';
import { expectWpError } from '../support/http.js';
import { validSettings } from '../support/form-fixtures.js';
import { getRepositoryToken } from '@nestjs/typeorm';
import type { Repository } from 'typeorm';
import { ApplicationPasswordEntity } from '../../src/modules/identity/application-password.entity.js';
import { basicAuth, startTestApp, type TestApp } from '../support/test-app.js';

/**
 * Regression tests for bugs found in a review of the admin side: settings, forms, identity,
 * tags and the shared validation. Each case failed before its fix.
 */
describe('core review findings', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  it('concurrent POST /settings of different fields keep every change (no lost update)', async () => {
    for (let round = 0; round < 8; round += 1) {
      await request(t.http).delete(`${t.base}/settings`).set('Authorization', t.admin.auth).expect(200);
      await Promise.all(
        [{ currency: 'EUR' }, { debug_mode: true }, { payment_gateway: 'gateway_b' }, { api_key: 'sk_test_concurrent_4242' }].map((body) =>
          request(t.http).post(`${t.base}/settings`).set('Authorization', t.admin.auth).send(body).expect(200),
        ),
      );
      const read = await request(t.http).get(`${t.base}/settings`).set('Authorization', t.admin.auth);
      expect(read.body).toEqual({ currency: 'EUR', payment_gateway: 'gateway_b', debug_mode: true, api_key: 'sk_test_…4242' });
    }
  });

  it('answers a deeply nested JSON body 400 rest_invalid_json, not 500 (class-transformer recursion)', async () => {
    const depth = 20000;
    for (const [path, auth] of [['/tags', t.admin.auth], ['/payment/sync-details', undefined]] as const) {
      const req = request(t.http).post(`${t.base}${path}`).set('Content-Type', 'application/json');
      if (auth) req.set('Authorization', auth);
      const res = await req.send(`{"tag":${'['.repeat(depth)}${']'.repeat(depth)}}`);
      expect(res.status).toBe(400);
      expectWpError(res.body, 'rest_invalid_json', 400);
    }
  });

  describe('null in an optional field is refused, never stored or crashed on', () => {
    it('POST /settings with null values answers 400 and keeps the stored settings', async () => {
      await request(t.http).delete(`${t.base}/settings`).set('Authorization', t.admin.auth).expect(200);
      const res = await request(t.http).post(`${t.base}/settings`).set('Authorization', t.admin.auth).send({ currency: null, payment_gateway: null, debug_mode: null });
      expect(res.status).toBe(400);
      expect(res.body.code).toMatch(/^rest_(invalid|missing_callback)_param$/);
      expect(Object.keys(res.body.data.params).sort()).toEqual(['currency', 'debug_mode', 'payment_gateway']);
      const read = await request(t.http).get(`${t.base}/settings`).set('Authorization', t.admin.auth);
      expect(read.body).toEqual({ currency: 'USD', payment_gateway: 'gateway_a', debug_mode: false, api_key: null });
    });

    it('POST /settings with api_key null answers 400, not 500', async () => {
      const res = await request(t.http).post(`${t.base}/settings`).set('Authorization', t.admin.auth).send({ api_key: null });
      expect(res.status).toBe(400);
      expect(res.body.data.params).toHaveProperty('api_key');
    });

    it('PUT of a form with a null title or status answers 400, not 500', async () => {
      const created = await request(t.http).post(`${t.base}/administration/payment-forms`).set('Authorization', t.admin.auth).send({ title: 'Form', settings: validSettings() });
      expect(created.status).toBe(201);
      for (const body of [{ title: null }, { status: null }, { settings: null }]) {
        const res = await request(t.http).put(`${t.base}/administration/payment-forms/${created.body.id}`).set('Authorization', t.admin.auth).send(body);
        expect(res.status).toBe(400);
        expect(res.body.data.params).toHaveProperty(Object.keys(body)[0]);
      }
      const read = await request(t.http).get(`${t.base}/administration/payment-forms/${created.body.id}`).set('Authorization', t.admin.auth);
      expect(read.body).toEqual(expect.objectContaining({ title: 'Form', status: 'draft', settings: validSettings() }));
    });

    it('refuses null optional settings (setup_amount, display keys) instead of storing them', async () => {
      const settings = validSettings() as unknown as { plans: Array<{ prices: Array<Record<string, unknown>> }>; display: Record<string, unknown> };
      settings.plans[1].prices[0].setup_amount = null;
      settings.display.button_label = null;
      const res = await request(t.http).post(`${t.base}/administration/payment-forms`).set('Authorization', t.admin.auth).send({ title: 'Nulls', settings });
      expect(res.status).toBe(400);
      expect(Object.keys(res.body.data.params).sort()).toEqual(['settings.display.button_label', 'settings.plans.1.prices.0.setup_amount']);
    });
  });
});

describe('failed-login limiter under a burst of parallel guesses', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ RATE_LIMIT_FAILED_LOGIN: '3', RATE_LIMIT_FAILED_LOGIN_WINDOW_SECONDS: '60' });
  });
  afterAll(() => t.close());

  it('checks at most the limit of passwords, even when the guesses arrive all at once', async () => {
    const guesses = await Promise.all(
      Array.from({ length: 30 }, (_, i) => request(t.http).get(`${t.base}/plugin/info`).set('Authorization', basicAuth('admin', `wrong-guess-${i}`))),
    );
    const checked = guesses.filter((res) => res.status === 401).length;
    expect(guesses.filter((res) => res.status === 429)).toHaveLength(30 - checked);
    expect(checked).toBeLessThanOrEqual(3);
    const blocked = await request(t.http).get(`${t.base}/plugin/info`).set('Authorization', t.admin.auth);
    expectWpError(blocked.body, 'checkout_rate_limited', 429);
  });
});

describe('failed-login limiter and parallel valid logins', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ RATE_LIMIT_FAILED_LOGIN: '2', RATE_LIMIT_FAILED_LOGIN_WINDOW_SECONDS: '60' });
  });
  afterAll(() => t.close());

  it('lets more parallel requests with the right password through than the limit counts', async () => {
    const answers = await Promise.all(Array.from({ length: 12 }, () => request(t.http).get(`${t.base}/plugin/info`).set('Authorization', t.admin.auth)));
    expect(answers.map((res) => res.status)).toEqual(Array(12).fill(200));
  });
});

describe('password check timing', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ RATE_LIMIT_FAILED_LOGIN: '1000' });
  });
  afterAll(() => t.close());

  it('does the same database work for an unknown login as for a known login with a wrong password', async () => {
    const passwords = t.app.get<Repository<ApplicationPasswordEntity>>(getRepositoryToken(ApplicationPasswordEntity));
    const lookups = jest.spyOn(passwords, 'findOne');
    try {
      await request(t.http).get(`${t.base}/plugin/info`).set('Authorization', basicAuth('admin', 'wrong-password-for-admin')).expect(401);
      const forKnownLogin = lookups.mock.calls.length;
      lookups.mockClear();
      await request(t.http).get(`${t.base}/plugin/info`).set('Authorization', basicAuth('no-such-user', 'wrong-password-for-admin')).expect(401);
      expect(forKnownLogin).toBe(1);
      // Otherwise the missing query makes unknown logins answer measurably faster (login enumeration).
      expect(lookups.mock.calls.length).toBe(forKnownLogin);
    } finally {
      lookups.mockRestore();
    }
  });
});
