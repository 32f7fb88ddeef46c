import request from 'supertest';
import { RouteInventory } from '../../src/common/auth/index.js';
import { expectWpError } from '../support/http.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

interface CatalogField { name: string; label: string; type: string; secret: boolean; required: boolean; hint?: string }
interface CatalogEntry {
  id: string;
  label: string;
  kind: string;
  supports_recurring: boolean;
  mode: string;
  methods: Array<{ id: string; label: string; pro_only: boolean; active: boolean; has_settings: boolean; hosted_page: boolean; settings?: unknown }>;
  connect: Array<{ kind: string; route: string; takes_mode: boolean; fields: CatalogField[] }>;
}

/**
 * GET /payment-gateway/catalog (issue 22 item 0): what an admin console needs to draw the gateways
 * screen and the form builder's methods without knowing gateways by name, from the catalog and
 * the adapters' port facts.
 */
describe('gateway catalog (GET /payment-gateway/catalog)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ CHECKOUT_PLAN: 'pro' });
  });
  afterAll(() => t.close());

  const catalog = async (): Promise<{ plan: string; gateways: CatalogEntry[] }> => {
    const res = await request(t.http).get(`${t.base}/payment-gateway/catalog`).set('Authorization', t.admin.auth);
    expect(res.status).toBe(200);
    return res.body;
  };

  it('lists each gateway with its kind, methods, recurring support, mode and connect kinds with their fields', async () => {
    const body = await catalog();
    expect(body.plan).toBe('pro');
    const [a, b] = body.gateways;
    expect(body.gateways.map((entry) => entry.id)).toEqual(['gateway_a', 'gateway_b']);
    expect(a).toMatchObject({ label: 'Stripe', kind: 'card', supports_recurring: true, mode: 'test', test_payment: 'the test card 4242 4242 4242 4242, any future expiry date, any CVC' });
    expect(a.methods).toEqual([
      { id: 'ccard', label: 'Card', pro_only: false, active: true, has_settings: false, hosted_page: true },
      { id: 'sepa', label: 'Bank debit (SEPA or ACH)', pro_only: true, active: false, has_settings: false, hosted_page: false },
      { id: 'device_wallet_1', label: 'Apple Pay', pro_only: false, active: false, has_settings: true, hosted_page: true, settings: null },
      { id: 'device_wallet_2', label: 'Google Pay', pro_only: false, active: false, has_settings: true, hosted_page: true, settings: null },
      { id: 'regional_wallet_1', label: 'Local payment methods', pro_only: false, active: false, has_settings: false, hosted_page: true },
      { id: 'regional_wallet_2', label: 'More local payment methods', pro_only: false, active: false, has_settings: false, hosted_page: true },
    ]);
    expect(a.connect.map((kind) => [kind.kind, kind.route, kind.takes_mode])).toEqual([
      ['oauth', 'GET /payment-gateway/connect', true],
      ['own_keys', 'POST /payment-gateway/connect-keys', true],
      ['webhook_settings', 'POST /payment-gateway/save-webhook-settings', true],
    ]);
    expect(a.connect[1].fields.map((field) => [field.name, field.type, field.secret, field.required])).toEqual([
      ['publishable_key', 'text', false, true],
      ['secret_key', 'text', true, true],
    ]);
    expect(a.connect[2].fields.map((field) => [field.name, field.type, field.secret])).toEqual([
      ['signing_secret', 'text', true],
      ['manual_configuration_complete', 'boolean', false],
    ]);

    expect(b).toMatchObject({ label: 'PayPal', kind: 'wallet', supports_recurring: false, mode: 'test', test_payment: expect.stringMatching(/^a sandbox personal account/) });
    expect(b.methods).toEqual([{ id: 'standard_checkout', label: 'PayPal', pro_only: false, active: true, has_settings: false, hosted_page: true }]);
    expect(b.connect.map((kind) => [kind.kind, kind.takes_mode])).toEqual([
      ['credentials', false],
      ['webhook_settings', true],
    ]);
    expect(b.connect[0].fields.map((field) => [field.name, field.type, field.secret])).toEqual([
      ['email', 'email', false],
      ['client_id', 'text', false],
      ['secret', 'text', true],
    ]);
    expect(b.connect[1].fields.map((field) => [field.name, field.secret, field.required])).toEqual([['webhook_id', true, true]]);
    for (const field of [...a.connect, ...b.connect].flatMap((kind) => kind.fields)) expect(field.label).toEqual(expect.any(String));
  });

  it('names only routes that exist, and only body fields their request schemas have', async () => {
    const body = await catalog();
    const routes = new Set(t.app.get(RouteInventory).list().map((route) => `${route.method} ${route.path}`));
    const doc = (await request(t.http).get('/docs-json')).body;
    for (const kind of body.gateways.flatMap((entry) => entry.connect)) {
      expect(routes).toContain(kind.route);
      const [method, path] = kind.route.split(' ');
      const operation = doc.paths[path][method.toLowerCase()];
      if (kind.fields.length === 0) continue;
      const ref: string = operation.requestBody.content['application/json'].schema.$ref;
      const properties = Object.keys(doc.components.schemas[ref.split('/').pop()!].properties);
      for (const field of kind.fields) expect({ route: kind.route, field: field.name, known: properties.includes(field.name) }).toEqual({ route: kind.route, field: field.name, known: true });
      expect(properties.includes('mode')).toBe(kind.takes_mode);
    }
  });

  it('follows the site state: the active methods and the mode', async () => {
    await request(t.http).post(`${t.base}/payment-gateway/set-payment-methods`).set('Authorization', t.admin.auth).send({ gateway: 'gateway_a', methods: ['sepa', 'device_wallet_1'] }).expect(200);
    await request(t.http).post(`${t.base}/payment-gateway/set-mode`).set('Authorization', t.admin.auth).send({ gateway: 'gateway_b', mode: 'live' }).expect(200);
    const [a, b] = (await catalog()).gateways;
    expect(a.methods.filter((method) => method.active).map((method) => method.id)).toEqual(['sepa', 'device_wallet_1']);
    expect(b.mode).toBe('live');
  });

  it('carries the saved settings of a method that has settings, so a console starts its form from them', async () => {
    await request(t.http)
      .post(`${t.base}/payment-gateway/save-payment-method-settings`)
      .set('Authorization', t.admin.auth)
      .send({ gateway: 'gateway_a', method: 'device_wallet_2', settings: { domain_verification: true, domains: ['Shop.Example.com'] } })
      .expect(200);
    const [a, b] = (await catalog()).gateways;
    const settingsOf = (id: string) => a.methods.find((method) => method.id === id)?.settings;
    expect(settingsOf('device_wallet_2')).toEqual({ domain_verification: true, domains: ['shop.example.com'] });
    expect(settingsOf('device_wallet_1')).toBeNull();
    // Methods without settings carry none at all.
    expect([...a.methods, ...b.methods].filter((method) => !method.has_settings).every((method) => !('settings' in method))).toBe(true);
  });

  it('needs the admin capability; every console role reads it (form builder, payments)', async () => {
    const anonymous = await request(t.http).get(`${t.base}/payment-gateway/catalog`);
    expect(anonymous.status).toBe(401);
    expectWpError(anonymous.body, 'rest_not_logged_in', 401);
    const subscriber = await t.createUser('subscriber');
    const refused = await request(t.http).get(`${t.base}/payment-gateway/catalog`).set('Authorization', subscriber.auth);
    expect(refused.status).toBe(403);
    for (const role of ['editor', 'support', 'viewer']) {
      const user = await t.createUser(role);
      expect({ role, status: (await request(t.http).get(`${t.base}/payment-gateway/catalog`).set('Authorization', user.auth)).status }).toEqual({ role, status: 200 });
    }
  });

  it('is in the OpenAPI document with typed schemas (no untyped object)', async () => {
    const doc = (await request(t.http).get('/docs-json')).body;
    const operation = doc.paths['/payment-gateway/catalog'].get;
    expect(operation).toMatchObject({ operationId: 'paymentGatewayCatalog', tags: ['Gateways'] });
    expect(operation.responses['200'].content['application/json'].schema).toEqual({ $ref: '#/components/schemas/GatewayCatalogDto' });
    const schemas = ['GatewayCatalogDto', 'GatewayCatalogEntryDto', 'GatewayCatalogMethodDto', 'GatewayConnectKindDto', 'GatewaySettingFieldDto'].map((name) => doc.components.schemas[name]);
    for (const schema of schemas) expect(schema).toEqual(expect.objectContaining({ type: 'object', properties: expect.any(Object) }));
    expect(JSON.stringify(schemas)).not.toContain('additionalProperties');
  });
});
