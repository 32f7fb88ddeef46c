import request from 'supertest';
import { checkGatewaySliceConfig, GatewayRegistry } from '../../src/modules/gateways/index.js';
import { PaymentQueriesService } from '../../src/modules/payments/index.js';
import { OptionsService } from '../../src/modules/settings/index.js';
import { validSettings } from '../support/form-fixtures.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { FakeGatewayX } from './fake/fake-gateway-x.js';
import { GatewayXModule } from './gateway-x.module.js';
import { gatewayXOption } from './gateway-x-options.js';

const SIGNING_SECRET = 'xwhsec_0123456789abcdefABCDEF';
const API_KEY = 'xsk_test_0123456789';

/**
 * Issue 28 item 2's proof: a third gateway is one folder. Gateway X (this folder: a slice module,
 * adapter, checkout route, browser driver, webhook controller, verifier and event source, and a
 * fake provider) is added to the application by the test hook `startTestApp(…, { modules })` and
 * nothing else; these tests show it reaches every place a gateway must appear.
 */
describe('a test-only third gateway (test/gateway-x/) added by its module alone', () => {
  let fake: FakeGatewayX;
  let t: TestApp;
  const admin = (method: 'get' | 'post', path: string) => request(t.http)[method](`${t.base}${path}`).set('Authorization', t.admin.auth);

  beforeAll(async () => {
    fake = await FakeGatewayX.start();
    fake.apiKeys.add(API_KEY);
    t = await startTestApp({}, { modules: [GatewayXModule.register({ url: fake.url })] });
    // Connected in test mode: the public id and the API key stored, as a connect flow would.
    const options = t.app.get(OptionsService);
    await options.set(gatewayXOption.publicId('test'), 'xpk_test_1');
    await options.setSecret(gatewayXOption.apiKey('test'), API_KEY);
    // Its webhook signing secret, through the gateway-neutral admin route (the adapter takes its own fields).
    await admin('post', '/payment-gateway/save-webhook-settings').send({ gateway: 'gateway_x', mode: 'test', signing_secret: SIGNING_SECRET }).expect(200);
  });
  afterAll(async () => {
    await t?.close();
    await fake?.stop();
  });

  it('is in the catalog the console draws its gateway screen from, with its method, kind and webhook settings', async () => {
    const res = await admin('get', '/payment-gateway/catalog').expect(200);
    expect(res.body.gateways.map((entry: { id: string }) => entry.id)).toEqual(['gateway_a', 'gateway_b', 'gateway_x']);
    const x = res.body.gateways[2];
    expect(x).toMatchObject({ label: 'Gateway X', kind: 'card', supports_recurring: false, mode: 'test' });
    expect(x.methods).toEqual([{ id: 'x_card', label: 'Test card X', pro_only: false, active: true, has_settings: false, hosted_page: true }]);
    expect(x.connect).toEqual([
      { kind: 'webhook_settings', route: 'POST /payment-gateway/save-webhook-settings', takes_mode: true, fields: [expect.objectContaining({ name: 'signing_secret', secret: true, required: true })] },
    ]);
  });

  it("is in the console's other gateway screen data (the dashboard's gateways) and takes the gateway admin routes", async () => {
    const misplaced = await admin('post', '/payment-gateway/save-webhook-settings').send({ gateway: 'gateway_x', mode: 'test', webhook_id: 'WH0123456789' });
    expect(misplaced.status).toBe(400);
    // Its secret's form is its adapter's to check (gateway A's `whsec_…` is not gateway X's).
    const otherForm = await admin('post', '/payment-gateway/save-webhook-settings').send({ gateway: 'gateway_x', mode: 'test', signing_secret: 'whsec_0123456789abcdefABCDEF' });
    expect({ status: otherForm.status, params: Object.keys(otherForm.body.data?.params ?? {}) }).toEqual({ status: 400, params: ['signing_secret'] });
    await admin('post', '/payment-gateway/set-payment-methods').send({ gateway: 'gateway_x', methods: ['x_card'] }).expect(200);
    const refused = await admin('post', '/payment-gateway/set-payment-methods').send({ gateway: 'gateway_x', methods: ['ccard'] });
    expect(refused.status).toBe(400);

    const dashboard = (await admin('get', '/administration/dashboard').expect(200)).body;
    expect(Object.keys(dashboard.payment_gateways)).toEqual(['gateway_a', 'gateway_b', 'gateway_x']);
    expect(dashboard.payment_gateways.gateway_x).toMatchObject({ label: 'gateway X', mode: 'test', is_connected: 1 });
    expect(dashboard.payment_gateways.gateway_x).toMatchObject({ active_payment_methods: ['x_card'], checkout_paused: null });
    expect(dashboard.payment_gateways.gateway_x.modes.test).toEqual({ is_connected: 1, test_keys: null, webhook_configured: true, webhook_contract: null });
    // Section B's list is the interface's own, fixed list: a new gateway does not join it.
    const list = (await admin('get', '/gateway/list').expect(200)).body;
    expect(list.map((entry: { gateway: string }) => entry.gateway)).toEqual(['gateway_a', 'gateway_b', 'gateway_c']);
  });

  it("lets a form enable its method, validated from the catalog, and names it in the OpenAPI document's form schema", async () => {
    const created = await admin('post', '/administration/payment-forms')
      .send({ title: 'X form', status: 'publish', settings: validSettings({ payment_methods: { gateway_x: ['x_card'] } }) })
      .expect(201);
    expect(created.body.settings.payment_methods).toEqual({ gateway_x: ['x_card'] });
    // The public read of the form offers it, with its public id only.
    const publicForm = (await request(t.http).get(`${t.base}/payment/form/${created.body.id}`).expect(200)).body;
    expect(publicForm.gateways).toEqual([expect.objectContaining({ gateway: 'gateway_x', label: 'gateway X', mode: 'test', supports_recurring: false, browser: { client_id: 'xpk_test_1' } })]);
    expect(publicForm.gateways[0].methods.map((method: { id: string }) => method.id)).toEqual(['x_card']);
    for (const payment_methods of [{ gateway_x: ['ccard'] }, { gateway_y: ['x_card'] }]) {
      const res = await admin('post', '/administration/payment-forms').send({ title: 'Bad', status: 'publish', settings: validSettings({ payment_methods }) });
      expect({ payment_methods, status: res.status, code: res.body.code }).toEqual({ payment_methods, status: 400, code: 'rest_invalid_param' });
    }
    const doc = (await request(t.http).get('/docs-json').expect(200)).body;
    const schemas = Object.values(doc.components.schemas) as Array<{ properties?: Record<string, unknown> }>;
    const methodsSchema = schemas.find((schema) => schema.properties && 'gateway_a' in schema.properties && 'gateway_b' in schema.properties && !('id' in schema.properties));
    expect(Object.keys(methodsSchema!.properties!)).toEqual(['gateway_a', 'gateway_b', 'gateway_x']);
    expect(doc.paths['/gateway-x/charge'].post.operationId).toBe('gatewayXCharge');
  });

  /** A published form offering gateway X only, with its hosted page. */
  async function xForm(): Promise<number> {
    const res = await admin('post', '/administration/payment-forms')
      .send({ title: 'X form', status: 'publish', settings: validSettings({ payment_methods: { gateway_x: ['x_card'] } }) })
      .expect(201);
    return res.body.id;
  }

  /** The page's gateway X container: its driver, its bundle and the routes it calls (data from the adapter). */
  async function pageOf(formId: number) {
    const page = await request(t.http).get(`/pay/${formId}`).expect(200);
    const container = /<div class="provider" id="provider-gateway_x" data-gateway="gateway_x" data-driver="([a-z_]+)"[^>]*data-driver-src="([^"]+)" data-routes="([^"]+)"/.exec(page.text);
    expect(container).not.toBeNull();
    return { page, driver: container![1], src: container![2], routes: JSON.parse(container![3].replace(/&quot;/g, '"')) as Record<string, string> };
  }

  it('is offered by the hosted page, which serves its driver bundle and allows its library in the CSP', async () => {
    const { page, driver, src, routes } = await pageOf(await xForm());
    expect(driver).toBe('x_test_card');
    expect(routes).toEqual({ charge: '/gateway-x/charge' });
    expect(page.text).toContain('value="gateway_x:x_card"');
    expect(page.text).toContain('data-browser-config="{&quot;client_id&quot;:&quot;xpk_test_1&quot;}"');
    expect(page.text).not.toContain(API_KEY);
    expect(page.headers['content-security-policy']).toMatch(new RegExp(`script-src [^;]*${fake.url.replace(/[.]/g, '\\.')}`));
    expect(src).toMatch(/^\/pay\/assets\/driver-x_test_card-[A-Za-z0-9]{12}\.js$/);
    const bundle = await request(t.http).get(src).expect(200);
    expect(bundle.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(bundle.text).toContain('defineCheckoutDriver("x_test_card"');
  });

  /** What the driver does on Pay: sync-details, then its route with the library's token. */
  async function payThroughDriverRoutes(formId: number, token: string) {
    const { routes } = await pageOf(formId);
    const sync = await request(t.http)
      .post(`${t.base}/payment/sync-details`)
      .send({ form_id: formId, payment_gateway: 'gateway_x', payment_method: 'x_card', plan_index: 0, price_index: 0, email_address: 'payer@example.test' })
      .expect(201);
    const reference = {
      payment_id: sync.body.payment_id,
      payment_secret: sync.body.payment_secret,
      checkout_token: sync.body.checkout_token,
      form_id: formId,
      payment_gateway: 'gateway_x',
      payment_method: 'x_card',
      amount: sync.body.amount,
      currency: sync.body.currency,
    };
    const charged = await request(t.http).post(`${t.base}${routes.charge}`).send({ ...reference, token });
    return { reference, charged };
  }

  const record = (id: number) => t.app.get(PaymentQueriesService).findById(id);
  const deliver = (delivery: { rawBody: Buffer; headers: Record<string, string> }) => {
    const req = request(t.http).post(`${t.base}/webhook/gateway-x-callback/test`).set('Content-Type', 'application/json');
    for (const [name, value] of Object.entries(delivery.headers)) req.set(name, value);
    return req.send(delivery.rawBody.toString('utf8'));
  };

  it("pays through its driver's route, and its signed webhook completes the payment (a forged one changes nothing)", async () => {
    const formId = await xForm();
    const { reference, charged } = await payThroughDriverRoutes(formId, 'xtok_ok0123456789ab');
    expect(charged.status).toBe(200);
    expect(charged.body).toEqual({ payment_id: reference.payment_id, status: 'processing', charge_id: expect.stringMatching(/^xch_/) });
    const charge = fake.charges.get(charged.body.charge_id)!;
    expect(charge).toMatchObject({ amount: 1500, currency: 'usd', metadata: { payment_id: String(reference.payment_id) } });
    expect(fake.exchanges.at(-1)).toMatchObject({ method: 'POST', path: '/v1/charges', idempotencyKey: expect.stringMatching(/^[a-f0-9]{64}$/) });
    expect(await record(reference.payment_id)).toMatchObject({ gateway: 'gateway_x', status: 'processing', provider_payment_ref: charge.id });

    const forged = fake.signedEvent('charge.succeeded', charge.id, 'xwhsec_notTheMerchantsSecret000');
    const refused = await deliver(forged);
    expect(refused.status).toBe(400);
    expect(refused.body.code).toBe('checkout_invalid_signature');
    expect((await record(reference.payment_id))!.status).toBe('processing');

    const signed = fake.signedEvent('charge.succeeded', charge.id, SIGNING_SECRET);
    expect((await deliver(signed).expect(200)).body).toEqual({ received: true, outcome: 'processed' });
    expect(await record(reference.payment_id)).toMatchObject({ status: 'completed', amount_received: 1500 });
    expect((await deliver(signed).expect(200)).body).toEqual({ received: true, outcome: 'duplicate' });
  });

  it('reads its own variable (GATEWAY_X_JS_URL) at boot: its library from there; a bad value fails the boot\'s check naming it', async () => {
    expect(t.app.get(GatewayRegistry).get('gateway_x').hostedCheckout?.libraryUrl).toBe(`${fake.url}/x.js`);
    // A second instance on the same database (on MariaDB not emptied: the first keeps its state).
    const other = await startTestApp({ GATEWAY_X_JS_URL: 'https://lib.x.example.test/x.js' }, { keepDatabase: true, modules: [GatewayXModule.register({ url: fake.url })] });
    try {
      expect(other.app.get(GatewayRegistry).get('gateway_x').hostedCheckout?.libraryUrl).toBe('https://lib.x.example.test/x.js');
    } finally {
      await other.close();
    }
    // The check main.ts runs before the boot (beside loadConfig): every registered slice's section, this one's included.
    expect(() => checkGatewaySliceConfig({ GATEWAY_X_JS_URL: 'https://lib.x.example.test/x.js?key=secret' })).toThrow(
      /^Invalid configuration: GATEWAY_X_JS_URL must be a URL without credentials, query or fragment$/,
    );
    expect(() => checkGatewaySliceConfig({ GATEWAY_X_JS_URL: 'https://lib.x.example.test/x.js' })).not.toThrow();
  });

  it('fails a payment its signed charge.failed names, with the reason; an amount that differs is rejected', async () => {
    const formId = await xForm();
    const first = await payThroughDriverRoutes(formId, 'xtok_ok00000000000a');
    const chargeId = first.charged.body.charge_id;
    const wrongAmount = await deliver(fake.signedEvent('charge.succeeded', chargeId, SIGNING_SECRET, { amount: 1 })).expect(200);
    expect(wrongAmount.body.outcome).toBe('rejected');
    expect((await record(first.reference.payment_id))!.status).toBe('processing');

    expect((await deliver(fake.signedEvent('charge.failed', chargeId, SIGNING_SECRET)).expect(200)).body.outcome).toBe('processed');
    expect(await record(first.reference.payment_id)).toMatchObject({ status: 'failed', failure_reason: { code: 'card_declined', decline_code: null, message: 'The card was declined.' } });

    const declined = await payThroughDriverRoutes(formId, 'xtok_decline0123456');
    expect(declined.charged.status).toBe(200);
    expect(declined.charged.body).toMatchObject({ status: 'failed', charge_id: null });
  });
});
