/**
 * What `npm run bench` measures, and how each scenario is prepared: through the public HTTP API, as
 * a site owner and a customer's browser would (no service imports), with one exception: the
 * webhook pool's records get their intent ids written straight into the database (linkIntents).
 */
import { randomBytes } from 'node:crypto';
import type { LoadPlan } from './load.js';
import { webhookEvents, type WebhookPool } from './webhook-events.js';

export const REST = '/wp-json/checkout/v1';
export const ADMIN_PASSWORD = 'bench-admin-application-password';
export const ADMIN_AUTH = `Basic ${Buffer.from(`admin:${ADMIN_PASSWORD}`).toString('base64')}`;

/** The gateway-A mode the bench connects and sends webhooks to. */
const MODE = 'test';
/** Size of the pool of payment records the webhook events are spread over. */
const WEBHOOK_POOL = 32;

export type ScenarioId = 'healthz' | 'plugin-status' | 'payment-status' | 'sync-create' | 'webhook' | 'settings' | 'tags';

export interface Scenario {
  id: ScenarioId;
  label: string;
  /** reads or writes: decides the p99 target */
  kind: 'read' | 'write';
  /** expected status of every answer (anything else is counted as non-2xx or as a failed probe) */
  expect: number;
  plan(port: number, fixture: Fixture): LoadPlan;
}

/** Everything the scenarios need, created once per service start. */
export interface Fixture {
  formId: number;
  /** body of POST /payment/status: a payment reference (id, secret, token and the choice) */
  statusBody: string;
  webhookPool: WebhookPool;
}

const json = { 'content-type': 'application/json' };

export const SCENARIOS: Scenario[] = [
  {
    id: 'healthz',
    label: 'GET /healthz',
    kind: 'read',
    expect: 200,
    plan: (port) => ({ port, request: { method: 'GET', path: '/healthz', headers: {} } }),
  },
  {
    // Admin path: Basic auth (application-password lookup, keyed hash), capability check, options read.
    id: 'plugin-status',
    label: 'admin GET /plugin/status',
    kind: 'read',
    expect: 200,
    plan: (port) => ({ port, request: { method: 'GET', path: `${REST}/plugin/status`, headers: { authorization: ADMIN_AUTH } } }),
  },
  {
    // Signed payment reference: secret + token verification, record and form checks, local read.
    id: 'payment-status',
    label: 'POST /payment/status',
    kind: 'read',
    expect: 200,
    plan: (port, fixture) => ({ port, request: { method: 'POST', path: `${REST}/payment/status`, headers: json, body: fixture.statusBody } }),
  },
  {
    // The customer's browser creating a payment row: form lookup, gateway state, HMAC secret, token.
    id: 'sync-create',
    label: 'POST /payment/sync-details (create)',
    kind: 'write',
    expect: 201,
    plan: (port, fixture) => ({
      port,
      request: { method: 'POST', path: `${REST}/payment/sync-details`, headers: json, body: JSON.stringify(syncBody(fixture.formId)) },
    }),
  },
  {
    id: 'webhook',
    label: 'webhook ingest, gateway A (new signed event each)',
    kind: 'write',
    expect: 200,
    plan: (port, fixture) => ({
      port,
      request: { method: 'POST', path: `${REST}/webhook/gateway-a-callback/${MODE}`, headers: json },
      webhookEvents: webhookEvents(fixture.webhookPool),
    }),
  },
  {
    id: 'settings',
    label: 'admin GET /settings',
    kind: 'read',
    expect: 200,
    plan: (port) => ({ port, request: { method: 'GET', path: `${REST}/settings`, headers: { authorization: ADMIN_AUTH } } }),
  },
  {
    id: 'tags',
    label: 'admin GET /tags',
    kind: 'read',
    expect: 200,
    plan: (port) => ({ port, request: { method: 'GET', path: `${REST}/tags`, headers: { authorization: ADMIN_AUTH } } }),
  },
];

function syncBody(formId: number): Record<string, unknown> {
  return { form_id: formId, payment_gateway: 'gateway_a', payment_method: 'ccard', plan_index: 0, price_index: 0, email_address: 'payer@example.com' };
}

