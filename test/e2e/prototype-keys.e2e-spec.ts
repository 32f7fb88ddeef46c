import { Logger } from '@nestjs/common';
import request from 'supertest';
import { signedEvent } from '../fakes/gateway-a/index.js';
import { expectWpError } from '../support/http.js';
import { connectGateway, createPaymentForm, referenceOf, type SyncAnswer } from '../support/payment-fixtures.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

/** Bodies and queries whose field names reach into JavaScript's object machinery. */
describe('__proto__, constructor and prototype as field names', () => {
  let t: TestApp;
  let reference: ReturnType<typeof referenceOf>;
  let errorLog: jest.SpyInstance;

  beforeAll(async () => {
    t = await startTestApp({ RATE_LIMIT_PUBLIC_PAYMENT: '1000' });
    await connectGateway(t, 'gateway_a', 'test');
    const form = await createPaymentForm(t);
    const created = await request(t.http).post(`${t.base}/payment/sync-details`).send({ form_id: form.id, payment_gateway: 'gateway_a', payment_method: 'ccard' });
    expect(created.status).toBe(201);
    reference = referenceOf(created.body as SyncAnswer, form.id);
  });
  beforeEach(() => {
    errorLog = jest.spyOn(Logger.prototype, 'error');
  });
  afterEach(() => {
    // Refused as the client's mistake: nothing reaches the error log.
    expect(errorLog).not.toHaveBeenCalled();
    jest.restoreAllMocks();
  });
  afterAll(() => t.close());

  function expectRefused(res: request.Response, field: string): void {
    expect(res.status).toBe(400);
    const body = expectWpError(res.body, 'rest_invalid_param', 400);
    expect(Object.keys(body.data.params as object)).toEqual([field]);
  }

  const json = (path: string, text: string, auth?: string) => {
    const req = request(t.http).post(`${t.base}${path}`).set('Content-Type', 'application/json');
    if (auth) req.set('Authorization', auth);
    return req.send(text);
  };

  describe.each(['/payment/status', '/gateway-a/payment-intent-or-setup', '/gateway-a/checkout'])('on the payment-reference route %s', (path) => {
    it.each([
      ['nested constructor', (ref: object) => ({ ...ref, extra: { constructor: 1 } }), 'extra.constructor'],
      ['nested constructor object', (ref: object) => ({ ...ref, extra: { constructor: { prototype: { x: 1 } } } }), 'extra.constructor'],
      ['top-level constructor', (ref: object) => ({ ...ref, constructor: { a: 1 } }), 'constructor'],
      ['top-level prototype', (ref: object) => ({ ...ref, prototype: 1 }), 'prototype'],
      ['constructor inside an array', (ref: object) => ({ ...ref, list: [{ ok: 1 }, { constructor: 'x' }] }), 'list.1.constructor'],
    ])('answers 400 for a %s, not 500', async (_label, build, field) => {
      expectRefused(await json(path, JSON.stringify(build(reference))), field);
    });

    it('answers 400 for a JSON __proto__ key', async () => {
      const text = JSON.stringify(reference).replace('{', '{"__proto__":{"polluted":true},');
      expectRefused(await json(path, text), '__proto__');
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    });
  });

  it('answers 400 for custom_fields.constructor on sync-details', async () => {
    const res = await request(t.http)
      .post(`${t.base}/payment/sync-details`)
      .send({ form_id: reference.form_id, payment_gateway: 'gateway_a', payment_method: 'ccard', custom_fields: { constructor: 'x' } });
    expectRefused(res, 'custom_fields.constructor');
  });

  it('refuses instead of silently dropping such keys on admin routes (JSON)', async () => {
    expectRefused(await json('/settings', JSON.stringify({ debug_mode: true, constructor: { x: 1 } }), t.admin.auth), 'constructor');
    expect((await request(t.http).get(`${t.base}/settings`).set('Authorization', t.admin.auth)).body.debug_mode).toBe(false);
  });

  it.each([
    ['__proto__[x]=1&debug_mode=true', '__proto__'],
    ['debug_mode=true&constructor[prototype][x]=1', 'constructor'],
    ['a[prototype]=1', 'a.prototype'],
    ['%5F%5Fproto%5F%5F%5Bx%5D=1&debug_mode=true', '__proto__'],
    ['debug_mode=true&__proto__=1', '__proto__'],
  ])('refuses the form-encoded body %s', async (body, field) => {
    const res = await request(t.http).post(`${t.base}/settings`).set('Authorization', t.admin.auth).type('form').send(body);
    expectRefused(res, field);
    expect((await request(t.http).get(`${t.base}/settings`).set('Authorization', t.admin.auth)).body.debug_mode).toBe(false);
  });

  it.each([
    ['constructor[x]=1', 'constructor'],
    ['__proto__[y]=2', '__proto__'],
    ['page=1&per_page=5&prototype=3', 'prototype'],
  ])('refuses the query string %s', async (query, field) => {
    expectRefused(await request(t.http).get(`${t.base}/payment/history?${query}`).set('Authorization', t.admin.auth), field);
  });

  it('refuses them in the query of the parameterless GET routes too (the 400 their OpenAPI operations declare)', async () => {
    for (const path of ['/healthz', '/readyz', `${t.base}/gateway-a/webhook`]) {
      expect((await request(t.http).get(path)).status).toBe(200);
      expectRefused(await request(t.http).get(`${path}?constructor=1`), 'constructor');
      const { paths } = (await request(t.http).get('/docs-json')).body as { paths: Record<string, { get: { responses: Record<string, unknown> } }> };
      expect(Object.keys(paths[path.replace(t.base, '')].get.responses)).toContain('400');
    }
  });

  it('accepts those words as values', async () => {
    const res = await request(t.http).post(`${t.base}/tags`).set('Authorization', t.admin.auth).send({ tag: 'constructor' });
    expect(res.status).toBe(201);
    expect((await request(t.http).post(`${t.base}/payment/status`).send(reference)).status).toBe(200);
  });

  it('leaves signed webhooks alone: a provider event may carry such keys in metadata someone else wrote', async () => {
    const secret = 'whsec_prototypekeystestsecret0123456789';
    const saved = await request(t.http)
      .post(`${t.base}/payment-gateway/save-webhook-settings`)
      .set('Authorization', t.admin.auth)
      .send({ gateway: 'gateway_a', mode: 'test', signing_secret: secret, manual_configuration_complete: true });
    expect(saved.status).toBe(200);
    const object = { id: 'pi_foreign_1', object: 'payment_intent', amount: 1000, currency: 'usd', status: 'succeeded', metadata: { constructor: 'x', prototype: 'y' } };
    const { body, signature } = signedEvent('payment_intent.succeeded', object, secret, { id: 'evt_prototype_keys_1' });
    const res = await request(t.http)
      .post(`${t.base}/webhook/gateway-a-callback/test`)
      .set('Content-Type', 'application/json')
      .set('Gateway-A-Signature', signature)
      .send(body);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ received: true, outcome: 'ignored' });
  });
});
