import request from 'supertest';
import type { PaymentForm } from '../../src/modules/forms/index.js';
import type { GatewayMode } from '../../src/modules/gateways/index.js';
import { type FakeGatewayB, startFakeGatewayB } from '../fakes/gateway-b/index.js';
import { createPaymentForm, referenceOf, type SyncAnswer } from './payment-fixtures.js';
import { startTestApp, type TestApp } from './test-app.js';

export interface GatewayBTestBed {
  t: TestApp;
  /** The provider's sandbox (test mode) */
  sandbox: FakeGatewayB;
  /** The provider's live environment (live mode) */
  live: FakeGatewayB;
  fake(mode: GatewayMode): FakeGatewayB;
  close(): Promise<void>;
}

/**
 * The app with gateway B's two environments pointed at two fakes (GATEWAY_B_API_BASE_TEST /
 * _LIVE) and a short provider timeout (GATEWAY_TIMEOUT_MS), so timeouts are tested in a second.
 */
export async function startGatewayBTestBed(env: Record<string, string | undefined> = {}): Promise<GatewayBTestBed> {
  const sandbox = await startFakeGatewayB({ environment: 'sandbox' });
  const live = await startFakeGatewayB({ environment: 'live' });
  const t = await startTestApp({
    GATEWAY_B_API_BASE_TEST: sandbox.url,
    GATEWAY_B_API_BASE_LIVE: live.url,
    GATEWAY_TIMEOUT_MS: '1000',
    RECONCILE_INTERVAL_SECONDS: '0',
    RATE_LIMIT_NEW_PAYMENT: '10000',
    RATE_LIMIT_PUBLIC_PAYMENT: '10000',
    ...env,
  });
  return {
    t,
    sandbox,
    live,
    fake: (mode) => (mode === 'live' ? live : sandbox),
    async close() {
      await t.close();
      await sandbox.stop();
      await live.stop();
    },
  };
}

export function adminPost(t: TestApp, path: string, body: object) {
  return request(t.http).post(`${t.base}${path}`).set('Authorization', t.admin.auth).send(body);
}

/**
 * Connects gateway B in `mode` the way an admin does: set-mode, save-settings (checked with the
 * fake), the mode's Webhook ID, the standard checkout method.
 */
export async function connectGatewayB(bed: GatewayBTestBed, mode: GatewayMode = 'test', options: { webhookId?: string | null } = {}): Promise<void> {
  const fake = bed.fake(mode);
  const steps: Array<[string, object]> = [
    ['/payment-gateway/set-mode', { gateway: 'gateway_b', mode }],
    ['/payment-gateway/save-settings', { email: 'merchant@example.test', client_id: fake.clientId, secret: fake.clientSecret }],
    ['/payment-gateway/set-payment-methods', { gateway: 'gateway_b', methods: ['standard_checkout'] }],
  ];
  const webhookId = options.webhookId === undefined ? fake.webhookId : options.webhookId;
  if (webhookId !== null) steps.push(['/payment-gateway/save-webhook-settings', { gateway: 'gateway_b', mode, webhook_id: webhookId }]);
  for (const [path, body] of steps) {
    const res = await adminPost(bed.t, path, body);
    if (res.status !== 200) throw new Error(`${path} answered ${res.status}: ${JSON.stringify(res.body)}`);
  }
}

/**
 * The set-up the webhook and aftermath specs share: the test bed with gateway B connected in test
 * mode (its Webhook ID saved) and a published form to pay with it.
 */
export async function startConnectedGatewayB(formSettings: Parameters<typeof createPaymentForm>[1] = {}): Promise<{ bed: GatewayBTestBed; form: PaymentForm }> {
  const bed = await startGatewayBTestBed();
  await connectGatewayB(bed, 'test');
  return { bed, form: await createPaymentForm(bed.t, formSettings) };
}

/** A payment the payer made: its order approved at the sandbox and captured by the service (completed). */
export async function paidGatewayBRecord(bed: GatewayBTestBed, form: PaymentForm): Promise<{ rec: GatewayBRecord; orderId: string }> {
  const rec = await createGatewayBRecord(bed.t, form);
  const order = await createOrder(bed.t, rec);
  const orderId = order.body.order_id as string;
  bed.sandbox.approveOrder(orderId);
  const capture = await captureOrder(bed.t, rec, orderId);
  if (capture.body.status !== 'completed') throw new Error(`the capture answered ${capture.status}: ${JSON.stringify(capture.body)}`);
  return { rec, orderId };
}

export interface GatewayBRecord {
  sync: SyncAnswer;
  reference: ReturnType<typeof referenceOf>;
}

/** A gateway-B payment record, created by the payer's browser through sync-details. */
export async function createGatewayBRecord(t: TestApp, form: PaymentForm, body: Record<string, unknown> = {}): Promise<GatewayBRecord> {
  const res = await request(t.http)
    .post(`${t.base}/payment/sync-details`)
    .send({ form_id: form.id, payment_gateway: 'gateway_b', payment_method: 'standard_checkout', email_address: 'payer@example.test', ...body });
  if (res.status !== 201) throw new Error(`sync-details answered ${res.status}: ${JSON.stringify(res.body)}`);
  const sync = res.body as SyncAnswer;
  return { sync, reference: referenceOf(sync, form.id, 'gateway_b', 'standard_checkout') };
}

/** The sync-details update of `record` with `changes`; answers the record with its new reference. */
export async function updateGatewayBRecord(t: TestApp, record: GatewayBRecord, changes: Record<string, unknown>) {
  const { payment_id, payment_secret, form_id, payment_gateway, payment_method } = record.reference;
  return request(t.http).post(`${t.base}/payment/sync-details`).send({ payment_id, payment_secret, form_id, payment_gateway, payment_method, ...changes });
}

export function createOrder(t: TestApp, record: GatewayBRecord, extra: object = {}) {
  return request(t.http).post(`${t.base}/gateway-b/order`).send({ ...record.reference, ...extra });
}

export function captureOrder(t: TestApp, record: GatewayBRecord, orderId: string, extra: object = {}) {
  return request(t.http).post(`${t.base}/gateway-b/order/capture`).send({ ...record.reference, order_id: orderId, ...extra });
}

/** Delivers a webhook as PayPal does: the exact bytes and the five transmission headers. */
export function deliverGatewayBWebhook(t: TestApp, mode: string, delivery: { rawBody: Buffer; headers: Record<string, string> }) {
  const req = request(t.http).post(`${t.base}/webhook/gateway-b-callback/${mode}`).set('Content-Type', 'application/json');
  for (const [name, value] of Object.entries(delivery.headers)) req.set(name, value);
  return req.send(delivery.rawBody.toString('utf8'));
}

export { startFakeGatewayB };