async function call(origin: string, method: string, path: string, options: { body?: unknown; admin?: boolean; expect: number }): Promise<Record<string, unknown>> {
  const response = await fetch(`${origin}${path}`, {
    method,
    headers: { ...(options.body === undefined ? {} : json), ...(options.admin ? { authorization: ADMIN_AUTH } : {}) },
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
    redirect: 'manual',
  });
  const text = await response.text();
  if (response.status !== options.expect) throw new Error(`${method} ${path}: ${response.status} ${text.slice(0, 300)}`);
  return text ? (JSON.parse(text) as Record<string, unknown>) : {};
}

/**
 * Once per service start, through the public API:
 * 1. a published one-time form (admin form CRUD);
 * 2. gateway A connected in test mode: `GET /payment-gateway/connect` for a signed state, then the
 *    OAuth callback with credentials (the service's connect flow; its automatic webhook
 *    provisioning cannot reach a gateway here and leaves the contract unverified, which
 *    sync-details does not need);
 * 3. the manual webhook path: `POST /payment-gateway/save-webhook-settings` with a signing secret
 *    and `manual_configuration_complete: true`, as a merchant managing the endpoint by hand does;
 * 4. one payment record to read back (`POST /payment/status`) and a pool of records for the
 *    webhook events (`POST /payment/sync-details`, as the customer's browser creates them).
 */
/** Where the service under test keeps its data: the bench writes into it only in linkIntents. */
export type BenchDatabase = { kind: 'sqlite'; file: string } | { kind: 'mysql'; url: string };

export async function prepareFixture(port: number, database: BenchDatabase): Promise<Fixture> {
  const origin = `http://127.0.0.1:${port}`;
  const form = await call(origin, 'POST', `${REST}/administration/payment-forms`, {
    admin: true,
    expect: 201,
    body: {
      title: 'Bench form',
      status: 'publish',
      settings: {
        plans: [{ title: 'Payment', prices: [{ amount: 1000, currency: 'USD', frequency: 'one-time' }] }],
        payment_methods: { gateway_a: ['ccard'] },
        fields: [{ name: 'email_address', type: 'email', label: 'Email', required: true }],
        submit_actions: ['message'],
        success_message: 'Thanks',
        email: { email_to: 'owner@example.com', admin_subject: 'New payment', payer_subject: 'Thank you', from_name: 'Shop' },
        display: {},
      },
    },
  });
  const formId = form.id as number;

  const connect = await fetch(`${origin}${REST}/payment-gateway/connect?mode=${MODE}`, { headers: { authorization: ADMIN_AUTH }, redirect: 'manual' });
  const location = connect.headers.get('location');
  if (connect.status !== 302 || !location) throw new Error(`connect: ${connect.status} ${await connect.text()}`);
  const state = new URL(location).searchParams.get('state')!;
  const callback = `${REST}/payment-gateway/connect-callback?${new URLSearchParams({ state, user_id: 'acct_bench1', public_key: 'pk_test_bench', secret_key: 'sk_test_bench0123456789' })}`;
  const connected = await fetch(`${origin}${callback}`, { redirect: 'manual' });
  if (connected.status !== 302 || !connected.headers.get('location')?.includes(`gateway_a_connected=${MODE}`)) {
    throw new Error(`connect callback: ${connected.status} ${connected.headers.get('location')}`);
  }

  const secret = `whsec_bench${randomBytes(18).toString('hex')}`;
  const webhook = await call(origin, 'POST', `${REST}/payment-gateway/save-webhook-settings`, {
    admin: true,
    expect: 200,
    body: { gateway: 'gateway_a', mode: MODE, signing_secret: secret, manual_configuration_complete: true },
  });
  if (webhook.status !== 'verified') throw new Error(`save-webhook-settings: contract is ${String(webhook.status)}`);

  const created = await call(origin, 'POST', `${REST}/payment/sync-details`, { body: syncBody(formId), expect: 201 });
  const statusBody = JSON.stringify({
    payment_id: created.payment_id,
    payment_secret: created.payment_secret,
    checkout_token: created.checkout_token,
    form_id: formId,
    payment_gateway: 'gateway_a',
    payment_method: 'ccard',
    amount: created.amount,
    currency: created.currency,
  });

  const paymentIds: number[] = [];
  for (let i = 0; i < WEBHOOK_POOL; i += 1) {
    const row = await call(origin, 'POST', `${REST}/payment/sync-details`, { body: syncBody(formId), expect: 201 });
    paymentIds.push(row.payment_id as number);
  }
  const intentPrefix = `bench${randomBytes(4).toString('hex')}`;
  const installationId = await linkIntents(database, paymentIds, intentPrefix);
  return {
    formId,
    statusBody,
    webhookPool: { secret, paymentIds, intentPrefix, amount: created.amount as number, currency: String(created.currency).toLowerCase(), installationId },
  };
}

