import request from 'supertest';
import { RouteInventory } from '../../src/common/auth/index.js';
import { expectWpError } from '../support/http.js';
import { createPaymentForm } from '../support/payment-fixtures.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

/**
 * Numeric path ids are canonical decimal integers on every route (docs/interface.md, "Path
 * parameters"): the API answers 400 `rest_invalid_param` naming the param for anything else, the
 * hosted page its 404 page. The routes come from the route inventory (the routes snapshot's
 * source), so a new route with an id in its path is held to this without editing the test.
 */
describe('numeric path ids on every route', () => {
  let t: TestApp;
  let formId: number;

  /** Written forms of 1 that are not `1`, plus values no id has (all path-encoded). */
  const NOT_IDS = ['0x1', '1e0', '1.0', '+1', '%201', '1%20', '01', '001', '-1', '0', '1_0', '%EF%BC%91', '1%00', '2147483648', '99999999999'];

  beforeAll(async () => {
    t = await startTestApp({ RATE_LIMIT_PUBLIC_PAYMENT: '10000' });
    formId = (await createPaymentForm(t)).id;
  });
  afterAll(() => t.close());

  const idRoutes = () =>
    t.app
      .get(RouteInventory)
      .list()
      .flatMap((route) => {
        const names = route.path.split('/').filter((part) => /^:(id|\w+_id)$/.test(part)).map((part) => part.slice(1));
        return names.length > 0 ? [{ ...route, names }] : [];
      });

  /**
   * The route's path with `value` for each id (or only for the id `only`, the others 1); API routes
   * under the REST base, the hosted page at the root.
   */
  const send = (route: { method: string; path: string; auth: string }, value: string, only?: string) => {
    const path = route.path.replace(/:(id|\w+_id)(?=\/|$)/g, (param) => (only === undefined || param === `:${only}` ? value : '1'));
    const url = route.path.startsWith('/pay/') ? path : `${t.base}${path}`;
    const method = (route.method === 'ALL' ? 'get' : route.method.toLowerCase()) as 'get' | 'post' | 'put' | 'delete';
    const call = request(t.http)[method](url);
    return route.auth.startsWith('admin') ? call.set('Authorization', t.admin.auth) : call;
  };

  it('finds the id routes of the interface (a route lost from the inventory would go untested)', () => {
    const found = idRoutes().map((route) => `${route.method} ${route.path}`);
    expect(found).toEqual(
      expect.arrayContaining([
        'GET /payment/form/:form_id',
        'GET /administration/payments/:id',
        'GET /administration/payment-forms/:id',
        'PUT /administration/payment-forms/:id',
        'DELETE /administration/payment-forms/:id',
        'GET /administration/payment-forms/:id/builder-data',
        'ALL /administration/payment-forms/:id/live-preview',
        'POST /administration/payment-forms/:id/test-email',
        'DELETE /tags/:tag_id',
        'GET /pay/:form_id',
      ]),
    );
  });

  it('answers 400 naming the param on every API route, for every other way of writing a number', async () => {
    const wrong: string[] = [];
    for (const route of idRoutes().filter((entry) => !entry.path.startsWith('/pay/'))) {
      // Each id of a route alone (a route with two ids refuses the first bad one it reads).
      for (const name of route.names) {
        for (const value of NOT_IDS) {
          const res = await send(route, value, name).send({});
          const params = (res.body?.data?.params ?? {}) as Record<string, string>;
          if (res.status !== 400 || res.body.code !== 'rest_invalid_param' || params[name] !== `${name} must be a positive integer`) {
            wrong.push(`${route.method} ${route.path} with ${name}=${value}: ${res.status} ${JSON.stringify(res.body)}`);
          }
        }
      }
    }
    expect(wrong).toEqual([]);
    // 15 spellings on every id route (the team routes added nine): more than the default 30 s on a busy machine.
  }, 120_000);

  it('takes the canonical form on every API route (not refused as an id)', async () => {
    for (const route of idRoutes().filter((entry) => !entry.path.startsWith('/pay/'))) {
      const res = await send(route, '2147483647').send({});
      const params = (res.body?.data?.params ?? {}) as Record<string, string>;
      for (const name of route.names) expect([route.path, params[name]]).toEqual([route.path, undefined]);
    }
    const form = await request(t.http).get(`${t.base}/payment/form/${formId}`);
    expect(form.status).toBe(200);
    expect(form.body.id ?? form.body.form_id).toBe(formId);
  });

  it('the public form read and the payment detail refuse 0x1, 1e0 and 1.0 for an id that exists', async () => {
    for (const value of [`0x${formId.toString(16)}`, `${formId}e0`, `${formId}.0`]) {
      const read = await request(t.http).get(`${t.base}/payment/form/${value}`);
      expect(expectWpError(read.body, 'rest_invalid_param', 400).data.params).toEqual({ form_id: 'form_id must be a positive integer' });
      const detail = await request(t.http).get(`${t.base}/administration/payments/${value}`).set('Authorization', t.admin.auth);
      expect(expectWpError(detail.body, 'rest_invalid_param', 400).data.params).toEqual({ id: 'id must be a positive integer' });
    }
  });

  it('the hosted page keeps its 404 page for every one of them, and shows the form at its canonical id', async () => {
    for (const value of [`0x${formId.toString(16)}`, `${formId}e0`, `${formId}.0`, `0${formId}`, `+${formId}`, ...NOT_IDS]) {
      const res = await request(t.http).get(`/pay/${value}`);
      expect([value, res.status, res.headers['content-type']]).toEqual([value, 404, expect.stringMatching(/^text\/html/)]);
    }
    expect((await request(t.http).get(`/pay/${formId}`)).status).toBe(200);
  });
});
