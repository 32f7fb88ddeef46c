import request from 'supertest';
import type { PaymentForm } from '../../src/modules/forms/index.js';
import { GatewayAContractService } from '../../src/modules/gateway-a/index.js';
import { GatewayStateService } from '../../src/modules/gateways/index.js';
import { PaymentLedgerService } from '../../src/modules/payments/index.js';
import { signedEvent } from '../fakes/gateway-a/index.js';
import { logEvents, paymentRow } from '../support/app-state.js';
import { connectThroughProxy, type GatewayATestBed, startGatewayATestBed } from '../support/gateway-a.js';
import { createIntent, createRecord, finishCheckout, gatewayClient } from '../support/gateway-a-checkout.js';
import { expectWpError } from '../support/http.js';
import { createPaymentForm, disconnectGateway } from '../support/payment-fixtures.js';

/**
 * POST /administration/payments/{id}/subscription/cancel: gateway A's subscription canceled through
 * the gateway port with the payment's own mode credentials (the fake answers DELETE and POST
 * /v1/subscriptions/{id} as the provider's reference says).
 */
describe('administration: cancel a subscription', () => {
  let bed: GatewayATestBed;
  let form: PaymentForm;
  let secret: string;
  let eventCounter = 0;

  beforeAll(async () => {
    bed = await startGatewayATestBed({ RATE_LIMIT_NEW_PAYMENT: '10000', RATE_LIMIT_PUBLIC_PAYMENT: '10000' });
    const landing = await connectThroughProxy(bed, 'test');
    expect(landing.searchParams.get('gateway_a_webhook')).toBe('verified');
    await bed.t.app.get(GatewayStateService).setActiveMethods('gateway_a', ['ccard']);
    secret = (await bed.t.app.get(GatewayAContractService).getSigningSecret('test'))!;
    form = await createPaymentForm(bed.t, { plans: [{ title: 'Monthly', prices: [{ amount: 999, currency: 'EUR', frequency: 'm_1' }] }, { title: 'Once', prices: [{ amount: 500, currency: 'EUR', frequency: 'one-time' }] }] });
  });
  afterAll(() => bed.close());
  afterEach(() => bed.fake.clearFailures());

  const t = () => bed.t;
  const cancel = (id: number, body: unknown, auth = t().admin.auth) =>
    request(t().http).post(`${t().base}/administration/payments/${id}/subscription/cancel`).set('Authorization', auth).send(body as object);
  const deliver = (type: string, object: Record<string, unknown>, created?: number) => {
    const { body, signature } = signedEvent(type, object, secret, { id: `evt_cancel_${++eventCounter}_${Date.now()}`, ...(created ? { created } : {}) });
    return request(t().http).post(`${t().base}/webhook/gateway-a-callback/test`).set('Content-Type', 'application/json').set('Gateway-A-Signature', signature).send(body);
  };

  /** A completed gateway-A subscription payment (its subscription active at the fake). */
  async function subscribed(): Promise<{ id: number; subscription: string }> {
    const record = await createRecord(t(), form, { plan_index: 0, price_index: 0 });
    const intent = await createIntent(t(), record);
    await (await gatewayClient(t())).setupIntents.confirm(intent.body.intent_id, { payment_method: 'pm_card_visa' });
    const done = await finishCheckout(t(), record, { intent_id: intent.body.intent_id });
    expect(done.body.status).toBe('completed');
    const row = await paymentRow(t(), record.sync.payment_id);
    return { id: record.sync.payment_id, subscription: row.provider_subscription_ref as string };
  }

  it('cancels now: DELETE at the provider, the status stored, the detail answered; a second request is 409 without a provider call', async () => {
    const { id, subscription } = await subscribed();
    bed.fake.clearRequests();
    const res = await cancel(id, { at_period_end: false });
    expect(res.status).toBe(200);
    expect(res.body.payment).toMatchObject({ id, status: 'completed', provider_references: { subscription, subscription_status: 'canceled' }, renewals: [], renewals_total: 0 });
    expect(bed.fake.requestsTo('DELETE', `/v1/subscriptions/${subscription}`)).toHaveLength(1);
    expect(bed.fake.resources.get(subscription)).toMatchObject({ status: 'canceled' });
    expect(await paymentRow(t(), id)).toMatchObject({ subscription_status: 'canceled', status: 'completed' });
    expect(await logEvents(t(), id)).toContain('subscription_canceled');

    // An older customer.subscription.updated (active) delivered afterwards does not bring it back.
    const stale = { ...bed.fake.resources.get(subscription)!, status: 'active' };
    const late = await deliver('customer.subscription.updated', stale, Math.floor(Date.now() / 1000) - 60);
    expect(late.status).toBe(200);
    expect(await paymentRow(t(), id)).toMatchObject({ subscription_status: 'canceled' });

    bed.fake.clearRequests();
    const again = await cancel(id, { at_period_end: true });
    expect(again.status).toBe(409);
    expectWpError(again.body, 'checkout_invalid_state', 409);
    expect(bed.fake.requests).toHaveLength(0);
  });

  it('cancels at period end: POST cancel_at_period_end=true, status stays active, the detail says when it ends; asking again is 409 without a provider call', async () => {
    const { id, subscription } = await subscribed();
    bed.fake.clearRequests();
    const res = await cancel(id, { at_period_end: true });
    expect(res.status).toBe(200);
    const [update] = bed.fake.requestsTo('POST', `/v1/subscriptions/${subscription}`);
    expect(update.body).toEqual({ cancel_at_period_end: 'true' });
    expect(bed.fake.requestsTo('DELETE', `/v1/subscriptions/${subscription}`)).toHaveLength(0);
    expect(res.body.payment.provider_references).toMatchObject({ subscription_status: 'active' });
    const periodEnd = bed.fake.resources.get(subscription)!.cancel_at as number;
    expect(periodEnd).toBeGreaterThan(Date.now() / 1000);
    expect(res.body.payment.subscription).toEqual({ status: 'active', cancel_at_period_end: true, cancels_at: new Date(periodEnd * 1000).toISOString() });
    expect(await logEvents(t(), id)).toContain('subscription_cancel_scheduled');

    bed.fake.clearRequests();
    const again = await cancel(id, { at_period_end: true });
    const error = expectWpError(again.body, 'checkout_invalid_state', 409);
    expect(error.message).toBe(`This subscription is already set to cancel at the end of its period on ${new Date(periodEnd * 1000).toISOString().slice(0, 10)}; cancel it now to end it at once.`);
    expect(bed.fake.requests).toHaveLength(0);

    // Ending it now is still possible.
    const now = await cancel(id, { at_period_end: false });
    expect(now.status).toBe(200);
    expect(now.body.payment.subscription).toEqual({ status: 'canceled', cancel_at_period_end: false, cancels_at: null });
    expect(await paymentRow(t(), id)).toMatchObject({ subscription_status: 'canceled' });
  });

  it('stores the end customer.subscription.updated schedules or undoes at the provider', async () => {
    const { id, subscription } = await subscribed();
    const detail = async () => (await request(t().http).get(`${t().base}/administration/payments/${id}`).set('Authorization', t().admin.auth)).body.subscription;
    expect(await detail()).toEqual({ status: 'active', cancel_at_period_end: false, cancels_at: null });
    const soon = Math.floor(Date.now() / 1000);
    const periodEnd = soon + 30 * 86_400;
    const scheduled = await deliver('customer.subscription.updated', { ...bed.fake.resources.get(subscription)!, cancel_at_period_end: true, cancel_at: periodEnd }, soon + 10);
    expect(scheduled.status).toBe(200);
    expect(await detail()).toEqual({ status: 'active', cancel_at_period_end: true, cancels_at: new Date(periodEnd * 1000).toISOString() });
    // Undone at the provider: the detail no longer says it ends.
    await deliver('customer.subscription.updated', { ...bed.fake.resources.get(subscription)!, cancel_at_period_end: false, cancel_at: null }, soon + 20);
    expect(await detail()).toEqual({ status: 'active', cancel_at_period_end: false, cancels_at: null });
  });

  it('a renewal cancels its subscription (the first payment), and the first payment lists its renewals newest first', async () => {
    const { id, subscription } = await subscribed();
    const ledger = t().app.get(PaymentLedgerService);
    await ledger.recordRenewal(id, { invoiceRef: 'in_renewal_1', amount: 999, currency: 'EUR', status: 'completed', source: 'test', applicationFeeAmount: null });
    await ledger.recordRenewal(id, { invoiceRef: 'in_renewal_2', amount: 999, currency: 'EUR', status: 'failed', source: 'test', applicationFeeAmount: null });
    const detail = await request(t().http).get(`${t().base}/administration/payments/${id}`).set('Authorization', t().admin.auth);
    expect(detail.body.renewals_total).toBe(2);
    expect(detail.body.renewals.map((r: { parent_payment_id: number }) => r.parent_payment_id)).toEqual([id, id]);
    const newest = detail.body.renewals[0].id as number;
    expect(newest).toBeGreaterThan(detail.body.renewals[1].id);

    const res = await cancel(newest, { at_period_end: false });
    expect(res.status).toBe(200);
    expect(res.body.payment).toMatchObject({ id: newest, parent_payment_id: id });
    // A renewal shows its subscription as the first payment holds it.
    expect(res.body.payment.subscription).toEqual({ status: 'canceled', cancel_at_period_end: false, cancels_at: null });
    expect(bed.fake.resources.get(subscription)).toMatchObject({ status: 'canceled' });
    expect(await paymentRow(t(), id)).toMatchObject({ subscription_status: 'canceled' });
  });

  it('answers 502 checkout_gateway_error with our message when the provider refuses, and stores nothing', async () => {
    const { id, subscription } = await subscribed();
    bed.fake.fail({ method: 'DELETE', path: `/v1/subscriptions/${subscription}`, status: 400, error: { type: 'invalid_request_error', code: 'resource_missing', message: 'Secret provider text sk_live_x' } });
    const res = await cancel(id, { at_period_end: false });
    expect(res.status).toBe(502);
    expectWpError(res.body, 'checkout_gateway_error', 502);
    expect(JSON.stringify(res.body)).not.toContain('Secret provider text');
    expect(await paymentRow(t(), id)).toMatchObject({ subscription_status: 'active' });
    expect(await logEvents(t(), id)).toContain('subscription_cancel_failed');
  });

  it('refuses a payment that is no subscription (409), an unknown id (404), a bad body (400) and changes nothing', async () => {
    const once = await createRecord(t(), form, { plan_index: 1, price_index: 0 });
    bed.fake.clearRequests();
    const notSub = await cancel(once.sync.payment_id, { at_period_end: false });
    expect(notSub.status).toBe(409);
    expectWpError(notSub.body, 'checkout_invalid_state', 409);
    expectWpError((await cancel(999999, { at_period_end: false })).body, 'checkout_not_found', 404);
    const { id } = await subscribed();
    bed.fake.clearRequests();
    expectWpError((await cancel(id, {})).body, 'rest_missing_callback_param', 400);
    for (const body of [{ at_period_end: 'true' }, { at_period_end: 1 }, { at_period_end: true, extra: 1 }]) {
      const res = await cancel(id, body);
      expect(res.status).toBe(400);
      expectWpError(res.body, 'rest_invalid_param', 400);
    }
    expect(bed.fake.requests).toHaveLength(0);
  });

  it('answers 409 when the payment\'s mode is no longer connected (its own mode\'s credentials, not the current one)', async () => {
    const { id } = await subscribed();
    await disconnectGateway(t(), 'gateway_a', 'test');
    const res = await cancel(id, { at_period_end: false });
    expect(res.status).toBe(409);
    expectWpError(res.body, 'checkout_invalid_state', 409);
    expect(await paymentRow(t(), id)).toMatchObject({ subscription_status: 'active' });
  });
});

describe('administration: cancel a subscription (authorisation)', () => {
  let bed: GatewayATestBed;
  beforeAll(async () => {
    bed = await startGatewayATestBed();
  });
  afterAll(() => bed.close());

  it('401 without credentials, 403 without the capability, both before the payment is read (an unknown id too)', async () => {
    const t = bed.t;
    const url = `${t.base}/administration/payments/999999/subscription/cancel`;
    expectWpError((await request(t.http).post(url).send({ at_period_end: false })).body, 'rest_not_logged_in', 401);
    const editor = await t.createUser('editor');
    const res = await request(t.http).post(url).set('Authorization', editor.auth).send({ at_period_end: false });
    expect(res.status).toBe(403);
    expectWpError(res.body, 'rest_forbidden', 403);
    expect(bed.fake.requests).toHaveLength(0);
  });
});
