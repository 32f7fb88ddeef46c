import request from 'supertest';
import Stripe from 'stripe';
import { CHECKOUT_VERSION } from '../../src/config/index.js';
import { CheckoutPausedError, GATEWAY_A_WEBHOOK_EVENTS, GatewayAContractService, gatewayAOption } from '../../src/modules/gateway-a/index.js';
import { GatewayStateService } from '../../src/modules/gateways/index.js';
import { OptionsService } from '../../src/modules/settings/index.js';
import { callbackPath, connectThroughProxy, followCallback, type GatewayATestBed, issueState, startConnect, startFakeGatewayA, startGatewayATestBed, TEST_ADMIN_URL, visitProxy } from '../support/gateway-a.js';
import { expectWpError } from '../support/http.js';
import { startTestApp, installationIdOf } from '../support/test-app.js';
import { advanceClock } from '../support/app-state.js';

const WEBHOOK_URL = (mode: string) => `http://checkout.test/wp-json/checkout/v1/webhook/gateway-a-callback/${mode}`;
const CALLBACK_URL = 'http://checkout.test/wp-json/checkout/v1/payment-gateway/connect-callback';

describe('gateway A connect flow (through the stripe SDK against the fake gateway)', () => {
  let bed: GatewayATestBed;
  const installationId = () => installationIdOf(bed.t);
  let options: OptionsService;
  let contract: GatewayAContractService;
  let state: GatewayStateService;

  beforeAll(async () => {
    bed = await startGatewayATestBed();
    options = bed.t.app.get(OptionsService);
    contract = bed.t.app.get(GatewayAContractService);
    state = bed.t.app.get(GatewayStateService);
  });
  afterAll(() => bed.close());
  afterEach(async () => {
    jest.restoreAllMocks();
    bed.fake.clearFailures();
    bed.fake.oauthDecision = 'approve';
    for (const mode of ['test', 'live'] as const) {
      await options.delete([
        gatewayAOption.credential(mode, 'user_id'),
        gatewayAOption.credential(mode, 'public_key'),
        gatewayAOption.credential(mode, 'secret_key'),
        gatewayAOption.webhook(mode),
        gatewayAOption.webhookSecret(mode),
      ]);
    }
    bed.fake.clearRequests();
  });

  const storedCredentials = async (mode: 'test' | 'live') => ({
    user_id: await options.get<string | null>(gatewayAOption.credential(mode, 'user_id'), null),
    public_key: await options.get<string | null>(gatewayAOption.credential(mode, 'public_key'), null),
    secret_key: await options.getSecret(gatewayAOption.credential(mode, 'secret_key')),
  });
  const nothingStored = async (mode: 'test' | 'live') => {
    expect(await storedCredentials(mode)).toEqual({ user_id: null, public_key: null, secret_key: null });
    expect(await contract.getRecord(mode)).toBeNull();
    expect(bed.fake.requestsTo('POST', '/v1/webhook_endpoints')).toHaveLength(0);
  };
  const expectRefusal = (location: URL, code: string) => {
    expect(location.toString().startsWith(`${TEST_ADMIN_URL}&`)).toBe(true);
    expect(location.searchParams.get('gateway_a_error')).toBe(code);
    expect(location.searchParams.get('gateway_a_connected')).toBeNull();
  };

  describe('GET /payment-gateway/connect', () => {
    it('redirects the admin to the proxy OAuth page with the callback and a signed state', async () => {
      const target = await startConnect(bed.t, 'test');
      expect(target.origin).toBe(bed.fake.url);
      expect(target.pathname).toBe('/oauth/authorize');
      expect(Object.fromEntries(target.searchParams)).toEqual({
        response_type: 'code',
        scope: 'read_write',
        mode: 'test',
        redirect_uri: CALLBACK_URL,
        state: expect.stringMatching(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/),
      });
      expect(await issueState(bed.t, 'test')).not.toBe(target.searchParams.get('state'));
    });

    it('answers { authorize_url } as JSON to a client that asks for JSON (an admin UI), and still redirects a browser navigation', async () => {
      const connect = (accept: string) => request(bed.t.http).get(`${bed.t.base}/payment-gateway/connect`).query({ mode: 'test' }).set('Authorization', bed.t.admin.auth).set('Accept', accept);
      const json = await connect('application/json');
      expect(json.status).toBe(200);
      expect(json.headers['content-type']).toMatch(/^application\/json/);
      expect(Object.keys(json.body)).toEqual(['authorize_url']);
      const target = new URL(json.body.authorize_url);
      expect(target.origin).toBe(bed.fake.url);
      expect(target.searchParams.get('redirect_uri')).toBe(CALLBACK_URL);
      expect(target.searchParams.get('state')).toMatch(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/);
      for (const accept of ['text/html,application/xhtml+xml,*/*;q=0.8', '*/*']) {
        const navigation = await connect(accept);
        expect(navigation.status).toBe(302);
        expect(new URL(navigation.headers.location).origin).toBe(bed.fake.url);
      }
    });

    it('starts from the admin console: its session (cookie + X-WP-Nonce) gets the JSON answer; a nonce in the address is no credential here', async () => {
      const sameOrigin = { Origin: 'http://checkout.test', 'Sec-Fetch-Site': 'same-origin' };
      const session = await request(bed.t.http).post(`${bed.t.base}/auth/session`).set(sameOrigin).send({ login: bed.t.admin.login, password: bed.t.admin.password });
      expect(session.status).toBe(201);
      const cookie = ([] as string[]).concat(session.headers['set-cookie'] ?? []).map((line) => line.split(';')[0]).find((pair) => pair.startsWith('checkout_console_session='))!;
      const nonce = session.body.nonce as string;
      const connect = () => request(bed.t.http).get(`${bed.t.base}/payment-gateway/connect`).set('Cookie', cookie);

      // What the console does: ask for JSON through its client, the nonce in the header.
      const json = await connect().query({ mode: 'test' }).set(sameOrigin).set('X-WP-Nonce', nonce).set('Accept', 'application/json');
      expect(json.status).toBe(200);
      expect(new URL(json.body.authorize_url).origin).toBe(bed.fake.url);
      // A link carrying the nonce in its address: the route does not take it from there (no secret in addresses), so nothing is issued.
      const link = await connect().query({ mode: 'test', _wpnonce: nonce }).set({ 'Sec-Fetch-Site': 'same-origin', 'Sec-Fetch-Mode': 'navigate' });
      expect(link.status).toBe(401);
      expect(link.headers.location).toBeUndefined();
    });

    it('refuses an unknown mode, a missing mode, no login and a user without the capability', async () => {
      for (const query of [{ mode: 'prod' }, {}]) {
        const res = await request(bed.t.http).get(`${bed.t.base}/payment-gateway/connect`).query(query).set('Authorization', bed.t.admin.auth);
        expect(res.status).toBe(400);
        expect(res.body.data.params).toHaveProperty('mode');
      }
      expect((await request(bed.t.http).get(`${bed.t.base}/payment-gateway/connect?mode=test`)).status).toBe(401);
      const editor = await bed.t.createUser('editor');
      const forbidden = await request(bed.t.http).get(`${bed.t.base}/payment-gateway/connect?mode=test`).set('Authorization', editor.auth);
      expect(forbidden.status).toBe(403);
      expectWpError(forbidden.body, 'rest_forbidden', 403);
    });
  });

  describe('a successful connect', () => {
    it('exchanges the code, stores the credentials, provisions and verifies the webhook endpoint', async () => {
      const landing = await connectThroughProxy(bed, 'test');
      expect(landing.toString().startsWith(`${TEST_ADMIN_URL}&`)).toBe(true);
      expect(Object.fromEntries(landing.searchParams)).toMatchObject({ page: 'checkout', gateway_a_connected: 'test', gateway_a_webhook: 'verified' });

      // The code went to the proxy's token endpoint, once.
      const [exchange] = bed.fake.requestsTo('POST', '/oauth/token');
      expect(exchange.body).toEqual({ grant_type: 'authorization_code', code: expect.stringMatching(/^ac_/) });
      const grant = bed.fake.grants.get(exchange.body.code as string)!;
      expect(grant.used).toBe(true);

      // Credentials stored for the mode, the secret key sealed.
      expect(await storedCredentials('test')).toEqual({ user_id: grant.accountId, public_key: grant.publishableKey, secret_key: grant.accessToken });
      const raw = await bed.t.dataSource.query(`SELECT option_value FROM wp_options WHERE option_name = ?`, [gatewayAOption.credential('test', 'secret_key')]);
      expect(raw[0].option_value).not.toContain(grant.accessToken);
      expect(await state.isConnected('gateway_a', 'test')).toBe(true);
      expect(await state.isConnected('gateway_a', 'live')).toBe(false);

      // Exactly the spec's 12 events, our URL, the SDK's API version, our marker; with the account's key.
      const [create] = bed.fake.requestsTo('POST', '/v1/webhook_endpoints');
      expect(create.apiKey).toBe(grant.accessToken);
      expect(create.idempotencyKey).toMatch(new RegExp(`^checkout-${installationId()}-webhook-endpoint-test-`));
      expect(create.body).toEqual({
        url: WEBHOOK_URL('test'),
        enabled_events: [...GATEWAY_A_WEBHOOK_EVENTS],
        api_version: Stripe.API_VERSION,
        description: 'Checkout (test mode)',
        metadata: { checkout_installation_id: installationId(), checkout_managed: 'true', checkout_version: CHECKOUT_VERSION, checkout_mode: 'test' },
      });
      expect(create.body.enabled_events).toHaveLength(12);
      expect(new Set(create.body.enabled_events as string[])).toEqual(
        new Set([
          'payment_intent.succeeded',
          'payment_intent.payment_failed',
          'payment_intent.processing',
          'payment_intent.canceled',
          'setup_intent.succeeded',
          'setup_intent.setup_failed',
          'setup_intent.canceled',
          'invoice.paid',
          'invoice.payment_failed',
          'customer.subscription.created',
          'customer.subscription.updated',
          'customer.subscription.deleted',
        ]),
      );

      // Read back, then verified; its id and signing secret stored (the secret sealed).
      const [endpoint] = bed.fake.resources.list('webhook_endpoint');
      expect(bed.fake.requestsTo('GET', `/v1/webhook_endpoints/${endpoint.id}`)).toHaveLength(1);
      expect(await contract.getRecord('test')).toMatchObject({
        management: 'automatic',
        endpoint_id: endpoint.id,
        account_id: grant.accountId,
        status: 'verified',
        events_version: CHECKOUT_VERSION,
        last_error: null,
      });
      expect(await contract.getSigningSecret('test')).toBe(bed.fake.resources.secrets.get(endpoint.id as string));
      await expect(contract.assertCheckoutAvailable('test')).resolves.toBeUndefined();
      await expect(contract.assertCheckoutAvailable('live')).rejects.toBeInstanceOf(CheckoutPausedError);
    });

    it('connects live mode with a live grant and only touches live options', async () => {
      const landing = await connectThroughProxy(bed, 'live');
      expect(landing.searchParams.get('gateway_a_connected')).toBe('live');
      expect((await storedCredentials('live')).secret_key).toMatch(/^sk_live_/);
      expect(bed.fake.requestsTo('POST', '/v1/webhook_endpoints')[0].body.url).toBe(WEBHOOK_URL('live'));
      expect(await contract.isCheckoutAvailable('live')).toBe(true);
      expect(await storedCredentials('test')).toEqual({ user_id: null, public_key: null, secret_key: null });
    });

    it('takes the credentials themselves instead of a code', async () => {
      const credentials = { user_id: 'acct_directCreds01', public_key: 'pk_test_directPublic0001', secret_key: 'sk_test_directSecret0001' };
      const landing = await followCallback(bed.t, callbackPath(bed.t, { state: await issueState(bed.t, 'test'), ...credentials }));
      expect(landing.searchParams.get('gateway_a_connected')).toBe('test');
      expect(bed.fake.requestsTo('POST', '/oauth/token')).toHaveLength(0);
      expect(await storedCredentials('test')).toEqual(credentials);
      expect(bed.fake.requestsTo('POST', '/v1/webhook_endpoints')[0].apiKey).toBe(credentials.secret_key);
      expect(await contract.isCheckoutAvailable('test')).toBe(true);
    });

    it('retires its own previous endpoint when the same account connects again', async () => {
      const credentials = { user_id: 'acct_reconnect01', public_key: 'pk_test_reconnectPublic1', secret_key: 'sk_test_reconnectSecret1' };
      await followCallback(bed.t, callbackPath(bed.t, { state: await issueState(bed.t, 'test'), ...credentials }));
      const first = (await contract.getRecord('test'))!.endpoint_id!;
      await followCallback(bed.t, callbackPath(bed.t, { state: await issueState(bed.t, 'test'), ...credentials }));
      const second = (await contract.getRecord('test'))!.endpoint_id!;
      expect(second).not.toBe(first);
      expect(bed.fake.requestsTo('DELETE', `/v1/webhook_endpoints/${first}`)).toHaveLength(1);
      expect(bed.fake.resources.get(first)).toBeUndefined();
      expect(bed.fake.resources.get(second)).toBeDefined();
      expect(await contract.getSigningSecret('test')).toBe(bed.fake.resources.secrets.get(second));
    });
  });

  describe('state attacks store nothing', () => {
    it('refuses a missing state', async () => {
      const grant = bed.fake.issueOAuthCode();
      expectRefusal(await followCallback(bed.t, callbackPath(bed.t, { code: grant.code })), 'missing_state');
      expect(grant.used).toBe(false);
      await nothingStored('test');
    });

    it('refuses a forged state (tampered claims, foreign signature, garbage)', async () => {
      const genuine = await issueState(bed.t, 'test');
      const [payload, mac] = genuine.split('.');
      const claims = JSON.parse(Buffer.from(payload, 'base64url').toString());
      const asLive = `${Buffer.from(JSON.stringify({ ...claims, m: 'live' })).toString('base64url')}.${mac}`;
      const longer = `${Buffer.from(JSON.stringify({ ...claims, e: claims.e + 86_400_000 })).toString('base64url')}.${mac}`;
      for (const forged of [asLive, longer, `${payload}.${'A'.repeat(mac.length)}`, 'forged-state', `${payload}.`]) {
        const grant = bed.fake.issueOAuthCode();
        expectRefusal(await followCallback(bed.t, callbackPath(bed.t, { state: forged, code: grant.code })), 'invalid_state');
        expect(grant.used).toBe(false);
      }
      await nothingStored('test');
      await nothingStored('live');
    });

    it('refuses a reused state, even after a successful connect', async () => {
      const callback = await visitProxy(await startConnect(bed.t, 'test'));
      expect((await followCallback(bed.t, callback)).searchParams.get('gateway_a_connected')).toBe('test');
      bed.fake.clearRequests();
      expectRefusal(await followCallback(bed.t, callback), 'reused_state');
      expect(bed.fake.requestsTo('POST', '/oauth/token')).toHaveLength(0);
      expect(bed.fake.requestsTo('POST', '/v1/webhook_endpoints')).toHaveLength(0);
    });

    it('lets only one of two concurrent callbacks with the same state through', async () => {
      const stateValue = await issueState(bed.t, 'test');
      const credentials = { user_id: 'acct_raceCondition1', public_key: 'pk_test_racePublicKey01', secret_key: 'sk_test_raceSecretKey01' };
      const path = callbackPath(bed.t, { state: stateValue, ...credentials });
      const answers = await Promise.all([request(bed.t.http).get(path), request(bed.t.http).get(path), request(bed.t.http).get(path)]);
      const outcomes = answers.map((res) => new URL(res.headers.location).searchParams);
      expect(outcomes.filter((params) => params.get('gateway_a_connected') === 'test')).toHaveLength(1);
      expect(outcomes.filter((params) => params.get('gateway_a_error') === 'reused_state')).toHaveLength(2);
      expect(bed.fake.requestsTo('POST', '/v1/webhook_endpoints')).toHaveLength(1);
    });

    it('refuses a state older than ten minutes', async () => {
      const authorize = await startConnect(bed.t, 'test');
      const callback = await visitProxy(authorize);
      advanceClock(bed.t, 10 * 60_000 + 1);
      bed.fake.clearRequests();
      expectRefusal(await followCallback(bed.t, callback), 'expired_state');
      await nothingStored('test');
      expect(bed.fake.requestsTo('POST', '/oauth/token')).toHaveLength(0);
    });

    it('accepts a state just inside its ten minutes', async () => {
      const callback = await visitProxy(await startConnect(bed.t, 'test'));
      advanceClock(bed.t, 10 * 60_000 - 1_000);
      expect((await followCallback(bed.t, callback)).searchParams.get('gateway_a_connected')).toBe('test');
    });
  });

  describe('other refusals store nothing', () => {
    it('reports a declined authorisation', async () => {
      bed.fake.oauthDecision = 'deny';
      const callback = await visitProxy(await startConnect(bed.t, 'test'));
      expect(callback.searchParams.get('error')).toBe('access_denied');
      expectRefusal(await followCallback(bed.t, callback), 'access_denied');
      await nothingStored('test');
    });

    it('reports a code the proxy refuses, and a proxy that fails', async () => {
      expectRefusal(await followCallback(bed.t, callbackPath(bed.t, { state: await issueState(bed.t, 'test'), code: 'ac_unknownCode' })), 'exchange_refused');
      const grant = bed.fake.issueOAuthCode();
      bed.fake.fail({ method: 'POST', path: '/oauth/token', status: 502 });
      expectRefusal(await followCallback(bed.t, callbackPath(bed.t, { state: await issueState(bed.t, 'test'), code: grant.code })), 'exchange_failed');
      expectRefusal(await followCallback(bed.t, callbackPath(bed.t, { state: await issueState(bed.t, 'test') })), 'missing_code');
      await nothingStored('test');
    });

    it('refuses live credentials for a test state and test credentials for a live state', async () => {
      const liveGrant = bed.fake.issueOAuthCode({ livemode: true });
      expectRefusal(await followCallback(bed.t, callbackPath(bed.t, { state: await issueState(bed.t, 'test'), code: liveGrant.code })), 'mode_mismatch');
      const testKeys = { user_id: 'acct_mismatch0001', public_key: 'pk_test_mismatchPublic01', secret_key: 'sk_test_mismatchSecret01' };
      expectRefusal(await followCallback(bed.t, callbackPath(bed.t, { state: await issueState(bed.t, 'live'), ...testKeys })), 'mode_mismatch');
      const mixed = { ...testKeys, secret_key: 'sk_live_mismatchSecret01' };
      expectRefusal(await followCallback(bed.t, callbackPath(bed.t, { state: await issueState(bed.t, 'test'), ...mixed })), 'mode_mismatch');
      await nothingStored('test');
      await nothingStored('live');
    });

    it('refuses incomplete or malformed credentials', async () => {
      const cases = [
        { user_id: 'acct_incomplete01', public_key: 'pk_test_incompletePub01' },
        { user_id: 'not-an-account', public_key: 'pk_test_malformedPub001', secret_key: 'sk_test_malformedSec001' },
        { user_id: 'acct_malformed001', public_key: 'pk_test_malformedPub001', secret_key: 'whsec_notAKey' },
      ];
      for (const credentials of cases) {
        expectRefusal(
          await followCallback(bed.t, callbackPath(bed.t, { state: await issueState(bed.t, 'test'), ...(credentials as Record<string, string>) })),
          'invalid_credentials',
        );
      }
      await nothingStored('test');
    });

    it('answers 400 for unknown callback parameters', async () => {
      const res = await request(bed.t.http).get(callbackPath(bed.t, { state: 'x', surprise: '1' }));
      expect(res.status).toBe(400);
      expectWpError(res.body, 'rest_invalid_param', 400);
    });
  });

  describe('checkout stays paused until the contract is verified', () => {
    it('keeps the credentials but pauses checkout when provisioning fails; the manual path unpauses it', async () => {
      bed.fake.fail({ method: 'POST', path: '/v1/webhook_endpoints', status: 400, error: { type: 'invalid_request_error', message: 'url is not reachable' } });
      const landing = await connectThroughProxy(bed, 'test');
      expect(Object.fromEntries(landing.searchParams)).toMatchObject({ gateway_a_connected: 'test', gateway_a_webhook: 'failed' });
      expect((await storedCredentials('test')).secret_key).toMatch(/^sk_test_/);
      expect(await contract.getRecord('test')).toMatchObject({ status: 'failed', endpoint_id: null, last_error: expect.stringContaining('HTTP 400') });
      expect(JSON.stringify(await contract.getRecord('test'))).not.toContain('url is not reachable');

      const paused = await contract.assertCheckoutAvailable('test').catch((error: unknown) => error);
      expect(paused).toBeInstanceOf(CheckoutPausedError);
      expect(paused).toMatchObject({ code: 'checkout_paused', status: 409 });

      const res = await request(bed.t.http)
        .post(`${bed.t.base}/payment-gateway/save-webhook-settings`)
        .set('Authorization', bed.t.admin.auth)
        .send({ gateway: 'gateway_a', mode: 'test', signing_secret: 'whsec_manualEndpointSecret0001', manual_configuration_complete: true });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ management: 'manual', status: 'verified', checkout_paused: false });
      await expect(contract.assertCheckoutAvailable('test')).resolves.toBeUndefined();
    });

    it('is not verified when the read-back fails, though the endpoint and its secret are kept', async () => {
      bed.fake.fail({ method: 'GET', path: /^\/v1\/webhook_endpoints\/we_/, status: 500, shouldRetry: false, times: 5 });
      const landing = await connectThroughProxy(bed, 'test');
      expect(landing.searchParams.get('gateway_a_webhook')).toBe('failed');
      const record = await contract.getRecord('test');
      expect(record).toMatchObject({ status: 'failed', endpoint_id: expect.stringMatching(/^we_/) });
      expect(await contract.getSigningSecret('test')).toBe(bed.fake.resources.secrets.get(record!.endpoint_id!));
      expect(await contract.isCheckoutAvailable('test')).toBe(false);
    });

    it('is not verified when the gateway answers an endpoint that differs from the contract', async () => {
      const credentials = { user_id: 'acct_differs00001', public_key: 'pk_test_differsPublic01', secret_key: 'sk_test_differsSecret01' };
      // The gateway drops an event (as a proxy with an outdated event whitelist might).
      const original = bed.fake.resources.createWebhookEndpoint.bind(bed.fake.resources);
      jest.spyOn(bed.fake.resources, 'createWebhookEndpoint').mockImplementation((account, body) => {
        const created = original(account, body);
        bed.fake.resources.get(created.id as string)!.enabled_events = GATEWAY_A_WEBHOOK_EVENTS.slice(1);
        return created;
      });
      const landing = await followCallback(bed.t, callbackPath(bed.t, { state: await issueState(bed.t, 'test'), ...credentials }));
      expect(landing.searchParams.get('gateway_a_webhook')).toBe('failed');
      expect(await contract.getRecord('test')).toMatchObject({ status: 'failed', last_error: 'endpoint event list does not match the contract' });
      expect(await contract.isCheckoutAvailable('test')).toBe(false);
    });
  });
});

