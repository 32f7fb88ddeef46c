import request from 'supertest';
import { RouteInventory } from '../../src/common/auth/index.js';
import { expectWpError } from '../support/http.js';
import { basicAuth, startTestApp, type TestApp } from '../support/test-app.js';

const EVIL = 'https://attacker.example';
const ADMIN_UI = 'https://admin.example.org';

describe('admin routes refuse requests started by other sites', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ CORS_ORIGINS: `${ADMIN_UI}, http://localhost:5173`, RATE_LIMIT_FAILED_LOGIN: '1000' });
  });
  afterAll(() => t.close());

  const settings = () => request(t.http).get(`${t.base}/settings`).set('Authorization', t.admin.auth);

  it('answers 401 without a Basic challenge, so browsers neither prompt nor cache credentials', async () => {
    const anonymous = await request(t.http).get(`${t.base}/settings`);
    expect(anonymous.status).toBe(401);
    expectWpError(anonymous.body, 'rest_not_logged_in', 401);
    expect(anonymous.headers['www-authenticate']).toBeUndefined();
    const wrong = await request(t.http).get(`${t.base}/settings`).set('Authorization', basicAuth('admin', 'not-the-password'));
    expect(wrong.status).toBe(401);
    expect(wrong.headers['www-authenticate']).toBeUndefined();
  });

  it('refuses a cross-site form POST carrying cached admin credentials, and changes nothing', async () => {
    const before = (await settings()).body;
    const res = await request(t.http)
      .post(`${t.base}/settings`)
      .set('Authorization', t.admin.auth)
      .set('Origin', EVIL)
      .set('Sec-Fetch-Site', 'cross-site')
      .type('form')
      .send('debug_mode=true&currency=EUR');
    expect(res.status).toBe(403);
    expect(expectWpError(res.body, 'rest_cross_site_request', 403).data.reason).toBe('origin_not_allowed');
    expect((await settings()).body).toEqual(before);
  });

  it.each([
    ['Sec-Fetch-Site cross-site without Origin (navigation, image, GET)', { 'Sec-Fetch-Site': 'cross-site' }, 'cross_site_fetch'],
    ['Sec-Fetch-Site same-site (a sibling subdomain)', { 'Sec-Fetch-Site': 'same-site' }, 'cross_site_fetch'],
    ['an Origin that is neither own nor allowed', { Origin: EVIL }, 'origin_not_allowed'],
    ['a sibling subdomain Origin', { Origin: 'https://blog.checkout.test', 'Sec-Fetch-Site': 'same-site' }, 'origin_not_allowed'],
    ['Origin: null (sandboxed frame, opaque redirect)', { Origin: 'null' }, 'origin_not_allowed'],
    ['the own origin on another scheme', { Origin: 'https://checkout.test' }, 'origin_not_allowed'],
    ['an allowed origin with a path-like suffix', { Origin: `${ADMIN_UI}.attacker.example` }, 'origin_not_allowed'],
    ['the own origin with a contradictory cross-site fetch', { Origin: 'http://checkout.test', 'Sec-Fetch-Site': 'cross-site' }, 'cross_site_fetch'],
  ])('refuses %s', async (_label, headers: Record<string, string>, reason) => {
    const res = await request(t.http).post(`${t.base}/tags`).set('Authorization', t.admin.auth).set(headers).send({ tag: 'cross-site' });
    expect(res.status).toBe(403);
    expect(expectWpError(res.body, 'rest_cross_site_request', 403).data.reason).toBe(reason);
  });

  it.each([
    ['curl or a server (no browser headers)', {}],
    ['a typed URL or bookmark (Sec-Fetch-Site none)', { 'Sec-Fetch-Site': 'none' }],
    ['Swagger UI on PUBLIC_BASE_URL', { Origin: 'http://checkout.test', 'Sec-Fetch-Site': 'same-origin' }],
    ['a same-origin GET without Origin', { 'Sec-Fetch-Site': 'same-origin' }],
    ['an origin from CORS_ORIGINS (cross-site by nature)', { Origin: ADMIN_UI, 'Sec-Fetch-Site': 'cross-site' }],
    ['another origin from CORS_ORIGINS', { Origin: 'http://localhost:5173', 'Sec-Fetch-Site': 'same-site' }],
  ])('lets through %s', async (_label, headers: Record<string, string>) => {
    const res = await request(t.http).get(`${t.base}/settings`).set('Authorization', t.admin.auth).set(headers);
    expect(res.status).toBe(200);
  });

  it('lets through the origin the request was addressed to (Swagger UI reached by another host name)', async () => {
    const res = await request(t.http)
      .post(`${t.base}/settings`)
      .set('Authorization', t.admin.auth)
      .set('Host', 'checkout.internal:8080')
      .set('Origin', 'http://checkout.internal:8080')
      .set('Sec-Fetch-Site', 'same-origin')
      .send({ debug_mode: false });
    expect(res.status).toBe(200);
  });

  it('applies to every admin route, with or without credentials', async () => {
    const adminRoutes = t.app
      .get(RouteInventory)
      .list()
      .filter((route) => route.auth.startsWith('admin('));
    expect(adminRoutes.length).toBeGreaterThan(20);
    for (const route of adminRoutes) {
      const path = t.base + route.path.replace(/:[a-z_]+/g, '1');
      const method = (route.method === 'ALL' ? 'post' : route.method.toLowerCase()) as 'get' | 'post' | 'put' | 'delete';
      for (const auth of [t.admin.auth, undefined]) {
        const req = request(t.http)[method](path).set('Origin', EVIL).set('Sec-Fetch-Site', 'cross-site');
        if (auth) req.set('Authorization', auth);
        const res = await req.send({});
        expect({ route: `${route.method} ${route.path}`, status: res.status, code: res.body.code }).toEqual({
          route: `${route.method} ${route.path}`,
          status: 403,
          code: 'rest_cross_site_request',
        });
      }
    }
  });

  it("applies to every route of the console's own session and account (sign-in, two-factor, passwords, reset, set-password links)", async () => {
    const sessionRoutes = t.app
      .get(RouteInventory)
      .list()
      .filter((route) => route.auth === 'console_session');
    expect(sessionRoutes.length).toBeGreaterThan(8);
    for (const route of sessionRoutes) {
      const method = route.method.toLowerCase() as 'get' | 'post' | 'put' | 'delete';
      const res = await request(t.http)[method](t.base + route.path).set('Origin', EVIL).set('Sec-Fetch-Site', 'cross-site').send({ login: 'admin', password: t.admin.password });
      expect({ route: `${route.method} ${route.path}`, status: res.status, code: res.body.code }).toEqual({
        route: `${route.method} ${route.path}`,
        status: 403,
        code: 'rest_cross_site_request',
      });
    }
  });

  it('leaves public routes alone (the payer’s browser calls them from the merchant’s pages)', async () => {
    const res = await request(t.http).get(`${t.base}/gateway-a/webhook`).set('Origin', EVIL).set('Sec-Fetch-Site', 'cross-site');
    expect(res.status).toBe(200);
  });
});

describe('the cross-site check and the failed-login limiter', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ RATE_LIMIT_FAILED_LOGIN: '2' });
  });
  afterAll(() => t.close());

  it('refuses before the failed-login limiter counts anything', async () => {
    for (let i = 0; i < 5; i += 1) {
      const res = await request(t.http)
        .get(`${t.base}/plugin/info`)
        .set('Authorization', basicAuth('admin', `guess-${i}`))
        .set('Origin', EVIL)
        .set('Sec-Fetch-Site', 'cross-site');
      expect(res.status).toBe(403);
    }
    // RATE_LIMIT_FAILED_LOGIN is 2: had the refused requests been counted, this would be 429.
    expect((await request(t.http).get(`${t.base}/plugin/info`).set('Authorization', basicAuth('admin', 'one-real-guess'))).status).toBe(401);
    expect((await request(t.http).get(`${t.base}/plugin/info`).set('Authorization', t.admin.auth)).status).toBe(200);
  });
});
