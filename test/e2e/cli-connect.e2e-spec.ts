import { PassThrough } from 'node:stream';
import { terminalPrompt } from '../../src/cli-connect.js';
import { DomainError } from '../../src/common/errors/index.js';
import { connectGatewayA, GatewayAContractService, gatewayAOption } from '../../src/modules/gateway-a/index.js';
import { connectGatewayB, gatewayBOption, gatewayBWebhookUrl } from '../../src/modules/gateway-b/index.js';
import { type ConnectIo, ConnectUsageError, GatewayRegistry, parseMode } from '../../src/modules/gateways/index.js';
import { OptionsService } from '../../src/modules/settings/index.js';
import { type FakeGatewayA, startFakeGatewayA } from '../fakes/gateway-a/index.js';
import { type FakeGatewayB, startFakeGatewayB } from '../fakes/gateway-b/index.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

/** A scripted terminal: answers per question and everything written. */
function scriptedIo(env: NodeJS.ProcessEnv, answers: Record<string, string | null> = {}) {
  const asked: Array<{ question: string; hidden: boolean }> = [];
  const lines: string[] = [];
  const io: ConnectIo = {
    env,
    prompt: async (question, { hidden }) => {
      asked.push({ question, hidden });
      const key = Object.keys(answers).find((start) => question.startsWith(start));
      return key === undefined ? null : answers[key];
    },
    out: (line) => lines.push(line),
    err: (line) => lines.push(line),
  };
  return { io, asked, lines, output: () => lines.join('\n') };
}

async function rejection(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected a rejection');
}

/**
 * `npm run cli -- gateway-a:connect | gateway-b:connect`, run in-process against the whole app and
 * the gateway fakes: keys from the environment or a hidden prompt, checked with the provider,
 * stored by the slices' own credential paths, gateway A's webhook contract provisioned.
 */
