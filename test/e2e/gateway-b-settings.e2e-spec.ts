import request from 'supertest';
import { gatewayBOption, gatewayBWebhookUrl } from '../../src/modules/gateway-b/index.js';
import { GatewayStateService } from '../../src/modules/gateways/index.js';
import { DoctorService } from '../../src/modules/operations/index.js';
import { OptionsService } from '../../src/modules/settings/index.js';
import { adminPost, type GatewayBTestBed, startGatewayBTestBed } from '../support/gateway-b.js';
import { expectWpError } from '../support/http.js';
import type { TestApp, TestUser } from '../support/test-app.js';

describe('gateway B admin settings (POST /payment-gateway/save-settings and the shared gateway routes)', () => {
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
    bed.live.clearCalls();
  });

  const post = (path: string, body: object) => adminPost(t, path, body);
  const settings = (mode: 'test' | 'live' = 'test', overrides: object = {}) => ({
    email: 'merchant@example.test',
    client_id: bed.fake(mode).clientId,
    secret: bed.fake(mode).clientSecret,
    ...overrides,
  });
  const stored = async (mode: 'test' | 'live') => ({
    email: await options.get(gatewayBOption.credential(mode, 'email'), null),
    client_id: await options.get(gatewayBOption.credential(mode, 'client_id'), null),
    secret: await options.getSecret(gatewayBOption.credential(mode, 'secret')),
  });
  const clear = (mode: 'test' | 'live') => options.delete(['email', 'client_id', 'secret'].map((field) => gatewayBOption.credential(mode, field as 'email')));

  describe('authorisation', () => {
    it('needs a login (401), the capability (403) and a same-site caller (403)', async () => {
      const anonymous = await request(t.http).post(`${t.base}/payment-gateway/save-settings`).send(settings());
      expect(anonymous.status).toBe(401);
      expect(anonymous.headers['www-authenticate']).toBeUndefined();
      const forbidden = await request(t.http).post(`${t.base}/payment-gateway/save-settings`).set('Authorization', editor.auth).send(settings());
      expectWpError(forbidden.body, 'rest_forbidden', 403);
      const crossSite = await request(t.http)
        .post(`${t.base}/payment-gateway/save-settings`)
        .set('Authorization', t.admin.auth)
        .set('Origin', 'https://evil.example')
        .type('form')
        .send(settings());
      expectWpError(crossSite.body, 'rest_cross_site_request', 403);
      expect(bed.sandbox.apiCalls()).toEqual([]);
      expect(await stored('test')).toEqual({ email: null, client_id: null, secret: null });
    });
  });

  describe('save-settings', () => {
    afterEach(() => clear('test'));

    it('checks the credentials with the provider, stores them for the current mode, answers the secret masked', async () => {
      const res = await post('/payment-gateway/save-settings', settings());
      expect(res.status).toBe(200);
      const secret = bed.sandbox.clientSecret;
      expect(res.body).toEqual({ gateway: 'gateway_b', mode: 'test', email: 'merchant@example.test', client_id: bed.sandbox.clientId, secret: `…${secret.slice(-4)}`, is_connected: 1 });
      expect(JSON.stringify(res.body)).not.toContain(secret);
      expect(bed.sandbox.apiCalls().map((call) => `${call.method} ${call.path} ${call.authorization} ${call.status}`)).toEqual(['POST /v1/oauth2/token basic 200']);
      expect(bed.live.apiCalls()).toEqual([]);
      expect(await stored('test')).toEqual({ email: 'merchant@example.test', client_id: bed.sandbox.clientId, secret });
      expect(await stored('live')).toEqual({ email: null, client_id: null, secret: null });
      // Sealed at rest: the options table never holds the secret in clear.
      const rows: Array<{ value: string }> = await t.dataSource.query(`SELECT option_value AS value FROM ${t.config.tablePrefix}options WHERE option_name = ?`, [gatewayBOption.credential('test', 'secret')]);
      expect(rows[0].value).not.toContain(secret);
      expect(await state.isConnected('gateway_b', 'test')).toBe(true);
    });

    it('saves for the live mode when gateway B is in live mode (checked against the live environment)', async () => {
      await post('/payment-gateway/set-mode', { gateway: 'gateway_b', mode: 'live' });
      try {
        const res = await post('/payment-gateway/save-settings', settings('live'));
        expect(res.status).toBe(200);
        expect(res.body).toMatchObject({ mode: 'live', is_connected: 1 });
        expect(bed.sandbox.apiCalls()).toEqual([]);
        expect((await stored('live')).client_id).toBe(bed.live.clientId);
        // Sandbox credentials are refused by the live environment.
        const wrongEnvironment = await post('/payment-gateway/save-settings', settings('test'));
        expectWpError(wrongEnvironment.body, 'checkout_gateway_error', 502);
        expect((await stored('live')).client_id).toBe(bed.live.clientId);
      } finally {
        await clear('live');
        await post('/payment-gateway/set-mode', { gateway: 'gateway_b', mode: 'test' });
      }
    });

    it('refused credentials: 502 checkout_gateway_error, nothing stored, no provider text', async () => {
      const res = await post('/payment-gateway/save-settings', settings('test', { secret: 'EWrongSecretWrongSecret' }));
      expect(res.status).toBe(502);
      expectWpError(res.body, 'checkout_gateway_error', 502);
      expect(res.body.message).toMatch(/refused/);
      expect(JSON.stringify(res.body)).not.toMatch(/Client Authentication failed|EWrongSecret/);
      expect(await stored('test')).toEqual({ email: null, client_id: null, secret: null });
    });

    it('refused credentials keep what was stored before', async () => {
      expect((await post('/payment-gateway/save-settings', settings())).status).toBe(200);
      expect((await post('/payment-gateway/save-settings', settings('test', { email: 'new@example.test', client_id: 'AnotherClient' }))).status).toBe(502);
      expect(await stored('test')).toEqual({ email: 'merchant@example.test', client_id: bed.sandbox.clientId, secret: bed.sandbox.clientSecret });
    });

    it('provider unreachable or too slow: 503 checkout_gateway_unavailable, nothing stored', async () => {
      bed.sandbox.fault({ path: '/v1/oauth2/token', drop: 'before', times: 2 });
      const dropped = await post('/payment-gateway/save-settings', settings());
      expect(dropped.status).toBe(503);
      expectWpError(dropped.body, 'checkout_gateway_unavailable', 503);
      bed.sandbox.fault({ path: '/v1/oauth2/token', delayMs: 2500 });
      const slow = await post('/payment-gateway/save-settings', settings());
      expect(slow.status).toBe(503);
      expect(await stored('test')).toEqual({ email: null, client_id: null, secret: null });
    });

    it.each([
      [{ email: 'not-an-email' }, 'email'],
      [{ client_id: 'has:colon' }, 'client_id'],
      [{ client_id: '' }, 'client_id'],
      [{ secret: 'x'.repeat(256) }, 'secret'],
      [{ secret: 'with space' }, 'secret'],
      [{ extra: 1 }, 'extra'],
    ])('validates %j (400 naming %s), asking the provider nothing', async (overrides, param) => {
      const res = await post('/payment-gateway/save-settings', settings('test', overrides));
      expect(res.status).toBe(400);
      expect(res.body.data.params).toHaveProperty(param);
      expect(bed.sandbox.apiCalls()).toEqual([]);
    });

    it('requires every field', async () => {
      const res = await post('/payment-gateway/save-settings', {});
      expect(res.status).toBe(400);
      expect(Object.keys(res.body.data.params).sort()).toEqual(['client_id', 'email', 'secret']);
    });
  });

  describe('the shared gateway routes work for gateway B', () => {
    beforeEach(async () => {
      expect((await post('/payment-gateway/save-settings', settings())).status).toBe(200);
    });
    afterEach(() => clear('test'));

    it('set-payment-methods takes standard_checkout only', async () => {
      expect((await post('/payment-gateway/set-payment-methods', { gateway: 'gateway_b', methods: ['standard_checkout'] })).body.active_payment_methods).toEqual(['standard_checkout']);
      const foreign = await post('/payment-gateway/set-payment-methods', { gateway: 'gateway_b', methods: ['ccard'] });
      expect(foreign.status).toBe(400);
      expect(await state.getActiveMethods('gateway_b')).toEqual(['standard_checkout']);
    });

    it('save-webhook-settings stores the mode’s Webhook ID sealed, answered as a mask; PayPal’s format only', async () => {
      const res = await post('/payment-gateway/save-webhook-settings', { gateway: 'gateway_b', mode: 'test', webhook_id: bed.sandbox.webhookId });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ gateway: 'gateway_b', mode: 'test', webhook_id: `…${bed.sandbox.webhookId.slice(-4)}` });
      expect(await options.getSecret(gatewayBOption.webhookId('test'))).toBe(bed.sandbox.webhookId);
      expect(await options.getSecret(gatewayBOption.webhookId('live'))).toBeNull();
      const hyphen = await post('/payment-gateway/save-webhook-settings', { gateway: 'gateway_b', mode: 'test', webhook_id: 'WH-1234567890' });
      expect(hyphen.status).toBe(400);
      expect(hyphen.body.data.params).toHaveProperty('webhook_id');
      expect(await options.getSecret(gatewayBOption.webhookId('test'))).toBe(bed.sandbox.webhookId);
    });

    it('set-mode switches gateway B alone; the other mode is not connected', async () => {
      const live = await post('/payment-gateway/set-mode', { gateway: 'gateway_b', mode: 'live' });
      expect(live.body).toMatchObject({ gateway: 'gateway_b', mode: 'live', is_connected: 0, is_live: 1, checkout_paused: null });
      expect(await state.getMode('gateway_a')).toBe('test');
      const back = await post('/payment-gateway/set-mode', { gateway: 'gateway_b', mode: 'test' });
      expect(back.body).toMatchObject({ mode: 'test', is_connected: 1 });
    });

    it('disconnect removes the current mode’s credentials and Webhook ID, without a provider call', async () => {
      await post('/payment-gateway/save-webhook-settings', { gateway: 'gateway_b', mode: 'test', webhook_id: bed.sandbox.webhookId });
      bed.sandbox.clearCalls();
      const res = await post('/payment-gateway/disconnect', { gateway: 'gateway_b' });
      expect(res.body).toMatchObject({ gateway: 'gateway_b', mode: 'test', is_connected: 0 });
      expect(await stored('test')).toEqual({ email: null, client_id: null, secret: null });
      expect(await options.getSecret(gatewayBOption.webhookId('test'))).toBeNull();
      expect(bed.sandbox.apiCalls()).toEqual([]);
    });
  });

  describe('doctor', () => {
    const gatewayBChecks = async () => (await t.app.get(DoctorService).run()).filter((check) => check.name.startsWith('gateway_b test'));
    const check = async (name: 'credentials' | 'webhook') => (await gatewayBChecks()).find((entry) => entry.name === `gateway_b test ${name}`);
    beforeEach(async () => {
      expect((await post('/payment-gateway/save-settings', settings())).status).toBe(200);
      expect((await post('/payment-gateway/save-webhook-settings', { gateway: 'gateway_b', mode: 'test', webhook_id: bed.sandbox.webhookId })).status).toBe(200);
      bed.sandbox.setWebhookListener(bed.sandbox.webhookId, { url: gatewayBWebhookUrl(t.config, 'test'), eventTypes: ['PAYMENT.CAPTURE.COMPLETED', 'PAYMENT.CAPTURE.DENIED'] });
    });
    afterEach(async () => {
      await clear('test');
      await options.delete([gatewayBOption.webhookId('test')]);
    });

    it('reports working credentials and a listener that delivers the capture-completed event here, and never a secret', async () => {
      const checks = await gatewayBChecks();
      expect(checks).toEqual([
        expect.objectContaining({ name: 'gateway_b test credentials', status: 'ok' }),
        expect.objectContaining({ name: 'gateway_b test webhook', status: 'ok' }),
      ]);
      const text = JSON.stringify(checks);
      expect(text).not.toContain(bed.sandbox.clientSecret);
      expect(text).not.toContain(bed.sandbox.webhookId);
      expect(bed.sandbox.callsTo('GET', `/v1/notifications/webhooks/${bed.sandbox.webhookId}`)).toHaveLength(1);
    });

    it('a listener that delivers elsewhere or lacks the event, or a Webhook ID of nobody’s, fails with the fix', async () => {
      bed.sandbox.setWebhookListener(bed.sandbox.webhookId, { url: 'https://old-site.example/wp-json/checkout/v1/webhook/gateway-b-callback/test' });
      expect(await check('webhook')).toMatchObject({ status: 'fail', message: expect.stringContaining('old-site.example'), fix: expect.stringContaining('save-webhook-settings') });

      bed.sandbox.setWebhookListener(bed.sandbox.webhookId, { url: gatewayBWebhookUrl(t.config, 'test'), eventTypes: ['CHECKOUT.ORDER.APPROVED'] });
      expect(await check('webhook')).toMatchObject({ status: 'fail', message: expect.stringContaining('PAYMENT.CAPTURE.COMPLETED') });
      bed.sandbox.setWebhookListener(bed.sandbox.webhookId, { eventTypes: ['*'] });
      expect(await check('webhook')).toMatchObject({ status: 'ok' });

      const stranger = bed.sandbox.addApp().webhookIds.values().next().value as string;
      await options.setSecret(gatewayBOption.webhookId('test'), stranger);
      expect(await check('webhook')).toMatchObject({ status: 'fail', message: expect.stringContaining('not a listener of this REST app') });
    });

    it('no Webhook ID saved: the webhook check fails (events would be refused)', async () => {
      await options.delete([gatewayBOption.webhookId('test')]);
      expect(await check('webhook')).toMatchObject({ status: 'fail', message: expect.stringContaining('no Webhook ID'), fix: expect.stringContaining('webhook_id') });
    });

    it('refused credentials fail with the fix; an unreachable gateway warns; neither asks about the listener', async () => {
      await options.setSecret(gatewayBOption.credential('test', 'secret'), 'revoked-secret');
      expect(await gatewayBChecks()).toEqual([expect.objectContaining({ name: 'gateway_b test credentials', status: 'fail', fix: expect.stringContaining('save-settings') })]);
      await options.setSecret(gatewayBOption.credential('test', 'secret'), bed.sandbox.clientSecret);

      bed.sandbox.expireAllTokens();
      bed.sandbox.fault({ path: '/v1/oauth2/token', drop: 'before', times: 10 });
      expect(await gatewayBChecks()).toEqual([expect.objectContaining({ name: 'gateway_b test credentials', status: 'warn' })]);
      expect(bed.sandbox.callsTo('GET', /\/v1\/notifications\/webhooks\//)).toEqual([]);
    });
  });
});
