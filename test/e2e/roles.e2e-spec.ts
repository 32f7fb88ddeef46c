import request from 'supertest';
import { ADMIN_CAPABILITY, FINER_CAPABILITIES, type RouteDescription, RouteInventory } from '../../src/common/auth/index.js';
import { expectWpError } from '../support/http.js';
import { startTestApp, type TestApp, type TestUser } from '../support/test-app.js';

/**
 * Every role against every admin route (docs/security.md, "Roles"). The routes come from the route
 * inventory and each role's capabilities from the roles table as the migrations seeded it, so a new
 * route or a changed grant is covered without editing this file: a role holding `checkout_settings`
 * and one of the route's finer capabilities gets through the authorisation (whatever the handler
 * then answers to an empty body and ids that do not exist); any other role gets 403 `rest_forbidden`.
 */
describe('roles against every admin route', () => {
  let t: TestApp;
  const users = new Map<string, TestUser>();
  const grants = new Map<string, Set<string>>();
  const ROLES = ['administrator', 'editor', 'support', 'viewer', 'author', 'subscriber'];

  beforeAll(async () => {
    t = await startTestApp();
    for (const role of ROLES) users.set(role, role === 'administrator' ? t.admin : await t.createUser(role));
    const rows: Array<{ role: string; capability: string }> = await t.dataSource.query(`SELECT role, capability FROM ${t.config.tablePrefix}role_capabilities`);
    for (const role of ROLES) grants.set(role, new Set(rows.filter((row) => row.role === role).map((row) => row.capability)));
  });
  afterAll(() => t.close());

  const adminRoutes = (): RouteDescription[] => t.app.get(RouteInventory).describe().filter((route) => route.declaration?.kind === 'admin');

  const mayUse = (role: string, route: RouteDescription): boolean => {
    const held = grants.get(role)!;
    const declaration = route.declaration as { capabilities: readonly string[] };
    return held.has(ADMIN_CAPABILITY) && declaration.capabilities.some((capability) => held.has(capability));
  };

  /** Ids no row has, a uuid no password has, names nothing is called: an allowed call changes nothing. */
  const pathOf = (route: RouteDescription) =>
    route.path
      .replace(/:(id|\w+_id)(?=\/|$)/g, '2147483647')
      .replace(':uuid', '00000000-0000-4000-8000-000000000000')
      .replace(/:(\w+)/g, 'nothing_here');

  const call = (method: string, route: RouteDescription, user: TestUser) => {
    const verb = method.toLowerCase() as 'get' | 'post' | 'put' | 'patch' | 'delete';
    const req = request(t.http)[verb](`${t.base}${pathOf(route)}`).set('Authorization', user.auth);
    return verb === 'get' || verb === 'delete' ? req : req.send({});
  };

  it('holds the roles of the issue: every console role has checkout_settings, the others no admin route', () => {
    for (const role of ['administrator', 'editor', 'support', 'viewer']) expect({ role, has: grants.get(role)!.has(ADMIN_CAPABILITY) }).toEqual({ role, has: true });
    for (const role of ['author', 'subscriber']) expect({ role, routes: adminRoutes().filter((route) => mayUse(role, route)).length }).toEqual({ role, routes: 0 });
    expect([...grants.get('administrator')!].filter((capability) => (FINER_CAPABILITIES as readonly string[]).includes(capability)).sort()).toEqual([...FINER_CAPABILITIES].sort());
    expect([...grants.get('support')!].sort()).toEqual(
      ['cancel_checkout_subscriptions', 'checkout_settings', 'read_checkout_payments', 'refund_checkout_payments', 'resend_checkout_receipts', 'view_checkout_dashboard'],
    );
    expect([...grants.get('viewer')!].sort()).toEqual(['checkout_settings', 'read_checkout_payments', 'view_checkout_dashboard']);
    expect([...grants.get('editor')!].sort()).toEqual(['checkout_settings', 'edit_checkout_forms', 'edit_others_checkout_forms']);
  });

  it('names a finer capability on every admin route', () => {
    const routes = adminRoutes();
    expect(routes.length).toBeGreaterThan(60);
    for (const route of routes) {
      const { capabilities } = route.declaration as { capabilities: readonly string[] };
      expect({ route: `${route.method} ${route.path}`, capabilities: capabilities.length > 0 && capabilities.every((c) => (FINER_CAPABILITIES as readonly string[]).includes(c)) }).toEqual({
        route: `${route.method} ${route.path}`,
        capabilities: true,
      });
    }
  });

  it('lets each role through exactly the admin routes its capabilities name, and refuses the others with 403', async () => {
    const outcomes: string[] = [];
    const wrong: string[] = [];
    for (const route of adminRoutes()) {
      for (const method of route.method === 'ALL' ? ['GET', 'POST'] : [route.method]) {
        for (const role of ROLES) {
          const res = await call(method, route, users.get(role)!);
          const allowed = mayUse(role, route);
          outcomes.push(`${role} ${allowed ? 'may' : 'may not'} ${method} ${route.path}`);
          if (allowed ? res.status === 401 || res.status === 403 : res.status !== 403 || res.body?.code !== 'rest_forbidden') {
            wrong.push(`${role} ${method} ${route.path}: ${res.status} ${res.body?.code ?? ''} (expected ${allowed ? 'through' : '403 rest_forbidden'})`);
          }
        }
      }
    }
    expect(wrong).toEqual([]);
    expect(outcomes.length).toBeGreaterThan(400);
  });

  it('keeps an editor out of the dashboard, settings, tags and payments, and lets them at the forms', async () => {
    const editor = users.get('editor')!;
    for (const path of ['/administration/dashboard', '/settings', '/tags', '/administration/payments', '/administration/webhook-events', '/administration/users']) {
      const res = await request(t.http).get(`${t.base}${path}`).set('Authorization', editor.auth);
      expect({ path, status: res.status }).toEqual({ path, status: 403 });
      expectWpError(res.body, 'rest_forbidden', 403);
    }
    for (const path of ['/administration/payment-forms', '/administration/template-list', '/payment-gateway/catalog']) {
      const res = await request(t.http).get(`${t.base}${path}`).set('Authorization', editor.auth);
      expect({ path, status: res.status }).toEqual({ path, status: 200 });
    }
  });

  it('lets support refund and read payments but not change settings; a viewer only reads', async () => {
    const support = users.get('support')!;
    const viewer = users.get('viewer')!;
    const refund = (user: TestUser) => request(t.http).post(`${t.base}/administration/payments/2147483647/refunds`).set('Authorization', user.auth).send({ amount: 100 });
    expect((await refund(support)).status).toBe(404);
    expectWpError((await refund(viewer)).body, 'rest_forbidden', 403);
    for (const user of [support, viewer]) {
      expect((await request(t.http).get(`${t.base}/administration/payments`).set('Authorization', user.auth)).status).toBe(200);
      expect((await request(t.http).get(`${t.base}/administration/dashboard`).set('Authorization', user.auth)).status).toBe(200);
      const settings = await request(t.http).post(`${t.base}/settings`).set('Authorization', user.auth).send({ currency: 'EUR' });
      expectWpError(settings.body, 'rest_forbidden', 403);
    }
    expect((await request(t.http).get(`${t.base}/settings`).set('Authorization', t.admin.auth)).body.currency).not.toBe('EUR');
  });

  it('tells the console each user’s capabilities (GET /auth/session after signing in)', async () => {
    const support = users.get('support')!;
    const signIn = await request(t.http).post(`${t.base}/auth/session`).send({ login: support.login, password: support.password });
    expect(signIn.status).toBe(201);
    expect(signIn.body.user.role).toBe('support');
    expect(signIn.body.user.capabilities).toEqual([...grants.get('support')!].sort());
  });
});
