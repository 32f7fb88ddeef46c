import { gatewayBOption } from '../../src/modules/gateway-b/index.js';
import request from 'supertest';
import { GatewayAContractService, gatewayAOption } from '../../src/modules/gateway-a/index.js';
import { GatewayStateService, PaymentGatewayService } from '../../src/modules/gateways/index.js';
import { OptionsService } from '../../src/modules/settings/index.js';
import { callbackPath, followCallback, type GatewayATestBed, issueState, startGatewayATestBed } from '../support/gateway-a.js';
import { expectWpError } from '../support/http.js';
import type { TestUser } from '../support/test-app.js';

const ROUTES: Array<{ path: string; body: object }> = [
  { path: '/payment-gateway/disconnect', body: { gateway: 'gateway_b' } },
  { path: '/payment-gateway/set-mode', body: { gateway: 'gateway_b', mode: 'test' } },
  { path: '/payment-gateway/set-payment-methods', body: { gateway: 'gateway_a', methods: ['ccard'] } },
  { path: '/payment-gateway/save-webhook-settings', body: { gateway: 'gateway_b', mode: 'test', webhook_id: 'WHAUTHMATRIX01' } },
  {
    path: '/payment-gateway/save-payment-method-settings',
    body: { gateway: 'gateway_a', method: 'device_wallet_1', settings: { domain_verification: false, domains: [] } },
  },
];

