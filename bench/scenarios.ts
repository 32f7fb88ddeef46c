/**
 * What `npm run bench` measures, and how each scenario is prepared: through the public HTTP API
 * only, as a site owner and a customer's browser would (no database writes, no service imports).
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
export async function prepareFixture(port: number): Promise<Fixture> {
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
  return {
    formId,
    statusBody,
    webhookPool: { secret, paymentIds, intentPrefix: `bench${randomBytes(4).toString('hex')}`, amount: created.amount as number, currency: String(created.currency).toLowerCase() },
  };
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
