import { Logger } from '@nestjs/common';
import request from 'supertest';
import { GatewayAContractService, gatewayAOption } from '../../src/modules/gateway-a/index.js';
import type { GatewayMode } from '../../src/modules/gateways/index.js';
import { GatewayRegistry } from '../../src/modules/gateways/index.js';
import { OptionsService } from '../../src/modules/settings/index.js';
import { type GatewayATestBed, startConnect, startGatewayATestBed, visitProxy } from '../support/gateway-a.js';
import { expectWpError } from '../support/http.js';

/**
 * POST /payment-gateway/connect-keys (issue 22): the CLI's `gateway-a:connect` as an admin route,
 * so the console needs no terminal. Against the fake gateway A, on the Pro plan (the fake is the
 * gateway's API) and on the free plan (the fake is the proxy).
 */
describe('POST /payment-gateway/connect-keys', () => {
  let bed: GatewayATestBed;
  const secretKey = 'sk_test_consoleOwnKey1234567890abc';
  const publishableKey = 'pk_test_consoleOwnKey1234567890abc';
  let logged: string[];

  const connect = (body: Record<string, unknown>, auth?: string) =>
    request(bed.t.http).post(`${bed.t.base}/payment-gateway/connect-keys`).set('Authorization', auth ?? bed.t.admin.auth).send(body);
  const stored = async (mode: GatewayMode = 'test') => {
    const options = bed.t.app.get(OptionsService);
    return {
      user_id: await options.get(gatewayAOption.credential(mode, 'user_id'), null),
      public_key: await options.get(gatewayAOption.credential(mode, 'public_key'), null),
      secret_key: await options.getSecret(gatewayAOption.credential(mode, 'secret_key')),
    };
  };
  const nothingStored = { user_id: null, public_key: null, secret_key: null };

  beforeAll(async () => {
    // ADMIN_URL unset: the default, the console.
    bed = await startGatewayATestBed({ CHECKOUT_PLAN: 'pro', ADMIN_URL: undefined, GATEWAY_TIMEOUT_MS: '1000' });
  });
  afterAll(() => bed.close());
  beforeEach(() => {
    bed.fake.clearRequests();
    bed.fake.clearFailures();
    bed.fake.latencyMs = 0;
    // Every line the service logs (Nest's Logger), to show no key reaches the log.
    logged = [];
    for (const level of ['log', 'warn', 'error', 'debug', 'verbose'] as const) {
      jest.spyOn(Logger.prototype, level).mockImplementation(function (this: Logger, ...args: unknown[]) {
        logged.push(JSON.stringify(args));
      });
    }
  });
  afterEach(async () => {
    jest.restoreAllMocks();
    for (const mode of ['test', 'live'] as const) await bed.t.app.get(GatewayRegistry).get('gateway_a').disconnect(mode);
  });

  it('checks the keys with the gateway, stores them, creates and verifies the webhook endpoint; answers and logs no key', async () => {
    const res = await connect({ mode: 'test', publishable_key: publishableKey, secret_key: secretKey });
    expect(res.status).toBe(200);
    const account = bed.fake.accountFor(secretKey).id;
    const endpoint = (await bed.t.app.get(GatewayAContractService).view('test')).endpoint_id;
    expect(res.body).toEqual({
      gateway: 'gateway_a',
      mode: 'test',
      account_id: account,
      is_connected: 1,
      webhook: { status: 'verified', endpoint_id: endpoint, last_error: null },
      checkout_paused: false,
      site_mode: 'test',
      notes: [],
    });
    expect(endpoint).toMatch(/^we_/);
    expect(JSON.stringify(res.body)).not.toContain(secretKey);

    expect(await stored()).toEqual({ user_id: account, public_key: publishableKey, secret_key: secretKey });
    const rows: Array<{ value: string }> = await bed.t.dataSource.query(`SELECT option_value AS value FROM ${bed.t.config.tablePrefix}options WHERE option_name = ?`, [
      gatewayAOption.credential('test', 'secret_key'),
    ]);
    expect(rows[0].value).not.toContain(secretKey);
    // The CLI's path: account and mode checked (account, balance), endpoint created, endpoint read back; all with the merchant's key.
    expect(bed.fake.requests.map((r) => `${r.method} ${r.path} ${r.status}`)).toEqual(['GET /v1/account 200', 'GET /v1/balance 200', 'POST /v1/webhook_endpoints 200', `GET /v1/webhook_endpoints/${endpoint} 200`]);
    expect(bed.fake.requests.every((r) => r.apiKey === secretKey)).toBe(true);

    expect(logged.some((line) => line.includes('gateway A connected'))).toBe(true);
    expect(logged.join('\n')).not.toContain(secretKey);

    const dashboard = await request(bed.t.http).get(`${bed.t.base}/administration/dashboard`).set('Authorization', bed.t.admin.auth);
    expect(dashboard.body.payment_gateways.gateway_a.modes.test).toMatchObject({ is_connected: 1, test_keys: true, webhook_configured: true, webhook_contract: { state: 'verified' } });
  });

  it('says when the mode it connected is not the one payments use', async () => {
    const live = { publishable_key: 'pk_live_consoleOwnKey1234567890abc', secret_key: 'sk_live_consoleOwnKey1234567890abc' };
    const res = await connect({ mode: 'live', ...live });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ mode: 'live', site_mode: 'test', is_connected: 1, webhook: { status: 'verified' } });
    expect(res.body.notes).toEqual([expect.stringContaining('POST /payment-gateway/set-mode switches it to live')]);
    expect((await stored('live')).secret_key).toBe(live.secret_key);
  });

  it('keeps the keys but reports a webhook endpoint that could not be set up (checkout in the mode stays paused)', async () => {
    bed.fake.fail({ method: 'POST', path: '/v1/webhook_endpoints', status: 400 });
    const res = await connect({ mode: 'test', publishable_key: publishableKey, secret_key: secretKey });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ is_connected: 1, checkout_paused: true, webhook: { status: 'failed', endpoint_id: null, last_error: expect.any(String) } });
    expect(res.body.notes).toEqual([expect.stringContaining('checkout stays paused in test mode')]);
    expect((await stored()).secret_key).toBe(secretKey);
  });

  it('refuses keys of the other mode or of the wrong shape with 400, before asking the gateway; stores nothing, echoes no key', async () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ mode: 'test', publishable_key: 'pk_live_abcdefgh12345678', secret_key: 'sk_live_abcdefgh12345678' }, 'mode'],
      [{ mode: 'live', publishable_key: publishableKey, secret_key: secretKey }, 'mode'],
      [{ mode: 'test', publishable_key: publishableKey, secret_key: 'whsec_notAKey1234567890' }, 'secret_key'],
      [{ mode: 'test', publishable_key: 'sk_test_swappedKey1234567890', secret_key: secretKey }, 'publishable_key'],
      [{ mode: 'sandbox', publishable_key: publishableKey, secret_key: secretKey }, 'mode'],
      [{ mode: 'test', publishable_key: publishableKey, secret_key: `sk_test_${'x'.repeat(250)}` }, 'secret_key'],
      [{ mode: 'test', publishable_key: publishableKey, secret_key: 12345 }, 'secret_key'],
      [{ mode: 'test', publishable_key: publishableKey, secret_key: secretKey, gateway: 'gateway_b' }, 'gateway'],
    ];
    for (const [body, param] of cases) {
      const res = await connect(body);
      expect({ body, status: res.status }).toEqual({ body, status: 400 });
      const error = expectWpError(res.body, 'rest_invalid_param', 400);
      expect({ body, params: Object.keys(error.data.params as object) }).toEqual({ body, params: [param] });
      if (typeof body.secret_key === 'string') expect(JSON.stringify(res.body)).not.toContain(body.secret_key.slice(8));
    }
    const missing = await connect({ mode: 'test' });
    expectWpError(missing.body, 'rest_missing_callback_param', 400);
    expect(bed.fake.requests).toEqual([]);
    expect(await stored()).toEqual(nothingStored);
    expect(await stored('live')).toEqual(nothingStored);
  });

  it('answers 502 when the gateway refuses the secret key, and 503 when it does not answer; stores nothing either way', async () => {
    const revoked = 'sk_test_revokedConsoleKey1234567890';
    bed.fake.revokeKey(revoked);
    const refused = await connect({ mode: 'test', publishable_key: publishableKey, secret_key: revoked });
    expect(refused.status).toBe(502);
    expectWpError(refused.body, 'checkout_gateway_error', 502);
    expect(JSON.stringify(refused.body)).not.toContain(revoked);
    expect(bed.fake.requests.map((r) => `${r.method} ${r.path} ${r.status}`)).toEqual(['GET /v1/account 401']);
    expect(await stored()).toEqual(nothingStored);
    expect((await bed.t.app.get(GatewayAContractService).view('test')).status).toBe('unconfigured');

    bed.fake.latencyMs = 1500;
    const silent = await connect({ mode: 'test', publishable_key: publishableKey, secret_key: secretKey });
    expect(silent.status).toBe(503);
    expectWpError(silent.body, 'checkout_gateway_unavailable', 503);
    expect(await stored()).toEqual(nothingStored);
    expect(logged.join('\n')).not.toContain(revoked);
    expect(logged.join('\n')).not.toContain(secretKey);
  });

  it('is an admin route: 401 without credentials, 403 without checkout_settings; nothing stored', async () => {
    const body = { mode: 'test', publishable_key: publishableKey, secret_key: secretKey };
    const anonymous = await request(bed.t.http).post(`${bed.t.base}/payment-gateway/connect-keys`).send(body);
    expectWpError(anonymous.body, 'rest_not_logged_in', 401);
    const editor = await bed.t.createUser('editor');
    const refused = await connect(body, editor.auth);
    expectWpError(refused.body, 'rest_forbidden', 403);
    expect(bed.fake.requests).toEqual([]);
    expect(await stored()).toEqual(nothingStored);
  });

  it('works on the free plan as the CLI does (through the proxy), and says what own keys are meant for', async () => {
    const free = await startGatewayATestBed({ CHECKOUT_PLAN: 'free' });
    try {
      const res = await request(free.t.http).post(`${free.t.base}/payment-gateway/connect-keys`).set('Authorization', free.t.admin.auth).send({ mode: 'test', publishable_key: publishableKey, secret_key: secretKey });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ is_connected: 1, webhook: { status: 'verified' } });
      expect(res.body.notes).toEqual([expect.stringContaining('CHECKOUT_PLAN=free sends gateway A calls through CHECKOUT_PROXY_URL')]);
      expect(free.fake.requests[0]).toMatchObject({ method: 'GET', path: '/v1/account', apiKey: secretKey });
    } finally {
      await free.close();
    }
  });
});

describe('ADMIN_URL by default', () => {
  it('sends the OAuth connect round trip back to the admin console (/admin/)', async () => {
    const bed = await startGatewayATestBed({ ADMIN_URL: undefined });
    try {
      expect(bed.t.config.adminUrl).toBe('/admin/');
      const callback = await visitProxy(await startConnect(bed.t, 'test'));
      const res = await request(bed.t.http).get(`${callback.pathname}${callback.search}`);
      expect(res.status).toBe(302);
      expect(res.headers.location).toBe('/admin/?gateway_a_connected=test&gateway_a_webhook=verified');
    } finally {
      await bed.close();
    }
  });
});