describe('admin gateway routes', () => {
  let bed: GatewayATestBed;
  let options: OptionsService;
  let contract: GatewayAContractService;
  let gatewayState: GatewayStateService;
  let editor: TestUser;

  beforeAll(async () => {
    bed = await startGatewayATestBed();
    options = bed.t.app.get(OptionsService);
    contract = bed.t.app.get(GatewayAContractService);
    gatewayState = bed.t.app.get(GatewayStateService);
    editor = await bed.t.createUser('editor');
  });
  afterAll(() => bed.close());

  const post = (path: string, body: object) => request(bed.t.http).post(`${bed.t.base}${path}`).set('Authorization', bed.t.admin.auth).send(body);
  const connectDirect = async (mode: 'test' | 'live', suffix: string) => {
    const credentials = { user_id: `acct_${suffix}`, public_key: `pk_${mode}_${suffix}Public`, secret_key: `sk_${mode}_${suffix}Secret` };
    const landing = await followCallback(bed.t, callbackPath(bed.t, { state: await issueState(bed.t, mode), ...credentials }));
    expect(landing.searchParams.get('gateway_a_connected')).toBe(mode);
    return credentials;
  };

  describe.each(ROUTES)('POST $path', ({ path, body }) => {
    it('needs a login (401) and the checkout_settings capability (403)', async () => {
      expect((await request(bed.t.http).post(`${bed.t.base}${path}`).send(body)).status).toBe(401);
      const res = await request(bed.t.http).post(`${bed.t.base}${path}`).set('Authorization', editor.auth).send(body);
      expect(res.status).toBe(403);
      expectWpError(res.body, 'rest_forbidden', 403);
    });

    it('works for the administrator', async () => {
      expect((await post(path, body)).status).toBe(200);
    });

    it('refuses unknown fields and an unknown gateway', async () => {
      expectWpError((await post(path, { ...body, extra: 1 })).body, 'rest_invalid_param', 400);
      const res = await post(path, { ...body, gateway: 'gateway_c' });
      expect(res.status).toBe(400);
      expect(res.body.data.params).toHaveProperty('gateway');
    });
  });

  describe('set-mode', () => {
    it('switches a gateway between test and live and reports its state', async () => {
      const res = await post('/payment-gateway/set-mode', { gateway: 'gateway_a', mode: 'live' });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ gateway: 'gateway_a', mode: 'live', is_connected: 0, is_live: 1, active_payment_methods: ['ccard'], checkout_paused: true });
      expect(await gatewayState.getMode('gateway_a')).toBe('live');
      expect(await gatewayState.getMode('gateway_b')).toBe('test');
      expect((await post('/payment-gateway/set-mode', { gateway: 'gateway_a', mode: 'test' })).body.mode).toBe('test');
      expect((await post('/payment-gateway/set-mode', { gateway: 'gateway_a', mode: 'TEST' })).status).toBe(400);
      expect((await post('/payment-gateway/set-mode', { gateway: 'gateway_a' })).body.code).toBe('rest_missing_callback_param');
    });
  });

  describe('set-payment-methods', () => {
    it("saves only the gateway's own method ids", async () => {
      const res = await post('/payment-gateway/set-payment-methods', { gateway: 'gateway_a', methods: ['ccard', 'device_wallet_1', 'regional_wallet_2'] });
      expect(res.status).toBe(200);
      expect(res.body.active_payment_methods).toEqual(['ccard', 'device_wallet_1', 'regional_wallet_2']);
      expect(await gatewayState.getActiveMethods('gateway_a')).toEqual(['ccard', 'device_wallet_1', 'regional_wallet_2']);
      expect((await post('/payment-gateway/set-payment-methods', { gateway: 'gateway_b', methods: ['standard_checkout'] })).body.active_payment_methods).toEqual([
        'standard_checkout',
      ]);
    });

    it('refuses foreign, unknown, duplicate and non-list methods, keeping the saved list', async () => {
      const bad: object[] = [
        { gateway: 'gateway_a', methods: ['standard_checkout'] },
        { gateway: 'gateway_b', methods: ['ccard'] },
        { gateway: 'gateway_a', methods: ['bitcoin'] },
        { gateway: 'gateway_a', methods: ['ccard', 'ccard'] },
        { gateway: 'gateway_a', methods: 'ccard' },
      ];
      for (const body of bad) {
        const res = await post('/payment-gateway/set-payment-methods', body);
        expect(res.status).toBe(400);
        expect(res.body.data.params).toHaveProperty('methods');
      }
      expect(await gatewayState.getActiveMethods('gateway_a')).toEqual(['ccard', 'device_wallet_1', 'regional_wallet_2']);
    });

    it('refuses bank debit (sepa) on the free plan', async () => {
      const res = await post('/payment-gateway/set-payment-methods', { gateway: 'gateway_a', methods: ['ccard', 'sepa'] });
      expect(res.status).toBe(400);
      expect(res.body.data.params.methods).toMatch(/Pro plan/);
      expect(await gatewayState.getActiveMethods('gateway_a')).not.toContain('sepa');
    });

    it('accepts a form-encoded list', async () => {
      const res = await request(bed.t.http)
        .post(`${bed.t.base}/payment-gateway/set-payment-methods`)
        .set('Authorization', bed.t.admin.auth)
        .type('form')
        .send('gateway=gateway_a&methods[]=ccard&methods[]=device_wallet_2');
      expect(res.status).toBe(200);
      expect(res.body.active_payment_methods).toEqual(['ccard', 'device_wallet_2']);
    });
  });

  describe('save-webhook-settings', () => {
    const secret = 'whsec_adminRouteSigningSecret9876';

    it('stores the gateway-A signing secret sealed and answers only its mask', async () => {
      const res = await post('/payment-gateway/save-webhook-settings', { gateway: 'gateway_a', mode: 'live', signing_secret: secret });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        gateway: 'gateway_a',
        mode: 'live',
        management: 'manual',
        status: 'unverified',
        checkout_paused: true,
        endpoint_id: null,
        signing_secret: 'whsec_…9876',
        verified_at: null,
        last_error: null,
      });
      expect(JSON.stringify(res.body)).not.toContain(secret);
      expect(await contract.getSigningSecret('live')).toBe(secret);
      const [row] = await bed.t.dataSource.query('SELECT option_value FROM wp_options WHERE option_name = ?', [gatewayAOption.webhookSecret('live')]);
      expect(row.option_value).not.toContain(secret);
    });

    it('unpauses checkout only when the manual configuration is saved as complete', async () => {
      expect(await contract.isCheckoutAvailable('live')).toBe(false);
      const done = await post('/payment-gateway/save-webhook-settings', { gateway: 'gateway_a', mode: 'live', manual_configuration_complete: true });
      expect(done.body).toMatchObject({ management: 'manual', status: 'verified', checkout_paused: false, signing_secret: 'whsec_…9876' });
      expect(await contract.isCheckoutAvailable('live')).toBe(true);
      // A new secret for a complete manual configuration keeps it complete.
      const rotated = await post('/payment-gateway/save-webhook-settings', { gateway: 'gateway_a', mode: 'live', signing_secret: 'whsec_rotatedManualSecret1234' });
      expect(rotated.body).toMatchObject({ status: 'verified', signing_secret: 'whsec_…1234' });
      const undone = await request(bed.t.http)
        .post(`${bed.t.base}/payment-gateway/save-webhook-settings`)
        .set('Authorization', bed.t.admin.auth)
        .type('form')
        .send('gateway=gateway_a&mode=live&manual_configuration_complete=false');
      expect(undone.body).toMatchObject({ status: 'unverified', checkout_paused: true });
      expect(await contract.isCheckoutAvailable('live')).toBe(false);
    });

    it('refuses to complete a manual configuration without a signing secret', async () => {
      const res = await post('/payment-gateway/save-webhook-settings', { gateway: 'gateway_a', mode: 'test', manual_configuration_complete: true });
      expect(res.status).toBe(400);
      expect(res.body.data.params).toHaveProperty('signing_secret');
      expect(await contract.getRecord('test')).toBeNull();
    });

    it('refuses malformed values and fields of the other gateway', async () => {
      const cases: Array<[object, string]> = [
        [{ gateway: 'gateway_a', mode: 'test', signing_secret: 'sk_test_notASigningSecret' }, 'signing_secret'],
        [{ gateway: 'gateway_a', mode: 'test', signing_secret: 'whsec_short' }, 'signing_secret'],
        [{ gateway: 'gateway_a', mode: 'test', manual_configuration_complete: 'maybe' }, 'manual_configuration_complete'],
        [{ gateway: 'gateway_a', mode: 'test' }, 'signing_secret'],
        [{ gateway: 'gateway_a', mode: 'test', webhook_id: 'WH-123456789' }, 'webhook_id'],
        [{ gateway: 'gateway_a', mode: 'prod', signing_secret: secret }, 'mode'],
        [{ gateway: 'gateway_b', mode: 'test' }, 'webhook_id'],
        [{ gateway: 'gateway_b', mode: 'test', webhook_id: 'WH 1' }, 'webhook_id'],
        [{ gateway: 'gateway_b', mode: 'test', webhook_id: 'WH-123456789', signing_secret: secret }, 'signing_secret'],
      ];
      for (const [body, field] of cases) {
        const res = await post('/payment-gateway/save-webhook-settings', body);
        expect({ body, status: res.status }).toEqual({ body, status: 400 });
        expect(res.body.data.params).toHaveProperty(field);
      }
    });

    it('stores the gateway-B Webhook ID sealed and answers its mask', async () => {
      const res = await post('/payment-gateway/save-webhook-settings', { gateway: 'gateway_b', mode: 'live', webhook_id: '8PT597110X687430LKGECATA' });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ gateway: 'gateway_b', mode: 'live', webhook_id: '…CATA' });
      expect(await options.getSecret(gatewayBOption.webhookId('live'))).toBe('8PT597110X687430LKGECATA');
    });
  });

  describe('save-payment-method-settings', () => {
    it('saves device-wallet domain verification with normalised host names', async () => {
      const res = await post('/payment-gateway/save-payment-method-settings', {
        gateway: 'gateway_a',
        method: 'device_wallet_1',
        settings: { domain_verification: true, domains: ['Shop.Example.com', 'pay.example.org'] },
      });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ gateway: 'gateway_a', method: 'device_wallet_1', settings: { domain_verification: true, domains: ['shop.example.com', 'pay.example.org'] } });
      expect(await bed.t.app.get(PaymentGatewayService).getPaymentMethodSettings('device_wallet_1')).toEqual({
        domain_verification: true,
        domains: ['shop.example.com', 'pay.example.org'],
      });
    });

    it('validates per method and keeps what was saved', async () => {
      const cases: Array<[object, string]> = [
        [{ gateway: 'gateway_a', method: 'ccard', settings: { domain_verification: false, domains: [] } }, 'method'],
        [{ gateway: 'gateway_b', method: 'device_wallet_1', settings: { domain_verification: false, domains: [] } }, 'gateway'],
        [{ gateway: 'gateway_a', method: 'device_wallet_1', settings: { domain_verification: true, domains: ['https://shop.example.com'] } }, 'settings.domains'],
        [{ gateway: 'gateway_a', method: 'device_wallet_1', settings: { domain_verification: true, domains: ['localhost'] } }, 'settings.domains'],
        [{ gateway: 'gateway_a', method: 'device_wallet_1', settings: { domain_verification: true, domains: [] } }, 'settings.domains'],
        [{ gateway: 'gateway_a', method: 'device_wallet_1', settings: { domain_verification: true, domains: ['a.example.com', 'A.example.com'] } }, 'settings.domains'],
        [{ gateway: 'gateway_a', method: 'device_wallet_1', settings: { domain_verification: 'yes', domains: [] } }, 'settings.domain_verification'],
        [{ gateway: 'gateway_a', method: 'device_wallet_1', settings: { domain_verification: false, domains: [], button: 'dark' } }, 'settings.button'],
        [{ gateway: 'gateway_a', method: 'device_wallet_1', settings: 'on' }, 'settings'],
      ];
      for (const [body, field] of cases) {
        const res = await post('/payment-gateway/save-payment-method-settings', body);
        expect({ body, status: res.status }).toEqual({ body, status: 400 });
        expect(res.body.data.params).toHaveProperty([field]);
      }
      expect((await bed.t.app.get(PaymentGatewayService).getPaymentMethodSettings('device_wallet_1'))?.domains).toEqual(['shop.example.com', 'pay.example.org']);
    });
  });

  describe('disconnect', () => {
    it("removes the current mode's credentials and webhook state, retires its managed endpoint, leaves the other mode", async () => {
      const test = await connectDirect('test', 'disconnectTest01');
      await connectDirect('live', 'disconnectLive01');
      const liveEndpoint = (await contract.getRecord('live'))!.endpoint_id!;
      const testEndpoint = (await contract.getRecord('test'))!.endpoint_id!;
      await post('/payment-gateway/set-mode', { gateway: 'gateway_a', mode: 'live' });

      const res = await post('/payment-gateway/disconnect', { gateway: 'gateway_a' });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ gateway: 'gateway_a', mode: 'live', is_connected: 0, checkout_paused: true });
      const live = await options.getMany([
        gatewayAOption.credential('live', 'user_id'),
        gatewayAOption.credential('live', 'public_key'),
        gatewayAOption.credential('live', 'secret_key'),
        gatewayAOption.webhook('live'),
        gatewayAOption.webhookSecret('live'),
      ]);
      expect(live.size).toBe(0);
      expect(bed.fake.requestsTo('DELETE', `/v1/webhook_endpoints/${liveEndpoint}`)).toHaveLength(1);

      expect(await gatewayState.isConnected('gateway_a', 'test')).toBe(true);
      expect(await options.get(gatewayAOption.credential('test', 'user_id'), null)).toBe(test.user_id);
      expect(bed.fake.resources.get(testEndpoint)).toBeDefined();
      expect(await contract.isCheckoutAvailable('test')).toBe(true);
      await post('/payment-gateway/set-mode', { gateway: 'gateway_a', mode: 'test' });
    });

    it('never touches a manually managed endpoint', async () => {
      await connectDirect('test', 'manualDisconnect01');
      const automatic = (await contract.getRecord('test'))!.endpoint_id!;
      await post('/payment-gateway/save-webhook-settings', { gateway: 'gateway_a', mode: 'test', signing_secret: 'whsec_manualForDisconnect0001', manual_configuration_complete: true });
      bed.fake.clearRequests();
      const res = await post('/payment-gateway/disconnect', { gateway: 'gateway_a' });
      expect(res.status).toBe(200);
      expect(res.body.is_connected).toBe(0);
      expect(bed.fake.requests.filter((r) => r.path.startsWith('/v1/webhook_endpoints'))).toHaveLength(0);
      expect(bed.fake.resources.get(automatic)).toBeDefined();
      expect(await contract.getSigningSecret('test')).toBeNull();
      expect(await contract.getRecord('test')).toBeNull();
    });

    it('still disconnects when the gateway cannot be reached', async () => {
      await connectDirect('test', 'gatewayDown000001');
      const endpoint = (await contract.getRecord('test'))!.endpoint_id!;
      bed.fake.fail({ path: /^\/v1\//, status: 503, times: 10 });
      const res = await post('/payment-gateway/disconnect', { gateway: 'gateway_a' });
      bed.fake.clearFailures();
      expect(res.status).toBe(200);
      expect(res.body.is_connected).toBe(0);
      expect(bed.fake.requestsTo('GET', `/v1/webhook_endpoints/${endpoint}`).length).toBeGreaterThan(0);
      expect(bed.fake.resources.get(endpoint)).toBeDefined();
      expect(await gatewayState.isConnected('gateway_a', 'test')).toBe(false);
      expect(await contract.getRecord('test')).toBeNull();
    });

    it("removes gateway B's credentials and Webhook ID of the current mode", async () => {
      for (const field of ['email', 'client_id'] as const) await options.set(gatewayBOption.credential('test', field), `${field}-value`);
      await options.setSecret(gatewayBOption.credential('test', 'secret'), 'gateway-b-client-secret');
      await options.setSecret(gatewayBOption.webhookId('test'), 'WH-TESTMODE0001');
      await options.setSecret(gatewayBOption.webhookId('live'), 'WH-LIVEMODE0001');
      expect(await gatewayState.isConnected('gateway_b', 'test')).toBe(true);
      const res = await post('/payment-gateway/disconnect', { gateway: 'gateway_b' });
      expect(res.body).toEqual({ gateway: 'gateway_b', mode: 'test', is_connected: 0, is_live: 0, active_payment_methods: ['standard_checkout'], checkout_paused: null });
      expect(await options.getSecret(gatewayBOption.webhookId('test'))).toBeNull();
      expect(await options.getSecret(gatewayBOption.webhookId('live'))).toBe('WH-LIVEMODE0001');
    });
  });
});

describe('admin gateway routes on the Pro plan', () => {
  let bed: GatewayATestBed;
  beforeAll(async () => {
    bed = await startGatewayATestBed({ CHECKOUT_PLAN: 'pro' });
  });
  afterAll(() => bed.close());

  it('accepts bank debit (sepa) among the gateway-A methods', async () => {
    const res = await request(bed.t.http)
      .post(`${bed.t.base}/payment-gateway/set-payment-methods`)
      .set('Authorization', bed.t.admin.auth)
      .send({ gateway: 'gateway_a', methods: ['ccard', 'sepa'] });
    expect(res.status).toBe(200);
    expect(res.body.active_payment_methods).toEqual(['ccard', 'sepa']);
  });
});
