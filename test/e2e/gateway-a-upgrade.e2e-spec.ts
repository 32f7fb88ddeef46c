import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import Stripe from 'stripe';
import { CHECKOUT_VERSION } from '../../src/config/index.js';
import { Clock } from '../../src/common/clock/index.js';
import { ShutdownState } from '../../src/common/shutdown/index.js';
import { CheckoutPausedError, GATEWAY_A_WEBHOOK_EVENTS, GatewayAClientFactory, GatewayAContractService, GatewayAWebhookUpgradeTask, gatewayAOption, InstallationScope, type WebhookUpgradeProgress } from '../../src/modules/gateway-a/index.js';
import { TaskLeaseRepository } from '../../src/modules/tasks/index.js';
import { UpgradeRegistry } from '../../src/modules/plugin/index.js';
import { OptionsService } from '../../src/modules/settings/index.js';
import { type FakeGatewayA, startFakeGatewayA } from '../fakes/gateway-a/index.js';
import { type GatewayATestBed, startGatewayATestBed } from '../support/gateway-a.js';
import { startTestApp, type TestApp, installationIdOf } from '../support/test-app.js';
import { advanceClock } from '../support/app-state.js';

/** What release 1.5.2 subscribed its endpoints to (fewer events than the 1.5.3 contract). */
const LEGACY_EVENTS = ['payment_intent.succeeded', 'payment_intent.payment_failed', 'setup_intent.succeeded', 'invoice.paid', 'invoice.payment_failed', 'customer.subscription.deleted'];
const LEGACY_API_VERSION = '2024-06-20';
const WEBHOOK_URL = (mode: string) => `http://checkout.test/wp-json/checkout/v1/webhook/gateway-a-callback/${mode}`;
let accountCounter = 0;

interface SeededSite {
  managed: Stripe.WebhookEndpoint;
  manual: Stripe.WebhookEndpoint;
  managedSecret: string;
  manualSecret: string;
}

/**
 * A site as release 1.5.2 left it: test mode connected with an endpoint 1.5.2 created (our
 * marker, the old events, an older API version); live mode connected with an endpoint the
 * merchant manages by hand (record `manual`, secret entered by the admin).
 */
async function seed152Site(t: TestApp, fake: FakeGatewayA): Promise<SeededSite> {
  const options = t.app.get(OptionsService);
  const site: Partial<SeededSite> = {};
  for (const mode of ['test', 'live'] as const) {
    const suffix = `legacy${mode}${(accountCounter += 1)}xx`;
    const secretKey = `sk_${mode}_${suffix}Secret`;
    await options.set(gatewayAOption.credential(mode, 'user_id'), `acct_${suffix}`);
    await options.set(gatewayAOption.credential(mode, 'public_key'), `pk_${mode}_${suffix}Public`);
    await options.setSecret(gatewayAOption.credential(mode, 'secret_key'), secretKey);
    const sdk = new Stripe(secretKey, { host: '127.0.0.1', port: fake.port, protocol: 'http' });
    const endpoint = await sdk.webhookEndpoints.create({
      url: WEBHOOK_URL(mode),
      enabled_events: LEGACY_EVENTS as Stripe.WebhookEndpointCreateParams.EnabledEvent[],
      api_version: LEGACY_API_VERSION as Stripe.WebhookEndpointCreateParams.ApiVersion,
      ...(mode === 'test' ? { metadata: { checkout_managed: 'true', checkout_version: '1.5.2' } } : {}),
    });
    await options.setSecret(gatewayAOption.webhookSecret(mode), endpoint.secret!);
    if (mode === 'test') {
      await options.set(gatewayAOption.webhook(mode), { management: 'automatic', endpoint_id: endpoint.id });
      Object.assign(site, { managed: endpoint, managedSecret: endpoint.secret });
    } else {
      await options.set(gatewayAOption.webhook(mode), { management: 'manual', endpoint_id: null });
      Object.assign(site, { manual: endpoint, manualSecret: endpoint.secret });
    }
  }
  await options.set('checkout_version', '1.5.2');
  await options.delete(gatewayAOption.webhookUpgrade());
  fake.clearRequests();
  return site as SeededSite;
}

