import request from 'supertest';
import { expectWpError } from '../support/http.js';
import { connectGateway, createPaymentForm } from '../support/payment-fixtures.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

const SHOP = 'https://shop.example';
const ADMIN_UI = 'http://localhost:5173';
const EVIL = 'https://attacker.example';

describe('CORS for CORS_ORIGINS on the REST namespace', () => {
  let t: TestApp;
  let formId: number;
  beforeAll(async () => {
    t = await startTestApp({ CORS_ORIGINS: `${SHOP},${ADMIN_UI}`, BODY_LIMIT_BYTES: '4096' });
    formId = (await createPaymentForm(t)).id;
    await connectGateway(t, 'gateway_a');
  });
  afterAll(() => t.close());

  const preflight = (path: string, origin: string, method: string, headers = 'content-type') =>
    request(t.http)
      .options(`${t.base}${path}`)
      .set('Origin', origin)
      .set('Access-Control-Request-Method', method)
      .set('Access-Control-Request-Headers', headers);

  it('answers the preflight of a public checkout route for an allowed shop origin, without credentials or Authorization', async () => {
    const res = await preflight('/payment/sync-details', SHOP, 'POST');
    expect(res.status).toBe(204);
    expect(res.headers['access-control-allow-origin']).toBe(SHOP);
    expect(res.headers['access-control-allow-methods']).toBe('POST');
    expect(res.headers['access-control-allow-headers']).toBe('Content-Type, X-Request-Id, Idempotency-Key');
    expect(res.headers['access-control-allow-credentials']).toBeUndefined();
    expect(res.headers['access-control-max-age']).toBe('600');
    expect(res.headers.vary).toMatch(/Origin/);
  });

  it('lets the shop page call sync-details and read the answer (and the errors)', async () => {
    const created = await request(t.http)
      .post(`${t.base}/payment/sync-details`)
      .set('Origin', SHOP)
      .set('Sec-Fetch-Site', 'cross-site')
      .send({ form_id: formId, payment_gateway: 'gateway_a', payment_method: 'ccard' });
    expect(created.status).toBe(201);
    expect(created.body).toEqual(expect.objectContaining({ payment_id: expect.any(Number), amount: 1000 }));
    expect(created.headers['access-control-allow-origin']).toBe(SHOP);
    expect(created.headers['access-control-expose-headers']).toContain('X-Request-Id');
    expect(created.headers['access-control-allow-credentials']).toBeUndefined();

    // A retried creation with an Idempotency-Key: the page can send the key and read that the answer is a replay.
    const keyed = () =>
      request(t.http)
        .post(`${t.base}/payment/sync-details`)
        .set('Origin', SHOP)
        .set('Idempotency-Key', 'cors-retry-1')
        .send({ form_id: formId, payment_gateway: 'gateway_a', payment_method: 'ccard' });
    const first = await keyed();
    const retried = await keyed();
    expect(retried.status).toBe(201);
    expect(retried.body.payment_id).toBe(first.body.payment_id);
    expect(retried.headers['idempotent-replayed']).toBe('true');
    expect(retried.headers['access-control-expose-headers']).toContain('Idempotent-Replayed');

    const invalid = await request(t.http).post(`${t.base}/payment/sync-details`).set('Origin', SHOP).send({ form_id: formId, payment_gateway: 'gateway_a' });
    expect(invalid.status).toBe(400);
    expect(invalid.headers['access-control-allow-origin']).toBe(SHOP);
    // Refused by the body parser, before any route: still readable by the page.
    const tooLarge = await request(t.http)
      .post(`${t.base}/payment/sync-details`)
      .set('Origin', SHOP)
      .send({ form_id: formId, payment_gateway: 'gateway_a', payment_method: 'ccard', first_name: 'x'.repeat(5000) });
    expect(tooLarge.status).toBe(413);
    expectWpError(tooLarge.body, 'checkout_payload_too_large', 413);
    expect(tooLarge.headers['access-control-allow-origin']).toBe(SHOP);
  });

  it('sends no CORS headers to an origin that is not listed', async () => {
    const pre = await preflight('/payment/sync-details', EVIL, 'POST');
    expect(pre.status).not.toBe(204);
    expect(pre.headers['access-control-allow-origin']).toBeUndefined();
    const call = await request(t.http).post(`${t.base}/payment/sync-details`).set('Origin', EVIL).send({ form_id: formId, payment_gateway: 'gateway_a', payment_method: 'ccard' });
    expect(call.headers['access-control-allow-origin']).toBeUndefined();
    expect(call.headers.vary).toMatch(/Origin/);
    // An origin is matched exactly: no suffix or scheme tricks.
    expect((await preflight('/payment/sync-details', `${SHOP}.attacker.example`, 'POST')).headers['access-control-allow-origin']).toBeUndefined();
    expect((await preflight('/payment/sync-details', 'http://shop.example', 'POST')).headers['access-control-allow-origin']).toBeUndefined();
  });

  it('allows Authorization on admin routes for an allowed origin; the cross-site check still refuses any other origin', async () => {
    const pre = await preflight('/plugin/info', ADMIN_UI, 'GET', 'authorization');
    expect(pre.status).toBe(204);
    expect(pre.headers['access-control-allow-headers']).toBe('Content-Type, X-Request-Id, Idempotency-Key, Authorization');
    expect(pre.headers['access-control-allow-credentials']).toBeUndefined();

    const allowed = await request(t.http).get(`${t.base}/plugin/info`).set('Origin', ADMIN_UI).set('Sec-Fetch-Site', 'cross-site').set('Authorization', t.admin.auth);
    expect(allowed.status).toBe(200);
    expect(allowed.headers['access-control-allow-origin']).toBe(ADMIN_UI);

    const foreign = await request(t.http).get(`${t.base}/plugin/info`).set('Origin', EVIL).set('Sec-Fetch-Site', 'cross-site').set('Authorization', t.admin.auth);
    expect(foreign.status).toBe(403);
    expectWpError(foreign.body, 'rest_cross_site_request', 403);
    expect(foreign.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('lists every method of a path in the preflight, and matches path parameters', async () => {
    const status = await preflight('/payment/status', SHOP, 'POST');
    expect(status.status).toBe(204);
    // POST /payment/status is the payer's (payment reference), GET the admin's: both methods are listed.
    expect(status.headers['access-control-allow-methods'].split(', ').sort()).toEqual(['GET', 'POST']);
    expect(status.headers['access-control-allow-headers']).not.toContain('Authorization');
    const form = await preflight(`/administration/payment-forms/${formId}`, ADMIN_UI, 'PUT', 'authorization,content-type');
    expect(form.status).toBe(204);
    expect(form.headers['access-control-allow-methods'].split(', ').sort()).toEqual(['DELETE', 'GET', 'PUT']);
  });

  it('gives signed webhook routes (called by providers, not browsers) and unknown routes no CORS', async () => {
    const webhook = await preflight('/webhook/gateway-a-callback/test', SHOP, 'POST');
    expect(webhook.headers['access-control-allow-origin']).toBeUndefined();
    const unknown = await preflight('/nothing-here', SHOP, 'GET');
    expect(unknown.status).toBe(404);
    expect(unknown.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('sends no CORS headers at all by default (CORS_ORIGINS unset)', async () => {
    const plain = await startTestApp();
    try {
      const pre = await request(plain.http)
        .options(`${plain.base}/payment/sync-details`)
        .set('Origin', SHOP)
        .set('Access-Control-Request-Method', 'POST');
      expect(pre.headers['access-control-allow-origin']).toBeUndefined();
      const call = await request(plain.http).get(`${plain.base}/plugin/info`).set('Authorization', plain.admin.auth).set('Origin', SHOP);
      expect(call.status).toBe(403);
      expect(call.headers['access-control-allow-origin']).toBeUndefined();
    } finally {
      await plain.close();
    }
  });
});
