import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { type Connection, createConnection } from 'mysql2/promise';
import { DataSource } from 'typeorm';
import { loadConfig } from '../../src/config/index.js';
import { buildDataSourceOptions } from '../../src/database/index.js';
import { MIGRATIONS } from '../../src/database/migrations/index.js';
import { GATEWAY_A_WEBHOOK_EVENTS, gatewayAOption } from '../../src/modules/gateway-a/index.js';
import { type FakeGatewayA, signedEvent, startFakeGatewayA } from '../fakes/gateway-a/index.js';
import { Balancer } from '../support/balancer.js';
import { KeepAliveClient } from '../support/keep-alive-client.js';
import { peerDatabaseUrl } from '../support/peer-database.js';
import { type LogRecord, ServiceProcess, stopAllServices } from '../support/service-process.js';

/**
 * Several instances of the built service, each its own OS process, behind nothing but their own
 * ports (no sticky sessions): one MariaDB database and one Redis shared (docs/decisions.md §4, §6; issue
 * 16; docs/scaling.md). `npm run test:multi` builds and runs this file; it is not part of
 * `npm test`. It needs DATABASE_URL=mysql://… (it uses, and empties, the sibling database
 * `<name>_multi`) and Redis at REDIS_URL (default 127.0.0.1:6379; keys under a prefix of their own).
 */

const BASE_URL = process.env.DATABASE_URL ?? '';
if (!/^(mysql|mariadb):/.test(BASE_URL)) {
  throw new Error('The multi-instance suite needs DATABASE_URL=mysql://… (it uses the sibling database <name>_multi), e.g. DATABASE_URL=mysql://root@127.0.0.1:3306/test npm run test:multi');
}
const REDIS_URL = process.env.REDIS_URL || 'redis://127.0.0.1:6379';
const REST = '/wp-json/checkout/v1';
const PUBLIC_BASE_URL = 'http://checkout-multi.test';
const ADMIN_PASSWORD = 'multi-instance-admin-application-password';
const ADMIN_AUTH = basic('admin', ADMIN_PASSWORD);
const SECRET = 'multi-instance-checkout-secret-of-at-least-32-bytes';
const PREFIX = 'wp_';

function basic(login: string, password: string): string {
  return `Basic ${Buffer.from(`${login}:${password}`).toString('base64')}`;
}

interface Answer {
  status: number;
  body: Record<string, unknown>;
  headers: Headers;
}

/** One HTTP call to an instance; `client` is the address the (trusted) proxy in front reports. */
async function call(
  instance: ServiceProcess,
  method: string,
  path: string,
  options: { body?: unknown; raw?: string; headers?: Record<string, string>; client?: string; auth?: string } = {},
): Promise<Answer> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.client) headers['X-Forwarded-For'] = options.client;
  if (options.auth) headers.Authorization = options.auth;
  let body: string | undefined = options.raw;
  if (options.body !== undefined) body = JSON.stringify(options.body);
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  const res = await fetch(`${instance.url}${path}`, { method, headers, body, redirect: 'manual' });
  const text = await res.text();
  let parsed: Record<string, unknown>;
  try {
    parsed = text ? (JSON.parse(text) as Record<string, unknown>) : {};
  } catch {
    parsed = { text };
  }
  return { status: res.status, body: parsed, headers: res.headers };
}

function formSettings() {
  return {
    plans: [{ title: 'Payment', prices: [{ amount: 1000, currency: 'USD', frequency: 'one-time' }] }],
    payment_methods: { gateway_a: ['ccard'] },
    fields: [
      { name: 'email_address', type: 'email', label: 'Email', required: true },
      { name: 'first_name', type: 'text', label: 'First name', required: false },
      { name: 'last_name', type: 'text', label: 'Last name', required: false },
    ],
    submit_actions: ['email', 'message'],
    success_message: 'Thanks',
    email: { email_to: 'owner@example.test', admin_subject: 'New payment', payer_subject: 'Thank you', from_name: 'Shop' },
    display: {},
  };
}

