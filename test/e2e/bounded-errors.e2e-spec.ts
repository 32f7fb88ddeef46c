import * as classTransformer from 'class-transformer';
import request from 'supertest';
import { expectWpError } from '../support/http.js';
import { connectGateway, createPaymentForm, referenceOf, type SyncAnswer } from '../support/payment-fixtures.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

function junk(count: number): Record<string, number> {
  const body: Record<string, number> = {};
  for (let i = 0; i < count; i += 1) body[`k${i}`] = 1;
  return body;
}

/** The largest number of keys any object handed to class-transformer had during `run`. */
async function widestTransform(run: () => Promise<unknown>): Promise<number> {
  let widest = 0;
  const original = classTransformer.plainToInstance;
  const spy = jest.spyOn(classTransformer, 'plainToInstance').mockImplementation(((cls: never, plain: unknown, options: never) => {
    if (plain && typeof plain === 'object') widest = Math.max(widest, Object.keys(plain).length);
    return original(cls, plain as never, options);
  }) as typeof classTransformer.plainToInstance);
  try {
    await run();
  } finally {
    spy.mockRestore();
  }
  return widest;
}

describe('error bodies stay small whatever the request holds', () => {
  let t: TestApp;
  let reference: ReturnType<typeof referenceOf>;

  beforeAll(async () => {
    t = await startTestApp({ RATE_LIMIT_PUBLIC_PAYMENT: '1000' });
    await connectGateway(t, 'gateway_a', 'test');
    const form = await createPaymentForm(t);
    const created = await request(t.http).post(`${t.base}/payment/sync-details`).send({ form_id: form.id, payment_gateway: 'gateway_a', payment_method: 'ccard' });
    reference = referenceOf(created.body as SyncAnswer, form.id);
  });
  afterAll(() => t.close());

  it('names 10 of 6,000 unknown fields and counts the rest, without copying them into the DTO', async () => {
    let res!: request.Response;
    const widest = await widestTransform(async () => {
      res = await request(t.http).post(`${t.base}/settings`).set('Authorization', t.admin.auth).send(junk(6000));
    });
    expect(res.status).toBe(400);
    const body = expectWpError(res.body, 'rest_invalid_param', 400);
    expect(Object.keys(body.data.params as object)).toHaveLength(10);
    expect(body.data.params).toHaveProperty('k0', 'property k0 should not exist');
    expect(body.data.more_params).toBe(5990);
    expect(body.message).toMatch(/and 5990 more$/);
    expect(res.text.length).toBeLessThan(2000);
    expect(widest).toBeLessThan(10);
  });

  it('does the same on a public payment route, whose reference guard copies only the reference fields', async () => {
    let res!: request.Response;
    const widest = await widestTransform(async () => {
      res = await request(t.http).post(`${t.base}/payment/status`).send({ ...reference, ...junk(6000) });
    });
    expect(res.status).toBe(400);
    const body = expectWpError(res.body, 'rest_invalid_param', 400);
    expect(Object.keys(body.data.params as object)).toHaveLength(10);
    expect(body.data.more_params).toBe(5990);
    expect(res.text.length).toBeLessThan(2000);
    expect(widest).toBeLessThanOrEqual(Object.keys(reference).length);
  });

  it('still reports the invalid declared fields next to the unknown ones', async () => {
    const res = await request(t.http)
      .post(`${t.base}/settings`)
      .set('Authorization', t.admin.auth)
      .send({ currency: 'XYZ', debug_mode: 'maybe', ...junk(3) });
    const body = expectWpError(res.body, 'rest_invalid_param', 400);
    expect(Object.keys(body.data.params as object).sort()).toEqual(['currency', 'debug_mode', 'k0', 'k1', 'k2']);
    expect(body.data).not.toHaveProperty('more_params');
  });

  it('caps nested problems too (unknown keys inside a nested settings object)', async () => {
    const res = await request(t.http)
      .post(`${t.base}/administration/payment-forms`)
      .set('Authorization', t.admin.auth)
      .send({ title: 'Nested junk', settings: { display: junk(3000) } });
    expect(res.status).toBe(400);
    const body = expectWpError(res.body, 'rest_invalid_param', 400);
    expect(Object.keys(body.data.params as object).length).toBeLessThanOrEqual(10);
    expect(Number(body.data.more_params)).toBeGreaterThan(2990);
    expect(res.text.length).toBeLessThan(2000);
  });

  it('keeps rest_missing_callback_param when every problem is a missing field', async () => {
    const res = await request(t.http).post(`${t.base}/tags`).set('Authorization', t.admin.auth).send({});
    const body = expectWpError(res.body, 'rest_missing_callback_param', 400);
    expect(body.data).toHaveProperty('params.tag');
  });
});
