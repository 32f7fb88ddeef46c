import request from 'supertest';
import type { PaymentForm } from '../../src/modules/forms/index.js';
import { GatewayStateService } from '../../src/modules/gateways/index.js';
import type { FakeGatewayA } from '../fakes/gateway-a/index.js';
import { connectThroughProxy, startFakeGatewayA, TEST_ADMIN_URL } from '../support/gateway-a.js';
import { createIntent, createRecord, finishCheckout, gatewayClient } from '../support/gateway-a-checkout.js';
import { expectWpError } from '../support/http.js';
import { createPaymentForm } from '../support/payment-fixtures.js';
import { startTestApp, type TestApp, installationIdOf } from '../support/test-app.js';
import { paymentRow } from '../support/app-state.js';

/**
 * The Pro plan: API calls go to GATEWAY_A_API_BASE (one fake) and never to the proxy (another
 * fake, which only serves the OAuth pages), with no application fee; bank debit is allowed.
 */
describe('gateway A checkout (Pro plan, direct to the gateway API)', () => {
  let proxy: FakeGatewayA;
  let api: FakeGatewayA;
  let t: TestApp;
  const installationId = () => installationIdOf(t);
  let form: PaymentForm;

  beforeAll(async () => {
    proxy = await startFakeGatewayA();
    api = await startFakeGatewayA();
    t = await startTestApp({
      CHECKOUT_PLAN: 'pro',
      CHECKOUT_PROXY_URL: proxy.url,
      GATEWAY_A_API_BASE: api.url,
      ADMIN_URL: TEST_ADMIN_URL,
      RATE_LIMIT_NEW_PAYMENT: '10000',
      RATE_LIMIT_PUBLIC_PAYMENT: '10000',
    });
    const landing = await connectThroughProxy({ t, fake: proxy, close: async () => undefined }, 'test');
    expect(landing.searchParams.get('gateway_a_webhook')).toBe('verified');
    await t.app.get(GatewayStateService).setActiveMethods('gateway_a', ['ccard', 'sepa']);
    form = await createPaymentForm(t, {
      plans: [
        { title: 'Once', prices: [{ amount: 1999, currency: 'USD', frequency: 'one-time' }, { amount: 2500, currency: 'EUR', frequency: 'one-time' }, { amount: 700, currency: 'GBP', frequency: 'one-time' }] },
        { title: 'Monthly', prices: [{ amount: 999, currency: 'EUR', frequency: 'm_3' }] },
      ],
    });
    proxy.clearRequests();
  });
  afterAll(async () => {
    await t.close();
    await proxy.stop();
    await api.stop();
  });

  it('sends one-time intents to GATEWAY_A_API_BASE without application_fee_amount', async () => {
    const record = await createRecord(t, form);
    api.clearRequests();
    const res = await createIntent(t, record);
    expect(res.status).toBe(200);
    const [create] = api.requestsTo('POST', '/v1/payment_intents');
    expect(create.body).toMatchObject({ amount: '1999', currency: 'usd', capture_method: 'automatic' });
    expect(create.body).not.toHaveProperty('application_fee_amount');
    expect(create.idempotencyKey).toMatch(new RegExp(`^checkout-${installationId()}-pi-${record.sync.payment_id}-1999-usd-`));
    expect(await paymentRow(t, record.sync.payment_id)).toMatchObject({ application_fee_amount: null, provider_payment_ref: res.body.intent_id });

    api.resources.setIntentStatus(res.body.intent_id, 'succeeded');
    expect((await finishCheckout(t, record)).body).toEqual({ status: 'completed', payment_id: record.sync.payment_id, requires_action: false });
    expect(await paymentRow(t, record.sync.payment_id)).toMatchObject({ status: 'completed', amount_received: 1999 });
    expect(proxy.requests).toHaveLength(0);
  });

  it('creates subscriptions without application_fee_percent', async () => {
    const record = await createRecord(t, form, { plan_index: 1, price_index: 0 });
    const res = await createIntent(t, record);
    expect(res.body.intent_type).toBe('setup_intent');
    expect(api.requestsTo('POST', '/v1/prices').at(-1)!.body).toMatchObject({ recurring: { interval: 'month', interval_count: '3' }, unit_amount: '999' });
    await (await gatewayClient(t)).setupIntents.confirm(res.body.intent_id, { payment_method: 'pm_card_visa' });
    expect((await finishCheckout(t, record)).body.status).toBe('completed');
    const [subscription] = api.requestsTo('POST', '/v1/subscriptions');
    expect(subscription.body).toMatchObject({ default_payment_method: 'pm_card_visa', metadata: { checkout_payment_id: String(record.sync.payment_id) } });
    expect(subscription.body).not.toHaveProperty('application_fee_percent');
    expect(subscription.body).not.toHaveProperty('add_invoice_items');
    expect(await paymentRow(t, record.sync.payment_id)).toMatchObject({ subscription_status: 'active', application_fee_amount: null });
    expect(proxy.requests).toHaveLength(0);
  });

  it('adds a setup fee to the first invoice without any application fee', async () => {
    const feeForm = await createPaymentForm(t, { plans: [{ title: 'Club', prices: [{ amount: 2000, currency: 'GBP', frequency: 'y_1', setup_amount: 1500 }] }] });
    const record = await createRecord(t, feeForm, { email_address: 'pro-setup@example.test' });
    expect(record.sync).toMatchObject({ amount: 2000, setup_amount: 1500 });
    const res = await createIntent(t, record);
    await (await gatewayClient(t)).setupIntents.confirm(res.body.intent_id, { payment_method: 'pm_card_visa' });
    api.clearRequests();
    expect((await finishCheckout(t, record)).body.status).toBe('completed');
    const [subscription] = api.requestsTo('POST', '/v1/subscriptions');
    expect(subscription.body).toMatchObject({ add_invoice_items: [{ price_data: { currency: 'gbp', unit_amount: '1500' } }] });
    expect(subscription.body).not.toHaveProperty('application_fee_percent');
    const stored = await paymentRow(t, record.sync.payment_id);
    expect(stored).toMatchObject({ application_fee_amount: null });
    const invoice = api.resources.get(api.resources.get(stored.provider_subscription_ref as string)!.latest_invoice as string)!;
    expect(invoice).toMatchObject({ total: 3500, amount_paid: 3500 });
    // No fee is charged with the invoice's payment either.
    const [payment] = api.resources.list('invoice_payment').filter((entry) => entry.invoice === invoice.id);
    expect(api.resources.get((payment.payment as { payment_intent: string }).payment_intent)).toMatchObject({ amount: 3500, application_fee_amount: null });
    expect(proxy.requests).toHaveLength(0);
  });

  it('sends section B admin charges to GATEWAY_A_API_BASE without a fee', async () => {
    api.clearRequests();
    const res = await request(t.http).post(`${t.base}/gateway-a/payment`).set('Authorization', t.admin.auth).send({ amount: 19.99, currency: 'USD', source: 'pm_card_visa' });
    expect(res.status).toBe(200);
    expect(res.body.status).toBe('success');
    const [create] = api.requestsTo('POST', '/v1/payment_intents');
    expect(create.body).toMatchObject({ amount: '1999', confirm: 'true' });
    expect(create.body).not.toHaveProperty('application_fee_amount');
    expect(proxy.requests).toHaveLength(0);
  });

  describe('bank debit (sepa, Pro only)', () => {
    it('USD: a US bank account intent linked through the bank-linking flow', async () => {
      const record = await createRecord(t, form, { payment_method: 'sepa' });
      api.clearRequests();
      const res = await createIntent(t, record);
      expect(res.status).toBe(200);
      const [create] = api.requestsTo('POST', '/v1/payment_intents');
      expect(create.body).toMatchObject({
        allowed_payment_method_types: ['us_bank_account'],
        payment_method_options: { us_bank_account: { verification_method: 'instant', financial_connections: { permissions: ['payment_method'] } } },
        metadata: { checkout_payment_method: 'sepa' },
      });
      // The bank settles later: processing, then completed.
      await (await gatewayClient(t)).paymentIntents.confirm(res.body.intent_id, { payment_method: 'pm_usBankAccount' });
      expect((await finishCheckout(t, record)).body).toEqual({ status: 'processing', payment_id: record.sync.payment_id, requires_action: false });
      api.resources.setIntentStatus(res.body.intent_id, 'succeeded');
      expect((await finishCheckout(t, record)).body.status).toBe('completed');
    });

    it('EUR: a SEPA Direct Debit intent', async () => {
      const record = await createRecord(t, form, { payment_method: 'sepa', price_index: 1 });
      api.clearRequests();
      expect((await createIntent(t, record)).status).toBe(200);
      const [create] = api.requestsTo('POST', '/v1/payment_intents');
      expect(create.body).toMatchObject({ allowed_payment_method_types: ['sepa_debit'], currency: 'eur', amount: '2500' });
      expect(create.body).not.toHaveProperty('application_fee_amount');
    });

    it('refuses a currency without a bank rail (400 naming payment_method), before any gateway call', async () => {
      const record = await createRecord(t, form, { payment_method: 'sepa', price_index: 2 });
      api.clearRequests();
      const res = await createIntent(t, record);
      expect(res.status).toBe(400);
      expect(expectWpError(res.body, 'rest_invalid_param', 400).data.params).toEqual({ payment_method: expect.stringContaining('GBP') });
      expect(api.requests).toHaveLength(0);
    });

    it('uses the bank rail for a subscription setup too', async () => {
      const record = await createRecord(t, form, { payment_method: 'sepa', plan_index: 1, price_index: 0, email_address: 'bank@example.test' });
      api.clearRequests();
      const res = await createIntent(t, record);
      expect(res.body.intent_type).toBe('setup_intent');
      expect(api.requestsTo('POST', '/v1/setup_intents')[0].body).toMatchObject({ allowed_payment_method_types: ['sepa_debit'], usage: 'off_session' });
    });
  });
});