describe('plan routing of gateway-A calls', () => {
  it('Pro: OAuth through the proxy, API calls straight to GATEWAY_A_API_BASE; free: everything through the proxy', async () => {
    const proxy = await startFakeGatewayA();
    const direct = await startFakeGatewayA();
    try {
      for (const plan of ['pro', 'free'] as const) {
        const t = await startTestApp({ CHECKOUT_PLAN: plan, CHECKOUT_PROXY_URL: proxy.url, GATEWAY_A_API_BASE: direct.url, ADMIN_URL: TEST_ADMIN_URL });
        try {
          proxy.clearRequests();
          direct.clearRequests();
          const landing = await followCallback(t, await visitProxy(await startConnect(t, 'test')));
          expect(landing.searchParams.get('gateway_a_webhook')).toBe('verified');
          expect(proxy.requestsTo('POST', '/oauth/token')).toHaveLength(1);
          const api = plan === 'pro' ? direct : proxy;
          const other = plan === 'pro' ? proxy : direct;
          expect(api.requestsTo('POST', '/v1/webhook_endpoints')).toHaveLength(1);
          expect(other.requests.filter((r) => r.path.startsWith('/v1/'))).toHaveLength(0);
          expect(direct.requests.filter((r) => r.path.startsWith('/oauth/'))).toHaveLength(0);
        } finally {
          await t.close();
        }
      }
    } finally {
      await proxy.stop();
      await direct.stop();
    }
  });
});