async function eventually<T>(what: string, probe: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 30_000): Promise<T> {
  const giveUpAt = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (done(value)) return value;
    if (Date.now() > giveUpAt) throw new Error(`${what}: still ${JSON.stringify(value)} after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

function outboxCount(dataDir: string): number {
  try {
    return readdirSync(join(dataDir, 'outbox')).filter((file) => file.endsWith('.eml')).length;
  } catch {
    return 0;
  }
}

/** Log records of the migration runner that applied something. */
function appliedMigrations(instance: ServiceProcess): string[] {
  return instance
    .records()
    .filter((record) => record.context === 'Migrations' && typeof record.msg === 'string' && record.msg.startsWith('Applied '))
    .flatMap((record) => (record.msg as string).replace(/^Applied \d+ migration\(s\): /, '').split(', '));
}

describe('instances on one MariaDB database and one Redis', () => {
  const redisPrefix = `checkout-multi:${randomUUID()}:`;
  const webhookSecret = `whsec_${randomBytes(24).toString('hex')}`;
  let fake: FakeGatewayA;
  let databaseUrl: string;
  let db: Connection;
  const dataDirs = new Map<ServiceProcess, string>();
  let a: ServiceProcess;
  let b: ServiceProcess;
  let formId: number;

  /** `port`: a restart where the last process listened. */
  const start = (name: string, port?: number) => {
    const dataDir = mkdtempSync(join(tmpdir(), `checkout-multi-${name}-`));
    return ServiceProcess.start(
      name,
      {
      DATABASE_URL: databaseUrl,
      REDIS_URL,
      REDIS_KEY_PREFIX: redisPrefix,
      TRUST_PROXY: 'true',
      PUBLIC_BASE_URL,
      CHECKOUT_SECRET: SECRET,
      CHECKOUT_ADMIN_PASSWORD: ADMIN_PASSWORD,
      CHECKOUT_PROXY_URL: fake.url,
      GATEWAY_A_API_BASE: fake.url,
      DATA_DIR: dataDir,
      LOG_LEVEL: 'info',
      // A sweep every second on every instance: the lease must keep it to one at a time.
      RECONCILE_INTERVAL_SECONDS: '1',
      // Two seconds for the test's balancer, which probes /readyz every 100 ms, to stop sending.
      SHUTDOWN_DRAIN_SECONDS: '2',
      SHUTDOWN_TIMEOUT_SECONDS: '15',
      },
      undefined,
      port,
    ).then((instance) => {
      dataDirs.set(instance, dataDir);
      return instance;
    });
  };
  const option = async <T>(name: string): Promise<T | null> => {
    const [rows] = await db.query(`SELECT option_value FROM ${PREFIX}options WHERE option_name = ?`, [name]);
    const [row] = rows as Array<{ option_value: string }>;
    return row ? (JSON.parse(row.option_value) as T) : null;
  };
  const setOption = (name: string, value: unknown) =>
    db.query(`INSERT INTO ${PREFIX}options (option_name, option_value, updated_at) VALUES (?, ?, UTC_TIMESTAMP(3)) ON DUPLICATE KEY UPDATE option_value = VALUES(option_value)`, [
      name,
      JSON.stringify(value),
    ]);

  /** The connect flow an admin's browser runs: started on one instance, called back on the other. */
  const connect = async (mode: 'test' | 'live', starter: ServiceProcess, callbackTo: ServiceProcess) => {
    const started = await call(starter, 'GET', `${REST}/payment-gateway/connect?mode=${mode}`, { auth: ADMIN_AUTH });
    expect(started.status).toBe(302);
    const proxy = await fetch(started.headers.get('location')!, { redirect: 'manual' });
    const callback = new URL(proxy.headers.get('location')!);
    expect(callback.origin).toBe(PUBLIC_BASE_URL);
    const done = await call(callbackTo, 'GET', `${callback.pathname}${callback.search}`);
    expect(done.status).toBe(302);
    expect(new URL(done.headers.get('location')!, PUBLIC_BASE_URL).searchParams.get(`gateway_a_connected`)).toBe(mode);
  };

  const createRecord = (instance: ServiceProcess, client: string) =>
    call(instance, 'POST', `${REST}/payment/sync-details`, {
      client,
      body: { form_id: formId, payment_gateway: 'gateway_a', payment_method: 'ccard', plan_index: 0, price_index: 0, email_address: 'payer@example.test', first_name: 'Ada' },
    });

  /** The signed reference of a created record, as the payer's browser sends it to the payment routes. */
  const referenceOf = (record: Answer) => ({
    payment_id: record.body.payment_id,
    payment_secret: record.body.payment_secret,
    checkout_token: record.body.checkout_token,
    form_id: formId,
    payment_gateway: 'gateway_a',
    payment_method: 'ccard',
    amount: record.body.amount,
    currency: record.body.currency,
  });

  beforeAll(async () => {
    fake = await startFakeGatewayA();
    databaseUrl = await peerDatabaseUrl('multi');
    const empty = new DataSource(buildDataSourceOptions(loadConfig({ DATABASE_URL: databaseUrl })));
    await empty.initialize();
    await empty.dropDatabase();
    await empty.destroy();
    const url = new URL(databaseUrl);
    db = await createConnection({
      host: url.hostname,
      port: Number(url.port || 3306),
      user: decodeURIComponent(url.username),
      password: decodeURIComponent(url.password),
      database: url.pathname.slice(1),
      timezone: 'Z',
    });
  });

  afterAll(async () => {
    await stopAllServices();
    await fake?.stop();
    await db?.end();
    const cleaner = new Redis(REDIS_URL);
    try {
      const keys = await cleaner.keys(`${redisPrefix}*`);
      if (keys.length) await cleaner.del(...keys);
    } finally {
      cleaner.disconnect();
    }
  });

  it('boot together on a fresh database: each migration applied once, no error logged, all ready', async () => {
    const instances = await Promise.all(['a', 'b', 'c'].map((name) => start(name)));
    await Promise.all(instances.map((instance) => instance.ready()));
    [a, b] = instances;

    const [rows] = await db.query(`SELECT name FROM ${PREFIX}checkout_migrations`);
    const names = (rows as Array<{ name: string }>).map((row) => row.name).sort();
    expect(names).toEqual(MIGRATIONS.map((migration) => migration.name).sort());
    // Applied once in all: by one instance; the others waited and found nothing pending.
    expect(instances.flatMap(appliedMigrations).sort()).toEqual(names);
    expect(instances.filter((instance) => appliedMigrations(instance).length > 0)).toHaveLength(1);
    for (const instance of instances) expect(instance.errors()).toEqual([]);
    const [users] = await db.query(`SELECT user_login FROM ${PREFIX}users`);
    expect(users).toEqual([{ user_login: 'admin' }]);

    await instances[2].stop();
  });

  it('are set up through either instance (connect started on one, called back on the other)', async () => {
    await connect('test', a, b);
    const saved = await call(a, 'POST', `${REST}/payment-gateway/save-webhook-settings`, {
      auth: ADMIN_AUTH,
      body: { gateway: 'gateway_a', mode: 'test', signing_secret: webhookSecret, manual_configuration_complete: true },
    });
    expect(saved.status).toBe(200);
    const form = await call(b, 'POST', `${REST}/administration/payment-forms`, { auth: ADMIN_AUTH, body: { title: 'Multi-instance form', status: 'publish', settings: formSettings() } });
    expect(form.status).toBe(201);
    formId = form.body.id as number;
  });

  it('share the new-payment limit: the 11th creation from one client, alternating instances, is 429', async () => {
    const client = '198.51.100.10';
    for (let i = 0; i < 10; i += 1) expect((await createRecord(i % 2 ? b : a, client)).status).toBe(201);
    const refusedA = await createRecord(a, client);
    const refusedB = await createRecord(b, client);
    expect([refusedA.status, refusedB.status]).toEqual([429, 429]);
    expect(Number(refusedA.headers.get('retry-after'))).toBeGreaterThan(0);
    // Another client is not affected.
    expect((await createRecord(b, '198.51.100.99')).status).toBe(201);
  });

  it('share the failed-login limit: after 10 failures on either instance, the right password is 429 on both', async () => {
    const client = '198.51.100.11';
    for (let i = 0; i < 10; i += 1) {
      expect((await call(i % 2 ? b : a, 'GET', `${REST}/plugin/info`, { client, auth: basic('admin', `wrong-${i}`) })).status).toBe(401);
    }
    expect((await call(a, 'GET', `${REST}/plugin/info`, { client, auth: ADMIN_AUTH })).status).toBe(429);
    expect((await call(b, 'GET', `${REST}/plugin/info`, { client, auth: ADMIN_AUTH })).status).toBe(429);
    expect((await call(b, 'GET', `${REST}/plugin/info`, { client: '198.51.100.98', auth: ADMIN_AUTH })).status).toBe(200);
  });

  it('apply a signed event delivered 20 times at once across both instances exactly once', async () => {
    const record = await createRecord(a, '198.51.100.12');
    expect(record.status).toBe(201);
    const paymentId = record.body.payment_id as number;
    const reference = referenceOf(record);
    const intent = await call(b, 'POST', `${REST}/gateway-a/payment-intent-or-setup`, { client: '198.51.100.12', body: reference });
    expect(intent.status).toBe(200);
    const intentId = intent.body.intent_id as string;
    // The payer pays: the gateway's intent succeeds, and the gateway tells the site.
    const object = { ...fake.resources.setIntentStatus(intentId, 'succeeded') } as Record<string, unknown>;
    const { body, signature } = signedEvent('payment_intent.succeeded', object, webhookSecret);
    const eventId = (JSON.parse(body) as { id: string }).id;

    const deliveries = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        call(i % 2 ? b : a, 'POST', `${REST}/webhook/gateway-a-callback/test`, { raw: body, headers: { 'Gateway-A-Signature': signature } }),
      ),
    );
    expect(deliveries.map((delivery) => delivery.status)).toEqual(Array(20).fill(200));
    expect(deliveries.map((delivery) => delivery.body.outcome).sort()).toEqual(['processed', ...Array(19).fill('duplicate')].sort());

    const [payments] = await db.query(`SELECT status, amount_received FROM ${PREFIX}checkout_payments WHERE id = ?`, [paymentId]);
    expect(payments).toEqual([{ status: 'completed', amount_received: 1000 }]);
    const [log] = await db.query(`SELECT event FROM ${PREFIX}checkout_log WHERE payment_id = ? AND event = 'status_changed'`, [paymentId]);
    expect(log).toHaveLength(1);
    const [events] = await db.query(`SELECT status, payment_id FROM ${PREFIX}checkout_webhook_events WHERE event_id = ?`, [eventId]);
    expect(events).toEqual([{ status: 'processed', payment_id: paymentId }]);
    // The effect's emails (owner + payer), once, from whichever instance applied it.
    const emails = () => Promise.resolve(outboxCount(dataDirs.get(a)!) + outboxCount(dataDirs.get(b)!));
    await eventually('emails', emails, (count) => count >= 2, 10_000);
    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect(await emails()).toBe(2);
  });

  it('run a due 1.5.3 upgrade task on one instance only, though both see it at boot', async () => {
    await connect('live', b, a);
    const record = await option<{ endpoint_id: string }>(gatewayAOption.webhook('live'));
    const endpointId = record!.endpoint_id;
    const endpoint = fake.resources.get(endpointId)!;
    expect(endpoint.metadata).toMatchObject({ checkout_managed: 'true' });

    // Both instances stop; the database and the gateway go back to what release 1.5.2 left.
    await Promise.all([a.stop(), b.stop()]);
    endpoint.enabled_events = ['payment_intent.succeeded', 'payment_intent.payment_failed', 'setup_intent.succeeded', 'invoice.paid'];
    await setOption(gatewayAOption.webhook('live'), { management: 'automatic', endpoint_id: endpointId });
    await setOption('checkout_version', '1.5.2');
    await db.query(`DELETE FROM ${PREFIX}options WHERE option_name = ?`, [gatewayAOption.webhookUpgrade()]);
    fake.clearRequests();

    // A deploy of 1.5.3: both boot at once, both find 1.5.2 stored and schedule the upgrade.
    [a, b] = await Promise.all([start('a2'), start('b2')]);
    await Promise.all([a.ready(), b.ready()]);
    const progress = await eventually(
      'upgrade progress',
      () => option<{ status: string; modes: Record<string, string> }>(gatewayAOption.webhookUpgrade()),
      (value) => value?.status === 'completed',
    );
    expect(progress!.modes).toEqual({ test: 'skipped_manual', live: 'updated' });
    await new Promise((resolve) => setTimeout(resolve, 1500)); // a second runner would call the gateway now
    expect(fake.requestsTo('POST', `/v1/webhook_endpoints/${endpointId}`)).toHaveLength(1);
    // One run reads the endpoint twice (before the update, and to verify it); nothing else touched it.
    expect(fake.requestsTo('GET', `/v1/webhook_endpoints/${endpointId}`)).toHaveLength(2);
    expect([...(fake.resources.get(endpointId)!.enabled_events as string[])].sort()).toEqual([...GATEWAY_A_WEBHOOK_EVENTS].sort());
    expect(await option(gatewayAOption.webhook('live'))).toMatchObject({ status: 'verified', events_version: '1.5.3' });
    for (const instance of [a, b]) expect(instance.errors()).toEqual([]);
  });

  it('reconcile a payment whose webhook never arrived once, though both instances sweep every second', async () => {
    const record = await createRecord(a, '198.51.100.13');
    expect(record.status).toBe(201);
    const paymentId = record.body.payment_id as number;
    const reference = referenceOf(record);
    const intent = await call(b, 'POST', `${REST}/gateway-a/payment-intent-or-setup`, { client: '198.51.100.13', body: reference });
    expect(intent.status).toBe(200);
    const intentId = intent.body.intent_id as string;
    // The payer pays; the webhook never comes. Ten minutes pass (the sweep leaves younger records to their webhook).
    fake.resources.setIntentStatus(intentId, 'succeeded');
    fake.clearRequests();
    await db.query(`UPDATE ${PREFIX}checkout_payments SET updated_at = DATE_SUB(UTC_TIMESTAMP(3), INTERVAL 10 MINUTE) WHERE id = ?`, [paymentId]);

    const status = async () => ((await db.query(`SELECT status FROM ${PREFIX}checkout_payments WHERE id = ?`, [paymentId]))[0] as Array<{ status: string }>)[0].status;
    await eventually('reconciled', status, (value) => value === 'completed', 20_000);
    await new Promise((resolve) => setTimeout(resolve, 2500)); // further sweeps on both instances
    expect(fake.requestsTo('GET', `/v1/payment_intents/${intentId}`)).toHaveLength(1);
    const [log] = await db.query(`SELECT context FROM ${PREFIX}checkout_log WHERE payment_id = ? AND event = 'status_changed'`, [paymentId]);
    expect((log as Array<{ context: string }>).map((row) => JSON.parse(row.context).source)).toEqual(['reconcile']);
    for (const instance of [a, b]) expect(instance.errors()).toEqual([]);
  });

  it('refund one payment from both instances at once: never more than was paid, once at the provider, our total equal to its', async () => {
    // A payment taken as the webhook leaves it (one signed event to one instance).
    const record = await createRecord(a, '198.51.100.14');
    expect(record.status).toBe(201);
    const paymentId = record.body.payment_id as number;
    const intent = await call(b, 'POST', `${REST}/gateway-a/payment-intent-or-setup`, { client: '198.51.100.14', body: referenceOf(record) });
    expect(intent.status).toBe(200);
    const intentId = intent.body.intent_id as string;
    const object = { ...fake.resources.setIntentStatus(intentId, 'succeeded') } as Record<string, unknown>;
    const { body, signature } = signedEvent('payment_intent.succeeded', object, webhookSecret);
    expect((await call(a, 'POST', `${REST}/webhook/gateway-a-callback/test`, { raw: body, headers: { 'Gateway-A-Signature': signature } })).status).toBe(200);

    // Six refunds of 3.00 of the 10.00 paid, alternating the two processes, while the provider is slow.
    fake.clearRequests();
    fake.latencyMs = 100;
    let answers: Answer[];
    try {
      answers = await Promise.all(
        Array.from({ length: 6 }, (_, i) => call(i % 2 ? b : a, 'POST', `${REST}/administration/payments/${paymentId}/refunds`, { auth: ADMIN_AUTH, body: { amount: 300 } })),
      );
    } finally {
      fake.latencyMs = 0;
    }
    expect(answers.filter((answer) => answer.status === 201)).toHaveLength(3);
    for (const answer of answers.filter((each) => each.status !== 201)) expect([400, 409]).toContain(answer.status);
    // Both processes refunded: the conditional UPDATE of the payment row, not a lock in one process, kept the sum.
    const [payments] = await db.query(`SELECT amount_refunded, refund_reserved FROM ${PREFIX}checkout_payments WHERE id = ?`, [paymentId]);
    expect(payments).toEqual([{ amount_refunded: 900, refund_reserved: 0 }]);
    const [refunds] = await db.query(`SELECT status, amount FROM ${PREFIX}checkout_refunds WHERE payment_id = ?`, [paymentId]);
    expect(refunds).toEqual(Array(3).fill({ status: 'succeeded', amount: 300 }));
    // Refused ones never reached the provider; the provider's total is ours.
    expect(fake.requestsTo('POST', '/v1/refunds')).toHaveLength(3);
    expect(fake.resources.refundsOf(intentId).reduce((sum, refund) => sum + (refund.amount as number), 0)).toBe(900);
    const detail = await call(b, 'GET', `${REST}/administration/payments/${paymentId}`, { auth: ADMIN_AUTH });
    expect(detail.body).toMatchObject({ amount_refunded: 900, refundable_amount: 100 });
    for (const instance of [a, b]) expect(instance.errors()).toEqual([]);
  });

  it('lose no request and make no duplicate when one is restarted under keep-alive load (SIGTERM, exit, start again on its port)', async () => {
    const CLIENTS = 24;
    const RECONNECT_EVERY = 10;
    const balancer = await new Balancer([{ name: 'b', port: b.port }, { name: 'a', port: a.port }], { probeIntervalMs: 100 }).start();
    const payer = `rolling-${randomUUID().slice(0, 8)}@example.test`;
    type Kind = 'create' | 'update' | 'status' | 'healthz';
    const answered: Array<{ kind: Kind; at: number; closed: boolean }> = [];
    const failures: string[] = [];
    const created: number[] = [];
    let running = true;
    let sequence = 0;
    const loadStartedAt = Date.now();
    const elapsed = () => `+${Date.now() - loadStartedAt} ms`;

    /**
     * One client: creations, updates and status reads of its own records, health checks; never a
     * retry. Like a browser or a pool, it also closes its connection now and then itself (between
     * two requests, so nothing is lost), which lets the balancer spread connections again after
     * the restart.
     */
    const runClient = async (index: number) => {
      let client = new KeepAliveClient(balancer.url);
      const records: Answer['body'][] = [];
      try {
        for (let n = 0; running; n += 1) {
          if (n > 0 && n % RECONNECT_EVERY === 0) {
            client.close();
            client = new KeepAliveClient(balancer.url);
          }
          const kind: Kind = records.length === 0 ? 'create' : (['create', 'update', 'status', 'healthz'] as const)[(n + index) % 4];
          const i = (sequence += 1);
          // One client address per request (TRUST_PROXY): the per-client limits never bite.
          const headers = { 'X-Forwarded-For': `10.24.${(i >> 8) & 255}.${i & 255}` };
          const record = records[n % Math.max(1, records.length)];
          const choice = { form_id: formId, payment_gateway: 'gateway_a', payment_method: 'ccard', plan_index: 0, price_index: 0 };
          let expected = 200;
          let sent: Promise<Awaited<ReturnType<KeepAliveClient['send']>>>;
          if (kind === 'create') {
            expected = 201;
            sent = client.send('POST', `${REST}/payment/sync-details`, { headers, body: { ...choice, email_address: payer, first_name: `Client ${index}` } });
          } else if (kind === 'update') {
            sent = client.send('POST', `${REST}/payment/sync-details`, {
              headers,
              body: { ...choice, payment_id: record.payment_id, payment_secret: record.payment_secret, email_address: payer, first_name: `Client ${index}`, last_name: `Update ${n}` },
            });
          } else if (kind === 'status') {
            sent = client.send('POST', `${REST}/payment/status`, { headers, body: referenceOf({ status: 201, body: record, headers: new Headers() }) });
          } else {
            sent = client.send('GET', '/healthz', { headers });
          }
          try {
            const res = await sent;
            if (res.status !== expected) {
              failures.push(`${kind} (client ${index}, ${elapsed()}) answered ${res.status}: ${JSON.stringify(res.body).slice(0, 300)}`);
              continue;
            }
            answered.push({ kind, at: Date.now(), closed: res.connection === 'close' });
            if (kind === 'create') {
              created.push(res.body.payment_id as number);
              records.push(res.body);
            } else if (kind === 'update') {
              records[records.indexOf(record)] = { ...record, checkout_token: res.body.checkout_token };
            }
          } catch (error) {
            failures.push(`${kind} (client ${index}, ${elapsed()}) failed: ${(error as Error).message}`);
          }
        }
      } finally {
        client.close();
      }
    };
    const servedBy = (instance: ServiceProcess, from: number, to = Number.POSITIVE_INFINITY) =>
      instance.records().filter((record: LogRecord) => {
        const path = (record.req as { path?: string } | undefined)?.path;
        return path !== undefined && path !== '/readyz' && (record.time as number) >= from && (record.time as number) <= to;
      }).length;
    const within = async <T>(what: string, promise: Promise<T>, ms: number): Promise<T> => {
      let timer: NodeJS.Timeout | undefined;
      try {
        return await Promise.race([promise, new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`${what}: not within ${ms} ms`)), ms)))]);
      } finally {
        clearTimeout(timer);
      }
    };
    const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

    let restarted: ServiceProcess | null = null;
    const clients = Array.from({ length: CLIENTS }, (_, index) => runClient(index));
    try {
      await pause(3000); // both instances serve
      expect([balancer.isReady('a'), balancer.isReady('b')]).toEqual([true, true]);
      const signalledAt = Date.now();
      b.kill('SIGTERM');
      const exit = await within('b exiting after SIGTERM', b.exited, 30_000);
      const exitedAt = Date.now();
      balancer.rename(b.port, 'b2');
      restarted = await start('b2', b.port);
      await restarted.ready();
      await eventually('the balancer seeing b2 ready', async () => balancer.isReady('b2'), (ready) => ready, 10_000);
      const readyAt = Date.now();
      await pause(4000); // the restarted instance serves
      running = false;
      await within('the clients finishing their last request', Promise.all(clients), 60_000);
      const stoppedAt = Date.now();

      const started = b.records().find((record) => record.context === 'Shutdown' && String(record.msg).startsWith('Shutting down on SIGTERM'));
      const done = b.records().find((record) => record.context === 'Shutdown' && String(record.msg).startsWith('Shutdown complete'));
      const summary = {
        clients: CLIENTS,
        reconnect_every: RECONNECT_EVERY,
        duration_ms: stoppedAt - loadStartedAt,
        answered: answered.length,
        by_kind: Object.fromEntries((['create', 'update', 'status', 'healthz'] as const).map((kind) => [kind, answered.filter((answer) => answer.kind === kind).length])),
        failures: failures.length,
        served: { a: servedBy(a, loadStartedAt), b: servedBy(b, loadStartedAt), b2: servedBy(restarted, loadStartedAt) },
        served_by_b_while_draining: servedBy(b, signalledAt),
        restart_window_ms: readyAt - signalledAt,
        answered_in_restart_window: answered.filter((answer) => answer.at >= signalledAt && answer.at <= readyAt).length,
        answers_with_connection_close: answered.filter((answer) => answer.closed).length,
        sigterm_to_exit_ms: exitedAt - signalledAt,
        exit,
        shutdown_log: { open_connections: started?.open_connections, requests_in_flight: started?.requests_in_flight, duration_ms: done?.duration_ms, connections_closed: done?.connections_closed, closed_forcibly: done?.closed_forcibly, requests_answered: done?.requests_answered },
        balancer: balancer.stats,
      };
      console.log(`rolling restart under load: ${JSON.stringify(summary, null, 2)}`);

      // Not one request failed, and the load was real on every process, the draining one included.
      expect(failures).toEqual([]);
      expect(exit).toEqual({ code: 0, signal: null });
      expect(summary.served.a).toBeGreaterThan(0);
      expect(summary.served.b).toBeGreaterThan(0);
      expect(summary.served.b2).toBeGreaterThan(0);
      expect(summary.answers_with_connection_close).toBeGreaterThan(0);
      expect(balancer.stats.unplaced).toBe(0);
      expect(started?.open_connections).toBeGreaterThan(0);
      expect(done).toMatchObject({ closed_forcibly: 0 });

      // Each creation answered 201 exists once, and nothing else was created.
      expect(new Set(created).size).toBe(created.length);
      const [rows] = await db.query(`SELECT id FROM ${PREFIX}checkout_payments WHERE email_address = ?`, [payer]);
      expect((rows as Array<{ id: number }>).map((row) => Number(row.id)).sort((x, y) => x - y)).toEqual([...created].sort((x, y) => x - y));
      for (const instance of [a, b, restarted]) expect(instance.errors()).toEqual([]);
    } finally {
      running = false;
      await Promise.allSettled(clients);
      await balancer.stop();
      if (restarted) b = restarted;
    }
  });

  it('lose no acknowledged record when one instance is killed (SIGKILL) in the middle of a burst', async () => {
    const total = 60;
    const acknowledged: Array<{ id: number; by: string }> = [];
    const failedAtVictim: string[] = [];
    let sent = 0;
    let killedAt = -1;
    const worker = async () => {
      while (sent < total) {
        const i = (sent += 1);
        const target = i % 2 ? b : a;
        try {
          const res = await createRecord(target, `10.16.${i >> 8}.${i & 255}`);
          if (res.status === 201) acknowledged.push({ id: res.body.payment_id as number, by: target.name });
          else if (target === b) failedAtVictim.push(`status ${res.status}`);
          else throw new Error(`the surviving instance answered ${res.status}: ${JSON.stringify(res.body)}`);
        } catch (error) {
          if (target !== b) throw error;
          failedAtVictim.push((error as Error).message);
        }
        if (killedAt < 0 && acknowledged.length >= 16) {
          killedAt = acknowledged.length;
          b.kill('SIGKILL');
        }
      }
    };
    await Promise.all(Array.from({ length: 8 }, worker));

    expect(await b.exited).toMatchObject({ signal: 'SIGKILL' });
    expect(acknowledged.filter((ack) => ack.by === b.name).length).toBeGreaterThan(0);
    expect(failedAtVictim.length).toBeGreaterThan(0); // the kill really came mid-burst
    const ids = acknowledged.map((ack) => ack.id);
    const [rows] = await db.query(`SELECT id FROM ${PREFIX}checkout_payments WHERE id IN (?)`, [ids]);
    expect((rows as Array<{ id: number }>).map((row) => row.id).sort((x, y) => x - y)).toEqual([...ids].sort((x, y) => x - y));
    // The survivor keeps serving, and logged no error over the kill.
    expect((await call(a, 'GET', '/readyz')).status).toBe(200);
    expect(a.errors()).toEqual([]);
  });
});

describe('instances on one SQLite file', () => {
  afterAll(() => stopAllServices());

  it('boot together: each migration applied once, no error logged, all ready', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'checkout-multi-sqlite-'));
    const file = join(dir, 'checkout.sqlite');
    const instances = await Promise.all(
      ['s1', 's2', 's3'].map((name) =>
        ServiceProcess.start(name, {
          DATABASE_URL: `sqlite:${file}`,
          DATA_DIR: mkdtempSync(join(dir, `${name}-`)),
          CHECKOUT_SECRET: SECRET,
          CHECKOUT_ADMIN_PASSWORD: ADMIN_PASSWORD,
          PUBLIC_BASE_URL,
          LOG_LEVEL: 'info',
          SHUTDOWN_DRAIN_SECONDS: '0',
        }),
      ),
    );
    await Promise.all(instances.map((instance) => instance.ready()));
    for (const instance of instances) expect(instance.errors()).toEqual([]);
    const names = MIGRATIONS.map((migration) => migration.name).sort();
    expect(instances.flatMap(appliedMigrations).sort()).toEqual(names);
    await Promise.all(instances.map((instance) => instance.stop()));

    const sqlite = new DataSource({ type: 'better-sqlite3', database: file, readonly: true });
    await sqlite.initialize();
    try {
      const rows: Array<{ name: string }> = await sqlite.query(`SELECT name FROM ${PREFIX}checkout_migrations`);
      expect(rows.map((row) => row.name).sort()).toEqual(names);
      expect(await sqlite.query(`SELECT user_login FROM ${PREFIX}users`)).toEqual([{ user_login: 'admin' }]);
    } finally {
      await sqlite.destroy();
    }
  });
});