/**
 * The one preparation step that is not an API call. Gateway A applies an event only to a record
 * that holds the event's intent id and only for objects whose metadata names this installation
 * (docs/decisions.md §14); intents are created at the gateway, and the bench has none (a closed proxy
 * port). So the pool's records get `pi_<prefix>_<index>` as their intent id here, as the intent
 * route would have stored it, and the installation id is read from the options table.
 */
async function linkIntents(database: BenchDatabase, paymentIds: number[], intentPrefix: string): Promise<string> {
  const prefix = 'wp_'; // TABLE_PREFIX default: the bench does not set it
  const updates = paymentIds.map((id, index) => [`pi_${intentPrefix}_${index}`, id] as const);
  let stored: unknown;
  if (database.kind === 'sqlite') {
    // No type declarations are installed for the driver: the few calls used here, typed by hand.
    type Statement = { run(...params: unknown[]): unknown; get(...params: unknown[]): unknown };
    type Db = { pragma(source: string): unknown; prepare(sql: string): Statement; transaction(work: () => void): () => void; close(): void };
    const Sqlite = (await import('better-sqlite3' as string)) as { default: new (file: string) => Db };
    const db = new Sqlite.default(database.file);
    try {
      db.pragma('busy_timeout = 5000');
      const update = db.prepare(`UPDATE ${prefix}checkout_payments SET provider_payment_ref = ? WHERE id = ?`);
      db.transaction(() => updates.forEach(([ref, id]) => update.run(ref, id)))();
      stored = (db.prepare(`SELECT option_value AS value FROM ${prefix}options WHERE option_name = 'checkout_installation_id'`).get() as { value: string } | undefined)?.value;
    } finally {
      db.close();
    }
  } else {
    const url = new URL(database.url.replace(/^mariadb:/, 'mysql:'));
    const mysql = await import('mysql2/promise');
    const connection = await mysql.createConnection({
      host: url.hostname,
      port: url.port ? Number(url.port) : 3306,
      user: decodeURIComponent(url.username),
      password: decodeURIComponent(url.password),
      database: url.pathname.replace(/^\//, ''),
    });
    try {
      for (const [ref, id] of updates) await connection.query(`UPDATE ${prefix}checkout_payments SET provider_payment_ref = ? WHERE id = ?`, [ref, id]);
      const [rows] = await connection.query(`SELECT option_value AS value FROM ${prefix}options WHERE option_name = 'checkout_installation_id'`);
      stored = (rows as Array<{ value: string }>)[0]?.value;
    } finally {
      await connection.end();
    }
  }
  const installationId = typeof stored === 'string' ? (JSON.parse(stored) as unknown) : null;
  if (typeof installationId !== 'string') throw new Error('the service has stored no installation id');
  return installationId;
}

/**
 * One request of the scenario before it is loaded, with its body checked, so that a scenario
 * that quietly measures an error path (or a webhook outcome other than `processed`) fails loudly.
 */
export async function probe(scenario: Scenario, port: number, fixture: Fixture): Promise<void> {
  const plan = scenario.plan(port, fixture);
  const extra = plan.webhookEvents?.next();
  const response = await fetch(`http://127.0.0.1:${port}${plan.request.path}`, {
    method: plan.request.method,
    headers: { ...plan.request.headers, ...extra?.headers },
    body: extra?.body ?? plan.request.body,
  });
  const text = await response.text();
  if (response.status !== scenario.expect) throw new Error(`${scenario.id} probe: ${response.status} ${text.slice(0, 300)}`);
  if (scenario.id === 'webhook' && (JSON.parse(text) as { outcome?: string }).outcome !== 'processed') {
    throw new Error(`webhook probe: the event was not processed: ${text}`);
  }
}