describe('CLI gateway connect commands', () => {
  let t: TestApp;
  let fakeA: FakeGatewayA;
  let sandbox: FakeGatewayB;
  let options: OptionsService;
  const secretKey = 'sk_test_cliOwnKey1234567890abcdef';
  const publishableKey = 'pk_test_cliOwnKey1234567890abcdef';

  beforeAll(async () => {
    fakeA = await startFakeGatewayA();
    sandbox = await startFakeGatewayB({ environment: 'sandbox' });
    t = await startTestApp({ CHECKOUT_PLAN: 'pro', GATEWAY_A_API_BASE: fakeA.url, CHECKOUT_PROXY_URL: fakeA.url, GATEWAY_B_API_BASE_TEST: sandbox.url });
    options = t.app.get(OptionsService);
  });
  afterAll(async () => {
    await t.close();
    await fakeA.stop();
    await sandbox.stop();
  });
  beforeEach(() => {
    fakeA.clearRequests();
    sandbox.clearCalls();
  });

  const storedA = async () => ({
    user_id: await options.get(gatewayAOption.credential('test', 'user_id'), null),
    public_key: await options.get(gatewayAOption.credential('test', 'public_key'), null),
    secret_key: await options.getSecret(gatewayAOption.credential('test', 'secret_key')),
  });
  const forgetA = () => t.app.get(GatewayRegistry).get('gateway_a').disconnect('test');

  it('takes --mode test or live only', () => {
    expect(parseMode('test')).toBe('test');
    expect(() => parseMode(undefined)).toThrow(ConnectUsageError);
    expect(() => parseMode('sandbox')).toThrow(ConnectUsageError);
  });

  describe('the terminal prompt', () => {
    const terminal = () => {
      const input = Object.assign(new PassThrough(), { isTTY: true });
      const output = new PassThrough();
      let written = '';
      output.on('data', (chunk: Buffer) => (written += chunk.toString('utf8')));
      return { input, output, written: () => written };
    };

    it('reads a hidden answer without echoing it, and echoes a visible one', async () => {
      const hidden = terminal();
      const secret = terminalPrompt(hidden.input, hidden.output)('Secret key: ', { hidden: true });
      hidden.input.write('sk_test_typedSecret123\r');
      expect(await secret).toBe('sk_test_typedSecret123');
      expect(hidden.written()).toContain('Secret key: ');
      expect(hidden.written()).not.toContain('typedSecret');

      const visible = terminal();
      const key = terminalPrompt(visible.input, visible.output)('Publishable key: ', { hidden: false });
      visible.input.write('pk_test_typedPublic123\r');
      expect(await key).toBe('pk_test_typedPublic123');
      expect(visible.written()).toContain('typedPublic');
    });

    it('answers null without a terminal (the command then names the variable to set)', async () => {
      const input = new PassThrough();
      expect(await terminalPrompt(input, new PassThrough())('Secret key: ', { hidden: true })).toBeNull();
    });
  });

  describe('gateway-a:connect', () => {
    afterEach(forgetA);

    it('checks the environment keys with the gateway, stores them, provisions and verifies the webhook; prints no secret', async () => {
      const run = scriptedIo({ GATEWAY_A_SECRET_KEY: secretKey, GATEWAY_A_PUBLISHABLE_KEY: publishableKey });
      expect(await connectGatewayA(t.app, 'test', run.io)).toBe(0);
      expect(run.asked).toEqual([]);

      const account = fakeA.accountFor(secretKey).id;
      expect(await storedA()).toEqual({ user_id: account, public_key: publishableKey, secret_key: secretKey });
      // Sealed at rest, as the connect callback stores it.
      const rows: Array<{ value: string }> = await t.dataSource.query(`SELECT option_value AS value FROM ${t.config.tablePrefix}options WHERE option_name = ?`, [gatewayAOption.credential('test', 'secret_key')]);
      expect(rows[0].value).not.toContain(secretKey);

      expect(fakeA.requests.map((r) => `${r.method} ${r.path} ${r.status}`)).toEqual([
        'GET /v1/account 200',
        'GET /v1/balance 200',
        'POST /v1/webhook_endpoints 200',
        'GET /v1/webhook_endpoints/' + (await t.app.get(GatewayAContractService).view('test')).endpoint_id + ' 200',
      ]);
      expect(fakeA.requests.every((r) => r.apiKey === secretKey)).toBe(true);
      const view = await t.app.get(GatewayAContractService).view('test');
      expect(view).toMatchObject({ management: 'automatic', status: 'verified', checkout_paused: false });
      expect(await t.app.get(GatewayRegistry).get('gateway_a').checkoutPaused('test')).toBe(false);

      expect(run.output()).toContain(account);
      expect(run.output()).toContain('verified');
      expect(run.output()).not.toContain(secretKey);
    });

    it('asks for missing keys, the secret one without echo', async () => {
      const run = scriptedIo({}, { 'Gateway A publishable key': publishableKey, 'Gateway A secret key': secretKey });
      expect(await connectGatewayA(t.app, 'test', run.io)).toBe(0);
      expect(run.asked).toEqual([
        { question: expect.stringContaining('publishable key'), hidden: false },
        { question: expect.stringContaining('secret key'), hidden: true },
      ]);
      expect((await storedA()).secret_key).toBe(secretKey);
      expect(run.output()).not.toContain(secretKey);
    });

    it('stops when a key is neither in the environment nor answerable, storing nothing', async () => {
      const error = await rejection(connectGatewayA(t.app, 'test', scriptedIo({ GATEWAY_A_PUBLISHABLE_KEY: publishableKey }).io));
      expect(error).toBeInstanceOf(ConnectUsageError);
      expect(error.message).toContain('GATEWAY_A_SECRET_KEY');
      expect(fakeA.requests).toEqual([]);
      expect(await storedA()).toEqual({ user_id: null, public_key: null, secret_key: null });
    });

    it('refuses live keys for test mode before any gateway call', async () => {
      const error = await rejection(connectGatewayA(t.app, 'test', scriptedIo({ GATEWAY_A_SECRET_KEY: 'sk_live_abcdefgh12345678', GATEWAY_A_PUBLISHABLE_KEY: 'pk_live_abcdefgh12345678' }).io));
      expect(error).toBeInstanceOf(DomainError);
      expect((error as DomainError).status).toBe(400);
      expect(fakeA.requests).toEqual([]);
      expect(await storedA()).toEqual({ user_id: null, public_key: null, secret_key: null });
    });

    it('refuses a key the gateway says acts in the other mode (the balance is live), storing nothing', async () => {
      // The account object has no livemode at the pinned API version; the balance has.
      fakeA.keyLivemode.set(secretKey, true);
      try {
        const error = await rejection(connectGatewayA(t.app, 'test', scriptedIo({ GATEWAY_A_SECRET_KEY: secretKey, GATEWAY_A_PUBLISHABLE_KEY: publishableKey }).io));
        expect(error).toMatchObject({ code: 'rest_invalid_param', status: 400 });
        expect((error as DomainError).data).toEqual({ params: { mode: 'the gateway says this key is not a test key' } });
      } finally {
        fakeA.keyLivemode.delete(secretKey);
      }
      expect(fakeA.requests.map((r) => `${r.method} ${r.path} ${r.status}`)).toEqual(['GET /v1/account 200', 'GET /v1/balance 200']);
      expect(await storedA()).toEqual({ user_id: null, public_key: null, secret_key: null });
      expect((await t.app.get(GatewayAContractService).view('test')).status).toBe('unconfigured');
    });

    it('connects a restricted key that may not read the balance by its prefix alone', async () => {
      const restricted = 'rk_test_cliRestricted1234567890ab';
      fakeA.fail({ method: 'GET', path: '/v1/balance', status: 403, error: { type: 'invalid_request_error', message: 'The provided key does not have the required permissions for this endpoint.' } });
      const run = scriptedIo({ GATEWAY_A_SECRET_KEY: restricted, GATEWAY_A_PUBLISHABLE_KEY: publishableKey });
      expect(await connectGatewayA(t.app, 'test', run.io)).toBe(0);
      expect(fakeA.requests.slice(0, 2).map((r) => `${r.method} ${r.path} ${r.status}`)).toEqual(['GET /v1/account 200', 'GET /v1/balance 403']);
      expect(await storedA()).toEqual({ user_id: fakeA.accountFor(restricted).id, public_key: publishableKey, secret_key: restricted });
    });

    it('stores nothing when the gateway refuses the secret key, and never repeats the key', async () => {
      const revoked = 'sk_test_revokedKey1234567890';
      fakeA.revokeKey(revoked);
      const error = await rejection(connectGatewayA(t.app, 'test', scriptedIo({ GATEWAY_A_SECRET_KEY: revoked, GATEWAY_A_PUBLISHABLE_KEY: publishableKey }).io));
      expect(error).toMatchObject({ code: 'checkout_gateway_error', status: 502 });
      expect(error.message).not.toContain(revoked);
      expect(fakeA.requests.map((r) => `${r.method} ${r.path} ${r.status}`)).toEqual(['GET /v1/account 401']);
      expect(await storedA()).toEqual({ user_id: null, public_key: null, secret_key: null });
      expect((await t.app.get(GatewayAContractService).view('test')).status).toBe('unconfigured');
    });

    it('reports a webhook endpoint that could not be provisioned (exit 1, checkout stays paused)', async () => {
      fakeA.fail({ method: 'POST', path: '/v1/webhook_endpoints', status: 400 });
      const run = scriptedIo({ GATEWAY_A_SECRET_KEY: secretKey, GATEWAY_A_PUBLISHABLE_KEY: publishableKey });
      expect(await connectGatewayA(t.app, 'test', run.io)).toBe(1);
      expect((await storedA()).secret_key).toBe(secretKey);
      expect(await t.app.get(GatewayAContractService).view('test')).toMatchObject({ status: 'failed', checkout_paused: true });
      expect(run.output()).toContain('stays paused');
      fakeA.clearFailures();
    });
  });

  describe('gateway-b:connect', () => {
    const storedB = async () => ({
      email: await options.get(gatewayBOption.credential('test', 'email'), null),
      client_id: await options.get(gatewayBOption.credential('test', 'client_id'), null),
      secret: await options.getSecret(gatewayBOption.credential('test', 'secret')),
      webhook_id: await options.getSecret(gatewayBOption.webhookId('test')),
    });
    afterEach(() => t.app.get(GatewayRegistry).get('gateway_b').disconnect('test'));

    it('checks the client id and secret with a token request, stores them and the Webhook ID, verifies its listener; prints no secret', async () => {
      const webhookId = sandbox.webhookId;
      sandbox.setWebhookListener(webhookId, { url: gatewayBWebhookUrl(t.config, 'test'), eventTypes: ['PAYMENT.CAPTURE.COMPLETED'] });
      const run = scriptedIo({ GATEWAY_B_CLIENT_ID: sandbox.clientId, GATEWAY_B_CLIENT_SECRET: sandbox.clientSecret, GATEWAY_B_WEBHOOK_ID: webhookId });
      expect(await connectGatewayB(t.app, 'test', 'merchant@example.test', run.io)).toBe(0);
      const calls = sandbox.apiCalls().map((call) => `${call.method} ${call.path} ${call.status}`);
      expect(calls[0]).toBe('POST /v1/oauth2/token 200');
      expect(calls).toContain(`GET /v1/notifications/webhooks/${webhookId} 200`);
      expect(await storedB()).toEqual({ email: 'merchant@example.test', client_id: sandbox.clientId, secret: sandbox.clientSecret, webhook_id: webhookId });
      expect(await t.app.get(GatewayRegistry).get('gateway_b').isConnected('test')).toBe(true);
      expect(run.output()).toContain('delivers PAYMENT.CAPTURE.COMPLETED');
      expect(run.output()).not.toContain(sandbox.clientSecret);
      expect(run.output()).not.toContain(webhookId);
    });

    it('keeps the credentials but exits 1 when the Webhook ID delivers elsewhere', async () => {
      const webhookId = sandbox.webhookId;
      sandbox.setWebhookListener(webhookId, { url: 'https://elsewhere.example/hook', eventTypes: ['PAYMENT.CAPTURE.COMPLETED'] });
      const run = scriptedIo({ GATEWAY_B_CLIENT_ID: sandbox.clientId, GATEWAY_B_CLIENT_SECRET: sandbox.clientSecret, GATEWAY_B_WEBHOOK_ID: webhookId });
      expect(await connectGatewayB(t.app, 'test', 'merchant@example.test', run.io)).toBe(1);
      expect(run.output()).toContain('https://elsewhere.example/hook');
      expect((await storedB()).secret).toBe(sandbox.clientSecret);
    });

    it('asks for the secret without echo and, without a Webhook ID, says where to point the webhook (exit 1)', async () => {
      const run = scriptedIo({ GATEWAY_B_CLIENT_ID: sandbox.clientId }, { 'Gateway B secret': sandbox.clientSecret });
      expect(await connectGatewayB(t.app, 'test', 'merchant@example.test', run.io)).toBe(1);
      expect(run.asked).toEqual([{ question: expect.stringContaining('secret'), hidden: true }]);
      expect(run.output()).toContain('/webhook/gateway-b-callback/test');
      expect(run.output()).toContain('no Webhook ID is saved');
      expect((await storedB()).webhook_id).toBeNull();
      expect((await storedB()).secret).toBe(sandbox.clientSecret);
    });

    it('stores nothing when the provider refuses the credentials', async () => {
      const run = scriptedIo({ GATEWAY_B_CLIENT_ID: sandbox.clientId, GATEWAY_B_CLIENT_SECRET: 'not-the-secret-123' });
      const error = await rejection(connectGatewayB(t.app, 'test', 'merchant@example.test', run.io));
      expect(error).toMatchObject({ code: 'checkout_gateway_error', status: 502 });
      expect(error.message).not.toContain('not-the-secret-123');
      expect(await storedB()).toEqual({ email: null, client_id: null, secret: null, webhook_id: null });
    });

    it('needs --email', async () => {
      const error = await rejection(connectGatewayB(t.app, 'test', undefined, scriptedIo({ GATEWAY_B_CLIENT_ID: sandbox.clientId, GATEWAY_B_CLIENT_SECRET: sandbox.clientSecret }).io));
      expect(error).toBeInstanceOf(ConnectUsageError);
      expect(sandbox.apiCalls()).toEqual([]);
    });
  });
});
