import request from 'supertest';
import { gatewayBOption } from '../../src/modules/gateway-b/index.js';
import { GatewayStateService } from '../../src/modules/gateways/index.js';
import { OptionsService } from '../../src/modules/settings/index.js';
import { adminPost, connectGatewayB, type GatewayBTestBed, startGatewayBTestBed } from '../support/gateway-b.js';
import { expectWpError } from '../support/http.js';
import { connectGateway } from '../support/payment-fixtures.js';
import { peerDatabaseUrl } from '../support/peer-database.js';
import { startTestApp, type TestApp, type TestUser } from '../support/test-app.js';

describe('section B gateways (GET /gateway/list, POST /gateway/configure, DELETE /gateway/:gateway)', () => {
  let bed: GatewayBTestBed;
  let t: TestApp;
  let options: OptionsService;
  let state: GatewayStateService;
  let editor: TestUser;

  beforeAll(async () => {
    bed = await startGatewayBTestBed();
    t = bed.t;
    options = t.app.get(OptionsService);
    state = t.app.get(GatewayStateService);
    editor = await t.createUser('editor');
  });
  afterAll(() => bed.close());
  beforeEach(() => {
    bed.sandbox.clearCalls();
    bed.sandbox.clearFaults();
  });

  const list = async () => (await request(t.http).get(`${t.base}/gateway/list`).set('Authorization', t.admin.auth)).body as Array<{ gateway: string; enabled: boolean }>;
  const enabled = async () => Object.fromEntries((await list()).map((entry) => [entry.gateway, entry.enabled]));
  const configure = (body: object) => adminPost(t, '/gateway/configure', body);
  const remove = (gateway: string) => request(t.http).delete(`${t.base}/gateway/${gateway}`).set('Authorization', t.admin.auth);
  const apiKey = () => `${bed.sandbox.clientId}:${bed.sandbox.clientSecret}`;
  const callbackUrl = (mode: string) => `http://checkout.test/wp-json/checkout/v1/webhook/gateway-b-callback/${mode}`;
  const storedCredentials = async () => ({
    email: await options.get(gatewayBOption.credential('test', 'email'), null),
    client_id: await options.get(gatewayBOption.credential('test', 'client_id'), null),
    secret: await options.getSecret(gatewayBOption.credential('test', 'secret')),
  });

  it('every route needs an administrator (401, 403, cross-site 403) and changes nothing otherwise', async () => {
    const routes = [
      () => request(t.http).get(`${t.base}/gateway/list`),
      () => request(t.http).post(`${t.base}/gateway/configure`).send({ gateway: 'gateway_b', api_key: apiKey() }),
      () => request(t.http).delete(`${t.base}/gateway/gateway_b`),
    ];
    for (const route of routes) {
      expectWpError((await route()).body, 'rest_not_logged_in', 401);
      expectWpError((await route().set('Authorization', editor.auth)).body, 'rest_forbidden', 403);
      expectWpError((await route().set('Authorization', t.admin.auth).set('Origin', 'https://evil.example')).body, 'rest_cross_site_request', 403);
    }
    expect(bed.sandbox.apiCalls()).toEqual([]);
    expect(await storedCredentials()).toEqual({ email: null, client_id: null, secret: null });
  });

  describe('GET /gateway/list', () => {
    it('lists the card, wallet and bank-debit gateways, none enabled on a fresh site', async () => {
      expect(await list()).toEqual([
        { gateway: 'gateway_a', enabled: false },
        { gateway: 'gateway_b', enabled: false },
        { gateway: 'gateway_c', enabled: false },
      ]);
    });

    it('follows the real state: connected in the current mode', async () => {
      await connectGatewayB(bed, 'test');
      await connectGateway(t, 'gateway_a', 'test', ['ccard']);
      expect(await enabled()).toEqual({ gateway_a: true, gateway_b: true, gateway_c: false });
      await state.setMode('gateway_b', 'live');
      expect((await enabled()).gateway_b).toBe(false);
      await state.setMode('gateway_b', 'test');
      // Bank debit is Pro only: even an active sepa method does not enable it on the free plan.
      await state.setActiveMethods('gateway_a', ['ccard', 'sepa']);
      expect((await enabled()).gateway_c).toBe(false);
    });

    it('enables bank debit on the Pro plan when gateway A is connected and sepa is active; DELETE switches sepa off', async () => {
      const pro = await startTestApp({ CHECKOUT_PLAN: 'pro', DATABASE_URL: await peerDatabaseUrl('pro') });
      try {
        const get = async () => (await request(pro.http).get(`${pro.base}/gateway/list`).set('Authorization', pro.admin.auth)).body;
        const proState = pro.app.get(GatewayStateService);
        expect((await get())[2]).toEqual({ gateway: 'gateway_c', enabled: false });
        await connectGateway(pro, 'gateway_a', 'test', ['ccard']);
        expect((await get())[2].enabled).toBe(false);
        await proState.setActiveMethods('gateway_a', ['ccard', 'sepa']);
        expect((await get())[2].enabled).toBe(true);
        const removed = await request(pro.http).delete(`${pro.base}/gateway/gateway_c`).set('Authorization', pro.admin.auth);
        expect(removed.status).toBe(200);
        expect(removed.body).toEqual({ success: true, message: expect.stringContaining('sepa') });
        expect(await proState.getActiveMethods('gateway_a')).toEqual(['ccard']);
        expect(await proState.isConnected('gateway_a', 'test')).toBe(true);
        expect((await get())[2].enabled).toBe(false);
      } finally {
        await pro.close();
      }
    });
  });

  describe('POST /gateway/configure', () => {
    beforeEach(() => options.delete(['email', 'client_id', 'secret'].map((field) => gatewayBOption.credential('test', field as 'email'))));

    it('gateway_b: api_key "<client id>:<secret>" checked with the provider, stored for the current mode, the email kept', async () => {
      await options.set(gatewayBOption.credential('test', 'email'), 'kept@example.test');
      const res = await configure({ gateway: 'gateway_b', api_key: apiKey(), webhook_url: callbackUrl('test') });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ success: true, message: expect.stringContaining(callbackUrl('test')) });
      expect(JSON.stringify(res.body)).not.toContain(bed.sandbox.clientSecret);
      expect(bed.sandbox.apiCalls().map((call) => `${call.method} ${call.path} ${call.status}`)).toEqual(['POST /v1/oauth2/token 200']);
      expect(await storedCredentials()).toEqual({ email: 'kept@example.test', client_id: bed.sandbox.clientId, secret: bed.sandbox.clientSecret });
      expect((await enabled()).gateway_b).toBe(true);
      // Without webhook_url too.
      expect((await configure({ gateway: 'gateway_b', api_key: apiKey() })).status).toBe(200);
    });

    it('refuses a webhook_url other than this service’s callback for the mode (400, no provider call, nothing stored)', async () => {
      for (const url of ['https://attacker.example/collect', callbackUrl('live'), `${callbackUrl('test')}/`, 'http://checkout.test/wp-json/checkout/v1/webhook/receive']) {
        const res = await configure({ gateway: 'gateway_b', api_key: apiKey(), webhook_url: url });
        expect(res.status).toBe(400);
        expect(res.body.data.params.webhook_url).toContain(callbackUrl('test'));
      }
      expect((await configure({ gateway: 'gateway_b', api_key: apiKey(), webhook_url: 'not a url' })).status).toBe(400);
      expect(bed.sandbox.apiCalls()).toEqual([]);
      expect(await storedCredentials()).toEqual({ email: null, client_id: null, secret: null });
    });

    it('refused by the provider: 502; unreachable: 503; nothing stored either way', async () => {
      const refused = await configure({ gateway: 'gateway_b', api_key: `${bed.sandbox.clientId}:EWrongSecret` });
      expectWpError(refused.body, 'checkout_gateway_error', 502);
      bed.sandbox.fault({ path: '/v1/oauth2/token', drop: 'before', times: 2 });
      expectWpError((await configure({ gateway: 'gateway_b', api_key: apiKey() })).body, 'checkout_gateway_unavailable', 503);
      expect(await storedCredentials()).toEqual({ email: null, client_id: null, secret: null });
    });

    it.each([
      [{ gateway: 'gateway_b', api_key: 'no-colon-here' }, 'api_key'],
      [{ gateway: 'gateway_b', api_key: ':secret-only' }, 'api_key'],
      [{ gateway: 'gateway_b', api_key: 'client-only:' }, 'api_key'],
      [{ gateway: 'gateway_b', api_key: 'with space:secret' }, 'api_key'],
      [{ gateway: 'gateway_b' }, 'api_key'],
      [{ gateway: 'gateway_x', api_key: 'a:b' }, 'gateway'],
      [{ gateway: 'gateway_a', api_key: 'sk_test_123' }, 'gateway'],
      [{ gateway: 'gateway_c', api_key: 'sk_test_123' }, 'gateway'],
      [{ gateway: 'gateway_b', api_key: 'a:b', extra: 1 }, 'extra'],
    ])('refuses %j with 400 naming %s, before any provider call', async (body, param) => {
      const res = await configure(body);
      expect(res.status).toBe(400);
      expect(res.body.data.params).toHaveProperty(param);
      expect(bed.sandbox.apiCalls()).toEqual([]);
    });
  });

  describe('DELETE /gateway/:gateway', () => {
    it('gateway_b: disconnected in its current mode (credentials and Webhook ID), the other mode untouched', async () => {
      await connectGatewayB(bed, 'test');
      await options.set(gatewayBOption.credential('live', 'client_id'), 'live-client');
      const res = await remove('gateway_b');
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ success: true, message: expect.stringContaining('test mode') });
      expect(await storedCredentials()).toEqual({ email: null, client_id: null, secret: null });
      expect(await options.getSecret(gatewayBOption.webhookId('test'))).toBeNull();
      expect(await options.get(gatewayBOption.credential('live', 'client_id'), null)).toBe('live-client');
      expect((await enabled()).gateway_b).toBe(false);
      // Again: nothing left to remove, still an acknowledgement.
      expect((await remove('gateway_b')).status).toBe(200);
    });

    it('gateway_a: disconnected in its current mode', async () => {
      await connectGateway(t, 'gateway_a', 'test', ['ccard']);
      expect((await remove('gateway_a')).status).toBe(200);
      expect(await state.isConnected('gateway_a', 'test')).toBe(false);
    });

    it('an unknown gateway is 404 checkout_not_found', async () => {
      for (const gateway of ['gateway_x', 'GATEWAY_B', 'list', 'x'.repeat(300)]) {
        const res = await remove(gateway);
        expect(res.status).toBe(404);
        expectWpError(res.body, 'checkout_not_found', 404);
      }
    });
  });

  describe('POST /payment/process with gateway B', () => {
    it('is refused (400 naming payment_method): a wallet payment needs the payer’s approval; no record, no provider call', async () => {
      await connectGatewayB(bed, 'test');
      bed.sandbox.clearCalls();
      const before = await t.dataSource.query(`SELECT COUNT(*) AS n FROM ${t.config.tablePrefix}checkout_payments`);
      const res = await adminPost(t, '/payment/process', { amount: 10, currency: 'USD', payment_method: 'standard_checkout', description: 'Terminal' });
      expect(res.status).toBe(400);
      expect(res.body.data.params).toHaveProperty('payment_method');
      const after = await t.dataSource.query(`SELECT COUNT(*) AS n FROM ${t.config.tablePrefix}checkout_payments`);
      expect(Number(after[0].n)).toBe(Number(before[0].n));
      expect(bed.sandbox.apiCalls()).toEqual([]);
    });
  });
});