async function runToRest(task: GatewayAWebhookUpgradeTask): Promise<WebhookUpgradeProgress> {
  await task.runDue();
  await task.idle();
  return (await task.progress())!;
}

describe('upgrade 1.5.2 → 1.5.3: the in-place webhook update', () => {
  let bed: GatewayATestBed;
  const installationId = () => installationIdOf(bed.t);
  let task: GatewayAWebhookUpgradeTask;
  let contract: GatewayAContractService;

  beforeAll(async () => {
    bed = await startGatewayATestBed();
    task = bed.t.app.get(GatewayAWebhookUpgradeTask);
    contract = bed.t.app.get(GatewayAContractService);
  });
  afterAll(() => bed.close());
  afterEach(() => {
    jest.restoreAllMocks();
    bed.fake.clearFailures();
    bed.fake.latencyMs = 0;
  });

  const update = () => request(bed.t.http).post(`${bed.t.base}/plugin/update`).set('Authorization', bed.t.admin.auth).send({ version: '1.5.3' });
  const updatesOf = (endpointId: string) => bed.fake.requestsTo('POST', `/v1/webhook_endpoints/${endpointId}`);

  it('updates the 1.5.2 endpoint in place (events only) and leaves the manual one untouched', async () => {
    const site = await seed152Site(bed.t, bed.fake);
    await expect(contract.assertCheckoutAvailable('test')).rejects.toBeInstanceOf(CheckoutPausedError);

    const res = await update();
    expect(res.status).toBe(200);
    const progress = await runToRest(task);
    expect(progress).toMatchObject({ status: 'completed', attempts: 1, max_attempts: 5, last_error: null, modes: { test: 'updated', live: 'skipped_manual' } });

    // One update, carrying enabled_events and nothing else (no api_version, no secret roll).
    const [call] = updatesOf(site.managed.id);
    expect(updatesOf(site.managed.id)).toHaveLength(1);
    expect(Object.keys(call.body)).toEqual(['enabled_events']);
    expect(new Set(call.body.enabled_events as string[])).toEqual(new Set(GATEWAY_A_WEBHOOK_EVENTS));
    expect(call.idempotencyKey).toBe(`checkout-${installationId()}-1.5.3-events-${site.managed.id}`);
    expect(bed.fake.requestsTo('POST', '/v1/webhook_endpoints')).toHaveLength(0);
    expect(bed.fake.requests.filter((r) => r.method === 'DELETE')).toHaveLength(0);

    // Same endpoint: id, URL, API version, secret and metadata as before; only the events changed.
    const after = bed.fake.resources.get(site.managed.id)!;
    expect(after).toMatchObject({ id: site.managed.id, url: WEBHOOK_URL('test'), api_version: LEGACY_API_VERSION, status: 'enabled', metadata: site.managed.metadata });
    expect([...(after.enabled_events as string[])].sort()).toEqual([...GATEWAY_A_WEBHOOK_EVENTS].sort());
    expect(bed.fake.resources.secrets.get(site.managed.id)).toBe(site.managedSecret);
    expect(await contract.getSigningSecret('test')).toBe(site.managedSecret);
    expect(await contract.getRecord('test')).toMatchObject({ management: 'automatic', endpoint_id: site.managed.id, status: 'verified', events_version: CHECKOUT_VERSION });
    await expect(contract.assertCheckoutAvailable('test')).resolves.toBeUndefined();

    // The manual endpoint: not read, not written; its events and secret as the merchant left them.
    expect(bed.fake.requests.filter((r) => r.path.includes(site.manual.id))).toHaveLength(0);
    expect(bed.fake.resources.get(site.manual.id)).toMatchObject({ enabled_events: LEGACY_EVENTS, api_version: LEGACY_API_VERSION });
    expect(await contract.getSigningSecret('live')).toBe(site.manualSecret);

    const status = await request(bed.t.http).get(`${bed.t.base}/plugin/status`).set('Authorization', bed.t.admin.auth);
    expect(status.body.version).toBe('1.5.3');
    // Done is done: another run changes nothing.
    bed.fake.clearRequests();
    expect(await task.runDue()).toBe('idle');
    expect(bed.fake.requests).toHaveLength(0);
  });

  it('never alters an endpoint without the plugin marker, even if the record says automatic', async () => {
    const site = await seed152Site(bed.t, bed.fake);
    const options = bed.t.app.get(OptionsService);
    await options.set(gatewayAOption.webhook('live'), { management: 'automatic', endpoint_id: site.manual.id });
    await update();
    const progress = await runToRest(task);
    expect(progress.modes).toEqual({ test: 'updated', live: 'skipped_unmanaged' });
    expect(updatesOf(site.manual.id)).toHaveLength(0);
    expect(bed.fake.resources.get(site.manual.id)!.enabled_events).toEqual(LEGACY_EVENTS);
  });

  it('retries with exponential backoff, gives up after the attempt limit, and never deletes or recreates', async () => {
    const site = await seed152Site(bed.t, bed.fake);
    bed.fake.fail({ method: 'POST', path: `/v1/webhook_endpoints/${site.managed.id}`, status: 500, shouldRetry: false, times: 100 });
    const clock = bed.t.app.get(Clock);
    advanceClock(bed.t, 0); // time stands still unless the test moves it
    await update();
    let progress = await runToRest(task);
    expect(progress).toMatchObject({ status: 'retrying', attempts: 1, modes: { test: 'error', live: 'skipped_manual' } });
    expect(progress.last_error).toBe('test: gateway refused the request (HTTP 500, StripeAPIError)');

    const delays: number[] = [];
    for (let attempt = 2; attempt <= 5; attempt += 1) {
      const wait = Date.parse(progress.next_attempt_at!) - clock.now().getTime();
      delays.push(wait);
      // Not yet due: nothing happens.
      advanceClock(bed.t, wait - 1_000);
      expect(await task.runDue()).toBe('not_due');
      expect(updatesOf(site.managed.id)).toHaveLength(attempt - 1);
      advanceClock(bed.t, 1_000);
      progress = await runToRest(task);
      expect(progress.attempts).toBe(attempt);
    }
    expect(delays).toEqual([30_000, 60_000, 120_000, 240_000]);
    expect(progress).toMatchObject({ status: 'failed', attempts: 5, next_attempt_at: null, finished_at: expect.any(String) });
    expect(updatesOf(site.managed.id)).toHaveLength(5);

    // Bounded: no sixth attempt, however long we wait.
    advanceClock(bed.t, 24 * 3600_000);
    expect(await task.runDue()).toBe('idle');
    expect(updatesOf(site.managed.id)).toHaveLength(5);
    expect(bed.fake.requests.filter((r) => r.method === 'DELETE' || r.path === '/v1/webhook_endpoints')).toHaveLength(0);
    expect(bed.fake.resources.get(site.managed.id)).toMatchObject({ enabled_events: LEGACY_EVENTS, api_version: LEGACY_API_VERSION });
    expect(bed.fake.resources.secrets.get(site.managed.id)).toBe(site.managedSecret);
    await expect(contract.assertCheckoutAvailable('test')).rejects.toMatchObject({ code: 'checkout_paused', status: 409 });
  });

  it('recovers on a later attempt after a transient failure', async () => {
    const site = await seed152Site(bed.t, bed.fake);
    bed.fake.fail({ method: 'POST', path: `/v1/webhook_endpoints/${site.managed.id}`, status: 503, shouldRetry: false, times: 1 });
    await update();
    let progress = await runToRest(task);
    expect(progress.status).toBe('retrying');
    advanceClock(bed.t, 30_000);
    progress = await runToRest(task);
    expect(progress).toMatchObject({ status: 'completed', attempts: 2, modes: { test: 'updated', live: 'skipped_manual' }, last_error: null });
    expect(updatesOf(site.managed.id)).toHaveLength(2);
    expect(await contract.isCheckoutAvailable('test')).toBe(true);
  });

  it('marks a vanished endpoint without retrying (checkout stays paused until reconnect or manual setup)', async () => {
    const site = await seed152Site(bed.t, bed.fake);
    bed.fake.resources.deleteWebhookEndpoint(bed.fake.accountFor((await bed.t.app.get(OptionsService).getSecret(gatewayAOption.credential('test', 'secret_key')))!), site.managed.id);
    await update();
    const progress = await runToRest(task);
    expect(progress).toMatchObject({ status: 'completed', modes: { test: 'endpoint_missing', live: 'skipped_manual' } });
    expect(await contract.getRecord('test')).toMatchObject({ status: 'failed', last_error: 'endpoint not found at the gateway' });
    expect(await contract.isCheckoutAvailable('test')).toBe(false);
  });

  it('runs on one instance at a time (database lease)', async () => {
    const site = await seed152Site(bed.t, bed.fake);
    const leases = bed.t.app.get(TaskLeaseRepository);
    // Another instance holds the lease: this one waits.
    const clock = bed.t.app.get(Clock);
    expect(await leases.tryAcquire('gateway_a_webhook_update_1_5_3', 'other-instance', clock.now(), 60_000)).toBe(true);
    await update();
    expect(await task.runDue()).toBe('busy');
    expect(updatesOf(site.managed.id)).toHaveLength(0);
    // Its lease expires (it crashed): this instance takes over.
    advanceClock(bed.t, 61_000);
    expect(await task.runDue()).toBe('completed');
    expect(updatesOf(site.managed.id)).toHaveLength(1);
  });

  it('lets exactly one of two instances run a due attempt', async () => {
    const site = await seed152Site(bed.t, bed.fake);
    const app = bed.t.app;
    // A second instance of the task, as another process sharing the database would have.
    const other = new GatewayAWebhookUpgradeTask(
      app.get(OptionsService),
      app.get(GatewayAClientFactory),
      contract,
      app.get(TaskLeaseRepository),
      app.get(Clock),
      new UpgradeRegistry(),
      app.get(InstallationScope),
      new ShutdownState(),
    );
    bed.fake.latencyMs = 30;
    await update();
    const results = await Promise.all([task.runDue(), other.runDue()]);
    await task.idle();
    await other.onModuleDestroy();
    expect(results.filter((result) => result === 'completed')).toHaveLength(1);
    expect(results.filter((result) => result === 'busy' || result === 'idle')).toHaveLength(1);
    expect(updatesOf(site.managed.id)).toHaveLength(1);
    expect((await task.progress())?.attempts).toBe(1);
  });
});

