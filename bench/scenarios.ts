import type { Agent } from 'node:http';

export interface BenchContext {
  port: number;
  agent: Agent;
  /** Basic credentials of the admin */
  auth: string;
}

export interface RequestSpec {
  method: string;
  path: string;
  headers?: Record<string, string>;
  body?: string;
  expect: number;
}

export interface Scenario {
  name: string;
  prepare(context: BenchContext): Promise<unknown>;
  request(prepared: unknown, iteration: number): RequestSpec;
}

const BASE = '/wp-json/checkout/v1';

interface CheckoutFixture {
  formId: number;
  reference: Record<string, unknown>;
}

let fixture: Promise<CheckoutFixture> | undefined;

/**
 * Once per run, through the public API as a site owner would: a published one-time form, gateway A
 * connected in test mode (connect + callback with credentials; webhook provisioning fails without a
 * gateway, which sync-details does not need), and one payment record to read back.
 */
function checkoutFixture(context: BenchContext): Promise<CheckoutFixture> {
  fixture ??= (async () => {
    const origin = `http://127.0.0.1:${context.port}`;
    const admin = { authorization: context.auth, 'content-type': 'application/json' };
    const form = await fetch(`${origin}${BASE}/administration/payment-forms`, {
      method: 'POST',
      headers: admin,
      body: JSON.stringify({
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
      }),
    });
    if (form.status !== 201) throw new Error(`form: ${form.status} ${await form.text()}`);
    const formId = ((await form.json()) as { id: number }).id;

    const connect = await fetch(`${origin}${BASE}/payment-gateway/connect?mode=test`, { headers: admin, redirect: 'manual' });
    const state = new URL(connect.headers.get('location')!).searchParams.get('state')!;
    const callback = new URL(`${origin}${BASE}/payment-gateway/connect-callback`);
    callback.search = new URLSearchParams({ state, user_id: 'acct_bench1', public_key: 'pk_test_bench', secret_key: 'sk_test_bench0123456789' }).toString();
    const connected = await fetch(callback, { redirect: 'manual' });
    if (connected.status !== 302 || !connected.headers.get('location')?.includes('gateway_a_connected')) {
      throw new Error(`connect callback: ${connected.status} ${connected.headers.get('location')}`);
    }

    const created = await fetch(`${origin}${BASE}/payment/sync-details`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(syncBody(formId)),
    });
    if (created.status !== 201) throw new Error(`sync-details: ${created.status} ${await created.text()}`);
    const answer = (await created.json()) as Record<string, unknown>;
    return {
      formId,
      reference: {
        payment_id: answer.payment_id,
        payment_secret: answer.payment_secret,
        checkout_token: answer.checkout_token,
        form_id: formId,
        payment_gateway: 'gateway_a',
        payment_method: 'ccard',
        amount: answer.amount,
        currency: answer.currency,
      },
    };
  })();
  return fixture;
}

function syncBody(formId: number): Record<string, unknown> {
  return { form_id: formId, payment_gateway: 'gateway_a', payment_method: 'ccard', plan_index: 0, price_index: 0, email_address: 'payer@example.com' };
}

export const scenarios: Scenario[] = [
  {
    name: 'healthz',
    prepare: async () => undefined,
    request: () => ({ method: 'GET', path: '/healthz', expect: 200 }),
  },
  {
    // The admin path: Basic auth, application-password lookup, capabilities, options read.
    name: 'admin GET /settings',
    prepare: async (context) => context.auth,
    request: (auth) => ({ method: 'GET', path: `${BASE}/settings`, headers: { authorization: auth as string }, expect: 200 }),
  },
  {
    name: 'admin GET /tags',
    prepare: async (context) => context.auth,
    request: (auth) => ({ method: 'GET', path: `${BASE}/tags`, headers: { authorization: auth as string }, expect: 200 }),
  },
  {
    // The customer's browser creating a payment row: form lookup, gateway state, HMAC secret, token.
    name: 'public POST /payment/sync-details',
    prepare: async (context) => (await checkoutFixture(context)).formId,
    request: (formId) => ({
      method: 'POST',
      path: `${BASE}/payment/sync-details`,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(syncBody(formId as number)),
      expect: 201,
    }),
  },
  {
    // The signed-reference guard: secret + token verification, record and form checks.
    name: 'public POST /payment/status',
    prepare: async (context) => JSON.stringify((await checkoutFixture(context)).reference),
    request: (body) => ({ method: 'POST', path: `${BASE}/payment/status`, headers: { 'content-type': 'application/json' }, body: body as string, expect: 200 }),
  },
];
