import { Logger } from '@nestjs/common';
import request from 'supertest';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { expectWpError } from '../support/http.js';
import { TagsService } from '../../src/modules/tagging/tags.service.js';

describe('error shapes and operational routes', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ BODY_LIMIT_BYTES: '2048' });
  });
  afterAll(() => t.close());

  it('answers 404 rest_no_route for an unknown route and for an unknown method', async () => {
    const unknown = await request(t.http).get(`${t.base}/nothing-here`);
    expect(unknown.status).toBe(404);
    expectWpError(unknown.body, 'rest_no_route', 404);
    const wrongMethod = await request(t.http).patch(`${t.base}/settings`).set('Authorization', t.admin.auth);
    expect(wrongMethod.status).toBe(404);
    expectWpError(wrongMethod.body, 'rest_no_route', 404);
  });

  it('names the rule that failed: a missing field is required, a null one must not be null, a bad one says why', async () => {
    const missing = await request(t.http).post(`${t.base}/payment/sync-details`).send({ form_id: 1, payment_gateway: 'gateway_a' });
    expect(missing.status).toBe(400);
    expect(expectWpError(missing.body, 'rest_missing_callback_param', 400).data.params).toEqual({ payment_method: 'payment_method is required' });
    const nulled = await request(t.http).post(`${t.base}/payment/sync-details`).send({ form_id: 1, payment_gateway: 'gateway_a', payment_method: null });
    expect(expectWpError(nulled.body, 'rest_missing_callback_param', 400).data.params).toEqual({ payment_method: 'payment_method must not be null' });
    const tooLong = await request(t.http).post(`${t.base}/payment/sync-details`).send({ form_id: 1, payment_gateway: 'gateway_a', payment_method: 'x'.repeat(41) });
    expect(expectWpError(tooLong.body, 'rest_invalid_param', 400).data.params).toEqual({ payment_method: expect.stringMatching(/shorter than or equal to 40/) });
  });

  it('answers 400 rest_invalid_json for a body that is not JSON', async () => {
    const res = await request(t.http).post(`${t.base}/tags`).set('Authorization', t.admin.auth).set('Content-Type', 'application/json').send('{"tag":');
    expect(res.status).toBe(400);
    expectWpError(res.body, 'rest_invalid_json', 400);
  });

  it('answers 400 rest_invalid_json for a JSON body that is not an object', async () => {
    const res = await request(t.http).post(`${t.base}/tags`).set('Authorization', t.admin.auth).set('Content-Type', 'application/json').send('["a"]');
    expect(res.status).toBe(400);
    expectWpError(res.body, 'rest_invalid_json', 400);
  });

  it('answers 413 for a body over the limit and stores nothing', async () => {
    const res = await request(t.http).post(`${t.base}/tags`).set('Authorization', t.admin.auth).send({ tag: 'x'.repeat(4000) });
    expect(res.status).toBe(413);
    expectWpError(res.body, 'checkout_payload_too_large', 413);
    const tags = await request(t.http).get(`${t.base}/tags`).set('Authorization', t.admin.auth);
    expect(tags.body).toEqual([]);
  });

  it('names every bad field in data.params and refuses unknown fields', async () => {
    const res = await request(t.http)
      .post(`${t.base}/settings`)
      .set('Authorization', t.admin.auth)
      .send({ currency: 'XYZ', debug_mode: 'maybe', surprise: 1 });
    expect(res.status).toBe(400);
    const body = expectWpError(res.body, 'rest_invalid_param', 400);
    expect(Object.keys(body.data.params as object).sort()).toEqual(['currency', 'debug_mode', 'surprise']);
  });

  it('uses rest_missing_callback_param when required fields are missing', async () => {
    const res = await request(t.http).post(`${t.base}/tags`).set('Authorization', t.admin.auth).send({});
    expect(res.status).toBe(400);
    const body = expectWpError(res.body, 'rest_missing_callback_param', 400);
    expect(body.data.params).toHaveProperty('tag');
  });

  it('accepts form-encoded bodies', async () => {
    const res = await request(t.http).post(`${t.base}/tags`).set('Authorization', t.admin.auth).type('form').send('tag=from-a-form');
    expect(res.status).toBe(201);
  });

  it('answers 500 checkout_internal_error with an error id and no internals', async () => {
    const service = t.app.get(TagsService);
    const spy = jest.spyOn(service, 'list').mockRejectedValueOnce(new Error('SELECT * FROM secret_table failed: password=hunter2'));
    const logged = jest.spyOn(Logger.prototype, 'error');
    const res = await request(t.http).get(`${t.base}/tags`).set('Authorization', t.admin.auth).set('X-Request-Id', 'trace-unhandled-01');
    spy.mockRestore();
    const errorLines = [...logged.mock.calls];
    logged.mockRestore();
    expect(res.status).toBe(500);
    const body = expectWpError(res.body, 'checkout_internal_error', 500);
    expect(body.data.error_id).toMatch(/^[0-9a-f-]{36}$/);
    // The log line names the error id and the request id (service lines carry no request context).
    expect(errorLines).toContainEqual([
      expect.objectContaining({ error_id: body.data.error_id, request_id: 'trace-unhandled-01', method: 'GET', path: `${t.base}/tags` }),
      'unhandled error',
    ]);
    expect(JSON.stringify(res.body)).not.toMatch(/secret_table|hunter2|stack/);
  });

  it('serves /healthz and /readyz outside the namespace with a request id', async () => {
    const health = await request(t.http).get('/healthz');
    expect(health.status).toBe(200);
    expect(health.body).toEqual({ status: 'ok' });
    expect(health.headers['x-request-id']).toMatch(/.{8,}/);
    const ready = await request(t.http).get('/readyz').set('X-Request-Id', 'trace-1234567');
    expect(ready.status).toBe(200);
    expect(ready.headers['x-request-id']).toBe('trace-1234567');
  });
});

describe('deeply nested bodies (default body limit)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

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
});