describe('upgrade at boot when the stored version is older', () => {
  it('schedules and runs the in-place update when an instance starts on a 1.5.2 database', async () => {
    const fake = await startFakeGatewayA();
    const env = {
      DATABASE_URL: `sqlite:${join(mkdtempSync(join(tmpdir(), 'checkout-upgrade-')), 'site.sqlite')}`,
      CHECKOUT_PROXY_URL: fake.url,
      GATEWAY_A_API_BASE: fake.url,
    };
    try {
      const first = await startTestApp(env);
      const site = await seed152Site(first, fake);
      await first.close();

      const second = await startTestApp(env);
      try {
        const task = second.app.get(GatewayAWebhookUpgradeTask);
        const progress = await runToRest(task);
        expect(progress).toMatchObject({ status: 'completed', modes: { test: 'updated', live: 'skipped_manual' } });
        expect(await second.app.get(OptionsService).get('checkout_version', null)).toBe(CHECKOUT_VERSION);
        expect(fake.requestsTo('POST', `/v1/webhook_endpoints/${site.managed.id}`)).toHaveLength(1);
        expect(fake.resources.get(site.managed.id)).toMatchObject({ api_version: LEGACY_API_VERSION });
      } finally {
        await second.close();
      }
    } finally {
      await fake.stop();
    }
  });
});