describe('gateway A checkout routing on the free plan (two distinct fakes)', () => {
  let proxy: FakeGatewayA;
  let api: FakeGatewayA;
  let t: TestApp;

  beforeAll(async () => {
    proxy = await startFakeGatewayA();
    api = await startFakeGatewayA();
    t = await startTestApp({ CHECKOUT_PLAN: 'free', CHECKOUT_PROXY_URL: proxy.url, GATEWAY_A_API_BASE: api.url, ADMIN_URL: TEST_ADMIN_URL });
    await connectThroughProxy({ t, fake: proxy, close: async () => undefined }, 'test');
  });
  afterAll(async () => {
    await t.close();
    await proxy.stop();
    await api.stop();
  });

  it('sends every call to CHECKOUT_PROXY_URL with the fee, none to GATEWAY_A_API_BASE', async () => {
    const form = await createPaymentForm(t);
    const record = await createRecord(t, form);
    proxy.clearRequests();
    const res = await createIntent(t, record);
    expect(res.status).toBe(200);
    expect(proxy.requestsTo('POST', '/v1/payment_intents')[0].body).toMatchObject({ amount: '1000', application_fee_amount: '20' });
    proxy.resources.setIntentStatus(res.body.intent_id, 'succeeded');
    expect((await finishCheckout(t, record)).body.status).toBe('completed');
    expect(proxy.requestsTo('GET', `/v1/payment_intents/${res.body.intent_id}`)).toHaveLength(1);
    expect(api.requests).toHaveLength(0);
  });
});
