import request from 'supertest';
import { installationIdOf, startTestApp, type TestApp } from '../support/test-app.js';
import type { PaymentForm } from '../../src/modules/forms/index.js';
import { freePlanFeeAmount, GatewayAContractService, gatewayAOption } from '../../src/modules/gateway-a/index.js';
import { GatewayStateService } from '../../src/modules/gateways/index.js';
import { PaymentLedgerService } from '../../src/modules/payments/index.js';
import { OptionsService } from '../../src/modules/settings/index.js';
import { type FakeGatewayA, signedEvent, startFakeGatewayA } from '../fakes/gateway-a/index.js';
import { callbackPath, connectThroughProxy, followCallback, type GatewayATestBed, issueState, startGatewayATestBed, TEST_ADMIN_URL } from '../support/gateway-a.js';
import { peerDatabaseUrl } from '../support/peer-database.js';
import { type CheckoutRecord, createIntent, createRecord, finishCheckout, gatewayClient, syncBodyOf, tableRows } from '../support/gateway-a-checkout.js';
import { expectWpError } from '../support/http.js';
import { connectGateway, createPaymentForm } from '../support/payment-fixtures.js';
import { logEvents, paymentRow } from '../support/app-state.js';

/**
 * Gateway A public checkout on the free plan: every call goes through CHECKOUT_PROXY_URL (the
 * fake) with the 2 % application fee. The whole flow runs through the real `stripe` SDK.
 */
describe('gateway A checkout (free plan, through the proxy)', () => {
  let bed: GatewayATestBed;
  let form: PaymentForm;

  beforeAll(async () => {
    bed = await startGatewayATestBed({ RATE_LIMIT_NEW_PAYMENT: '10000', RATE_LIMIT_PUBLIC_PAYMENT: '10000' });
    form = await createPaymentForm(bed.t);
  });
  afterAll(() => bed.close());
  afterEach(() => bed.fake.clearFailures());

  const t = () => bed.t;
  const installationId = () => installationIdOf(bed.t);
  const piCreates = () => bed.fake.requestsTo('POST', '/v1/payment_intents');

  describe('before the webhook contract is verified', () => {
    it('answers 409 checkout_paused on both routes and calls no gateway', async () => {
      // Credentials without a provisioned webhook endpoint: connected, but paused.
      await connectGateway(t(), 'gateway_a', 'test');
      const record = await createRecord(t(), form);
      bed.fake.clearRequests();
      const intent = await createIntent(t(), record);
      expect(intent.status).toBe(409);
      expectWpError(intent.body, 'checkout_paused', 409);
      const checkout = await finishCheckout(t(), record);
      expect(checkout.status).toBe(409);
      expectWpError(checkout.body, 'checkout_paused', 409);
      expect(bed.fake.requests).toHaveLength(0);
      expect(await paymentRow(t(), record.sync.payment_id)).toMatchObject({ status: 'pending', provider_payment_ref: null });
    });
  });

  describe('once connected and verified', () => {
    beforeAll(async () => {
      const landing = await connectThroughProxy(bed, 'test');
      expect(landing.searchParams.get('gateway_a_webhook')).toBe('verified');
      await t().app.get(GatewayStateService).setActiveMethods('gateway_a', ['ccard', 'sepa']);
    });

    it('refuses a record without a valid email (400 naming email_address) before any gateway call', async () => {
      const record = await createRecord(t(), form, { email_address: '' });
      bed.fake.clearRequests();
      const res = await createIntent(t(), record);
      expect(res.status).toBe(400);
      expect(expectWpError(res.body, 'rest_invalid_param', 400).data.params).toHaveProperty('email_address');
      expect(bed.fake.requests).toHaveLength(0);
    });

    it('runs a one-time payment end to end: intent with fee, metadata and idempotency key → succeeded → completed', async () => {
      const record = await createRecord(t(), form);
      const id = record.sync.payment_id;
      bed.fake.clearRequests();

      const res = await createIntent(t(), record);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ intent_type: 'payment_intent', intent_id: expect.stringMatching(/^pi_/), client_secret: expect.stringContaining('_secret_'), requires_action: false });
      // The provider's client secret completes the payment in a browser: no cache may keep it.
      expect(res.headers['cache-control']).toBe('no-store');
      const [create] = piCreates();
      expect(create.body).toMatchObject({
        amount: '1000',
        currency: 'usd',
        capture_method: 'automatic',
        application_fee_amount: '20',
        allowed_payment_method_types: ['card', 'link'],
        metadata: { checkout_payment_id: String(id), checkout_payment_method: 'ccard' },
      });
      expect(create.idempotencyKey).toMatch(new RegExp(`^checkout-${installationId()}-pi-${id}-1000-usd-`));
      expect(bed.fake.requestsTo('POST', '/v1/customers')[0].idempotencyKey).toMatch(new RegExp(`^checkout-${installationId()}-customer-`));
      const intent = bed.fake.resources.get(res.body.intent_id)!;
      expect(intent).toMatchObject({ amount: 1000, currency: 'usd', application_fee_amount: 20, capture_method: 'automatic' });
      expect(await paymentRow(t(), id)).toMatchObject({
        status: 'pending',
        provider_payment_ref: res.body.intent_id,
        provider_customer_ref: intent.customer,
        application_fee_amount: 20,
      });

      // A repeat hands out the same open intent (no second create).
      const again = await createIntent(t(), record);
      expect(again.body.intent_id).toBe(res.body.intent_id);
      expect(piCreates()).toHaveLength(1);

      bed.fake.resources.setIntentStatus(res.body.intent_id, 'succeeded');
      const done = await finishCheckout(t(), record, { intent_id: res.body.intent_id });
      expect(done.status).toBe(200);
      expect(done.body).toEqual({ status: 'completed', payment_id: id, requires_action: false });
      expect(await paymentRow(t(), id)).toMatchObject({ status: 'completed', amount_received: 1000, provider_capture_ref: expect.stringMatching(/^ch_/) });

      // Idempotent: the same answer, no second status change.
      const repeat = await finishCheckout(t(), record);
      expect(repeat.body).toEqual({ status: 'completed', payment_id: id, requires_action: false });
      expect((await logEvents(t(), id)).filter((event) => event === 'status_changed')).toHaveLength(1);
      // A completed payment gets no new intent.
      expect((await createIntent(t(), record)).status).toBe(409);
    });

    it('keeps the payment pending while the payer must act, then follows processing and success', async () => {
      const record = await createRecord(t(), form);
      const { body } = await createIntent(t(), record);
      const client = await gatewayClient(t());
      bed.fake.resources.outcomes.set('pm_card_threeDSecure2Required', 'requires_action');
      await client.paymentIntents.confirm(body.intent_id, { payment_method: 'pm_card_threeDSecure2Required' });

      const waiting = await finishCheckout(t(), record);
      expect(waiting.body).toEqual({ status: 'pending', payment_id: record.sync.payment_id, requires_action: true });
      expect((await createIntent(t(), record)).body).toMatchObject({ intent_id: body.intent_id, requires_action: true });

      bed.fake.resources.setIntentStatus(body.intent_id, 'processing');
      expect((await finishCheckout(t(), record)).body).toEqual({ status: 'processing', payment_id: record.sync.payment_id, requires_action: false });
      bed.fake.resources.setIntentStatus(body.intent_id, 'succeeded');
      expect((await finishCheckout(t(), record)).body.status).toBe('completed');
    });

    it('moves a canceled intent to canceled', async () => {
      const record = await createRecord(t(), form);
      const { body } = await createIntent(t(), record);
      await (await gatewayClient(t())).paymentIntents.cancel(body.intent_id);
      expect((await finishCheckout(t(), record)).body).toEqual({ status: 'canceled', payment_id: record.sync.payment_id, requires_action: false });
    });

    it('replaces the intent when the amount changed (new key, old intent canceled)', async () => {
      const record = await createRecord(t(), form, { plan_index: 1, price_index: 0, amount: 3000 });
      const first = await createIntent(t(), record);
      const update = await request(t().http).post(`${t().base}/payment/sync-details`).send({
        form_id: form.id,
        payment_id: record.sync.payment_id,
        payment_secret: record.sync.payment_secret,
        payment_gateway: 'gateway_a',
        payment_method: 'ccard',
        plan_index: 1,
        price_index: 0,
        amount: 4000,
      });
      expect(update.status).toBe(200);
      const updated: CheckoutRecord = { sync: update.body, reference: { ...record.reference, amount: 4000, checkout_token: update.body.checkout_token } };
      const second = await createIntent(t(), updated);
      expect(second.status).toBe(200);
      expect(second.body.intent_id).not.toBe(first.body.intent_id);
      expect(bed.fake.resources.get(second.body.intent_id)).toMatchObject({ amount: 4000, application_fee_amount: 80 });
      expect(bed.fake.resources.get(first.body.intent_id)).toMatchObject({ status: 'canceled' });
      expect(await paymentRow(t(), record.sync.payment_id)).toMatchObject({ provider_payment_ref: second.body.intent_id, application_fee_amount: 80 });
    });

    describe('contract checks (409 checkout_contract_mismatch, record unchanged)', () => {
      const alterations: Array<[string, (intent: Record<string, unknown>) => void]> = [
        ['amount', (intent) => (intent.amount = 999)],
        ['currency', (intent) => (intent.currency = 'eur')],
        ['metadata', (intent) => (intent.metadata = { checkout_payment_id: '999999' })],
        ['customer', (intent) => (intent.customer = 'cus_someoneelse')],
      ];
      it.each(alterations)('refuses an intent whose %s was changed at the gateway', async (field, alter) => {
        const record = await createRecord(t(), form);
        const { body } = await createIntent(t(), record);
        const intent = bed.fake.resources.get(body.intent_id)!;
        bed.fake.resources.setIntentStatus(body.intent_id, 'succeeded');
        alter(intent);
        const before = await paymentRow(t(), record.sync.payment_id);
        const res = await finishCheckout(t(), record);
        expect(res.status).toBe(409);
        expect(expectWpError(res.body, 'checkout_contract_mismatch', 409).message).toContain(field);
        expect(await paymentRow(t(), record.sync.payment_id)).toEqual(before);
        expect(await logEvents(t(), record.sync.payment_id)).toContain('contract_mismatch');
      });

      it('refuses an intent_id other than the stored one', async () => {
        const record = await createRecord(t(), form);
        const { body } = await createIntent(t(), record);
        const other = await createRecord(t(), form);
        const otherIntent = await createIntent(t(), other);
        bed.fake.resources.setIntentStatus(body.intent_id, 'succeeded');
        bed.fake.resources.setIntentStatus(otherIntent.body.intent_id, 'succeeded');
        const res = await finishCheckout(t(), record, { intent_id: otherIntent.body.intent_id });
        expect(res.status).toBe(409);
        expectWpError(res.body, 'checkout_contract_mismatch', 409);
        expect(await paymentRow(t(), record.sync.payment_id)).toMatchObject({ status: 'pending' });
      });
    });

    describe('free-plan fee: exactly 2 %, half up, in minor units', () => {
      const cases: Array<[string, number, number]> = [
        ['USD', 1999, 40],
        ['USD', 1025, 21],
        ['USD', 50, 1],
        ['USD', 24, 0],
        ['JPY', 1234, 25],
        ['JPY', 25, 1],
        ['KWD', 1250, 25],
        ['EUR', 333, 7],
      ];
      it.each(cases)('%s %i → application_fee_amount %i', async (currency, amount, fee) => {
        expect(freePlanFeeAmount(amount)).toBe(fee);
        const feeForm = await createPaymentForm(t(), { plans: [{ title: 'Fee', prices: [{ amount, currency, frequency: 'one-time' }] }] });
        const record = await createRecord(t(), feeForm);
        bed.fake.clearRequests();
        const res = await createIntent(t(), record);
        expect(res.status).toBe(200);
        const [create] = piCreates();
        expect(create.body).toMatchObject({ amount: String(amount), currency: currency.toLowerCase(), application_fee_amount: String(fee) });
        expect(await paymentRow(t(), record.sync.payment_id)).toMatchObject({ application_fee_amount: fee });
      });
    });

    it('creates a subscription after its setup intent succeeded, with application_fee_percent 2', async () => {
      // Plan 1 / price 1 of the fixture form: 9.99 EUR monthly.
      const record = await createRecord(t(), form, { plan_index: 1, price_index: 1 });
      const id = record.sync.payment_id;
      bed.fake.clearRequests();
      const res = await createIntent(t(), record);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ intent_type: 'setup_intent', intent_id: expect.stringMatching(/^seti_/), requires_action: false });
      const [setup] = bed.fake.requestsTo('POST', '/v1/setup_intents');
      expect(setup.body).toMatchObject({ usage: 'off_session', customer: expect.stringMatching(/^cus_/), metadata: { checkout_payment_id: String(id), checkout_purpose: 'subscription' } });
      expect(setup.idempotencyKey).toMatch(new RegExp(`^checkout-${installationId()}-seti-${id}-subscription-`));
      const [price] = bed.fake.requestsTo('POST', '/v1/prices');
      expect(price.body).toMatchObject({ unit_amount: '999', currency: 'eur', recurring: { interval: 'month', interval_count: '1' } });
      expect(bed.fake.requestsTo('POST', '/v1/products')).toHaveLength(1);
      expect(piCreates()).toHaveLength(0);

      // Before the payer confirmed: still pending, nothing created.
      expect((await finishCheckout(t(), record)).body).toEqual({ status: 'pending', payment_id: id, requires_action: true });
      await (await gatewayClient(t())).setupIntents.confirm(res.body.intent_id, { payment_method: 'pm_card_visa' });
      const done = await finishCheckout(t(), record, { intent_id: res.body.intent_id });
      expect(done.status).toBe(200);
      expect(done.body).toEqual({ status: 'completed', payment_id: id, requires_action: false });

      const [subscription] = bed.fake.requestsTo('POST', '/v1/subscriptions');
      expect(subscription.idempotencyKey).toBe(`checkout-${installationId()}-sub-${id}`);
      expect(subscription.body).toMatchObject({
        customer: setup.body.customer,
        default_payment_method: 'pm_card_visa',
        application_fee_percent: '2',
        items: [{ price: bed.fake.resources.list('price').at(-1)!.id }],
        metadata: { checkout_payment_id: String(id) },
      });
      const stored = await paymentRow(t(), id);
      expect(stored).toMatchObject({ status: 'completed', subscription_status: 'active', provider_subscription_ref: expect.stringMatching(/^sub_/), application_fee_amount: 20 });

      // Repeat: no second subscription.
      expect((await finishCheckout(t(), record)).body.status).toBe('completed');
      expect(bed.fake.requestsTo('POST', '/v1/subscriptions')).toHaveLength(1);
    });

    it('leaves a subscription whose first invoice is not paid yet processing', async () => {
      bed.fake.resources.outcomes.set('pm_card_slow', 'processing');
      const record = await createRecord(t(), form, { plan_index: 1, price_index: 1, email_address: 'slow@example.test' });
      const { body } = await createIntent(t(), record);
      bed.fake.resources.setIntentStatus(body.intent_id, 'succeeded');
      bed.fake.resources.get(body.intent_id)!.payment_method = 'pm_card_slow';
      const res = await finishCheckout(t(), record);
      expect(res.body).toEqual({ status: 'processing', payment_id: record.sync.payment_id, requires_action: false });
      expect(await paymentRow(t(), record.sync.payment_id)).toMatchObject({ status: 'processing', subscription_status: 'incomplete' });
    });

    it('charges a one-time price and saves the method with save_payment_method (payment intent with setup_future_usage)', async () => {
      const record = await createRecord(t(), form, { email_address: 'saver@example.test' });
      bed.fake.clearRequests();
      const res = await createIntent(t(), record, { save_payment_method: true });
      expect(res.status).toBe(200);
      expect(res.body.intent_type).toBe('payment_intent');
      expect(piCreates()).toHaveLength(1);
      expect(piCreates()[0].body).toMatchObject({ amount: String(record.sync.amount), setup_future_usage: 'off_session' });
      expect(bed.fake.requestsTo('POST', '/v1/setup_intents')).toHaveLength(0);
      expect(bed.fake.requestsTo('POST', '/v1/prices')).toHaveLength(0);

      // Asking again without saving is a different request: a new intent, not the saving one.
      const plain = await createIntent(t(), record);
      expect(plain.body.intent_id).not.toBe(res.body.intent_id);
      const saving = await createIntent(t(), record, { save_payment_method: true });
      await (await gatewayClient(t())).paymentIntents.confirm(saving.body.intent_id, { payment_method: 'pm_card_visa' });
      expect((await finishCheckout(t(), record)).body).toEqual({ status: 'completed', payment_id: record.sync.payment_id, requires_action: false });
      expect(bed.fake.requestsTo('POST', '/v1/subscriptions')).toHaveLength(0);
      expect(await paymentRow(t(), record.sync.payment_id)).toMatchObject({ status: 'completed', amount_received: record.sync.amount, provider_subscription_ref: null });
    });

    it("stores the brand and last four digits of the card that paid (the intent's charge, expanded) and shows them in the admin detail", async () => {
      const record = await createRecord(t(), form, { email_address: 'card@example.test' });
      const id = record.sync.payment_id;
      const intent = await createIntent(t(), record);
      await (await gatewayClient(t())).paymentIntents.confirm(intent.body.intent_id, { payment_method: 'pm_card_mastercard' });
      bed.fake.clearRequests();
      expect((await finishCheckout(t(), record)).body).toMatchObject({ status: 'completed' });
      // One read of the intent, its charge expanded: no second call for the card.
      const reads = bed.fake.requestsTo('GET', `/v1/payment_intents/${intent.body.intent_id}`);
      expect(reads).toHaveLength(1);
      expect(reads[0].query).toMatchObject({ expand: ['latest_charge'] });
      expect(await paymentRow(t(), id)).toMatchObject({ status: 'completed', card_brand: 'mastercard', card_last4: '4444' });
      const detail = await request(t().http).get(`${t().base}/administration/payments/${id}`).set('Authorization', t().admin.auth);
      expect(detail.body.card).toEqual({ brand: 'mastercard', last4: '4444' });
      // Never more of the number than its last four digits.
      expect(JSON.stringify(detail.body)).not.toMatch(/fakeFingerprint|exp_year/);
    });

    it('stores no card for an intent that is not paid, nor for one paid otherwise than by card', async () => {
      const record = await createRecord(t(), form, { email_address: 'nocard@example.test' });
      const intent = await createIntent(t(), record);
      // Paid (in the fake) without a payment method: the charge names no card.
      bed.fake.resources.setIntentStatus(intent.body.intent_id, 'succeeded');
      expect((await finishCheckout(t(), record)).body).toMatchObject({ status: 'completed' });
      expect(await paymentRow(t(), record.sync.payment_id)).toMatchObject({ status: 'completed', card_brand: null, card_last4: null });
      const detail = await request(t().http).get(`${t().base}/administration/payments/${record.sync.payment_id}`).set('Authorization', t().admin.auth);
      expect(detail.body.card).toBeNull();
    });

    it('cancels a new intent and answers 409 when the record completed while the intent was being created', async () => {
      const record = await createRecord(t(), form, { email_address: 'racer@example.test' });
      bed.fake.clearRequests();
      bed.fake.latencyMs = 150;
      let res;
      try {
        // .then() sends the request now (supertest waits for it otherwise).
        const pending = createIntent(t(), record).then((answer) => answer);
        // Meanwhile a webhook for an earlier payment attempt completes the record.
        await new Promise((resolve) => setTimeout(resolve, 50));
        await t().app.get(PaymentLedgerService).transition(record.sync.payment_id, 'completed', { source: 'test' });
        res = await pending;
      } finally {
        bed.fake.latencyMs = 0;
      }
      expect(res.status).toBe(409);
      expectWpError(res.body, 'checkout_invalid_state', 409);
      expect(piCreates()).toHaveLength(1);
      const intents = bed.fake.resources.list('payment_intent').filter((intent) => (intent.metadata as Record<string, string>).checkout_payment_id === String(record.sync.payment_id));
      expect(intents).toEqual([expect.objectContaining({ status: 'canceled' })]);
      expect(await paymentRow(t(), record.sync.payment_id)).toMatchObject({ status: 'completed', provider_payment_ref: null });
    });

    it('refuses to change the amount (409) while the record\'s intent is paid at the gateway, before the webhook arrives', async () => {
      const record = await createRecord(t(), form, { plan_index: 1, price_index: 0, amount: 5000, email_address: 'underway@example.test' });
      const intent = await createIntent(t(), record);
      await (await gatewayClient(t())).paymentIntents.confirm(intent.body.intent_id, { payment_method: 'pm_card_visa' });
      const change = await request(t().http)
        .post(`${t().base}/payment/sync-details`)
        .send({ ...syncBodyOf(record), plan_index: 1, price_index: 0, amount: 100 });
      expect(change.status).toBe(409);
      expectWpError(change.body, 'checkout_invalid_state', 409);
      expect(await paymentRow(t(), record.sync.payment_id)).toMatchObject({ status: 'pending', amount: 5000, provider_payment_ref: intent.body.intent_id });
      expect(await logEvents(t(), record.sync.payment_id)).toContain('update_refused');
      // The payer's details can change again once nothing is paid: an open intent does not block.
      const open = await createRecord(t(), form, { plan_index: 1, price_index: 0, amount: 5000, email_address: 'open@example.test' });
      await createIntent(t(), open);
      const changed = await request(t().http).post(`${t().base}/payment/sync-details`).send({ ...syncBodyOf(open), plan_index: 1, price_index: 0, amount: 100 });
      expect(changed.status).toBe(200);
      expect(changed.body.amount).toBe(100);
    });

    it('never stores an intent made for an amount the record no longer asks for (sync-details raced it): 409, intent canceled', async () => {
      const record = await createRecord(t(), form, { plan_index: 1, price_index: 0, amount: 5000, email_address: 'amount-race@example.test' });
      bed.fake.clearRequests();
      bed.fake.latencyMs = 150;
      let res;
      try {
        const pending = createIntent(t(), record).then((answer) => answer);
        await new Promise((resolve) => setTimeout(resolve, 50));
        const changed = await request(t().http).post(`${t().base}/payment/sync-details`).send({ ...syncBodyOf(record), plan_index: 1, price_index: 0, amount: 100 });
        expect(changed.status).toBe(200);
        res = await pending;
      } finally {
        bed.fake.latencyMs = 0;
      }
      expect(res.status).toBe(409);
      expectWpError(res.body, 'checkout_invalid_state', 409);
      const intents = bed.fake.resources.list('payment_intent').filter((intent) => (intent.metadata as Record<string, string>).checkout_payment_id === String(record.sync.payment_id));
      expect(intents).toEqual([expect.objectContaining({ amount: 5000, status: 'canceled' })]);
      expect(await paymentRow(t(), record.sync.payment_id)).toMatchObject({ amount: 100, provider_payment_ref: null });
    });

    it('creates one customer, product and price for concurrent intent calls', async () => {
      const email = 'concurrent@example.test';
      const concurrentForm = await createPaymentForm(t(), { plans: [{ title: 'Club', prices: [{ amount: 1500, currency: 'USD', frequency: 'y_1' }] }] });
      const records = await Promise.all(Array.from({ length: 4 }, () => createRecord(t(), concurrentForm, { email_address: email })));
      const customersBefore = (await tableRows(t(), 'customers')).length;
      bed.fake.clearRequests();
      bed.fake.latencyMs = 30;
      try {
        // Each record asked twice at once (a double click), all records at the same time.
        const answers = await Promise.all([...records, ...records].map((record) => createIntent(t(), record)));
        expect(answers.map((answer) => answer.status)).toEqual(answers.map(() => 200));
        // Both clicks of a record got the same setup intent; the records got different ones.
        records.forEach((_, index) => expect(answers[index + records.length].body.intent_id).toBe(answers[index].body.intent_id));
        expect(new Set(answers.map((answer) => answer.body.intent_id)).size).toBe(records.length);
      } finally {
        bed.fake.latencyMs = 0;
      }
      const created = (path: string) => bed.fake.requestsTo('POST', path).filter((request) => request.status === 200 && !request.replayed);
      expect(created('/v1/customers')).toHaveLength(1);
      expect(created('/v1/products')).toHaveLength(1);
      expect(created('/v1/prices')).toHaveLength(1);
      expect(created('/v1/setup_intents')).toHaveLength(4);
      expect(bed.fake.resources.list('customer').filter((customer) => customer.email === email)).toHaveLength(1);
      expect((await tableRows(t(), 'customers')).length).toBe(customersBefore + 1);
      expect((await tableRows(t(), 'products')).filter((row) => Number(row.form_id) === concurrentForm.id)).toHaveLength(1);
      expect((await tableRows(t(), 'prices')).filter((row) => Number(row.form_id) === concurrentForm.id)).toEqual([
        expect.objectContaining({ amount: 1500, currency: 'USD', frequency: 'y_1', provider_price_id: bed.fake.resources.list('price').at(-1)!.id }),
      ]);
    });

    it('refuses bank debit on the free plan before any gateway call', async () => {
      const record = await createRecord(t(), form, { payment_method: 'sepa' });
      bed.fake.clearRequests();
      const res = await createIntent(t(), record);
      expect(res.status).toBe(400);
      expect(expectWpError(res.body, 'rest_invalid_param', 400).data.params).toEqual({ payment_method: expect.stringContaining('Pro plan') });
      expect(bed.fake.requests).toHaveLength(0);
    });

    it('answers 502 checkout_gateway_error on a gateway failure and leaves the record unchanged', async () => {
      const record = await createRecord(t(), form, { email_address: 'failing@example.test' });
      const before = await paymentRow(t(), record.sync.payment_id);
      bed.fake.fail({ method: 'POST', path: '/v1/payment_intents', status: 400, error: { message: 'secret provider text' } });
      const res = await createIntent(t(), record);
      expect(res.status).toBe(502);
      expectWpError(res.body, 'checkout_gateway_error', 502);
      expect(JSON.stringify(res.body)).not.toContain('secret provider text');
      expect(await paymentRow(t(), record.sync.payment_id)).toEqual(before);

      // And on checkout: the intent cannot be read back.
      const ok = await createIntent(t(), record);
      const stored = await paymentRow(t(), record.sync.payment_id);
      bed.fake.fail({ method: 'GET', path: `/v1/payment_intents/${ok.body.intent_id}`, status: 404 });
      const checkout = await finishCheckout(t(), record);
      expect(checkout.status).toBe(502);
      expect(await paymentRow(t(), record.sync.payment_id)).toEqual(stored);
    });
  });
});

describe('two installations on one gateway account (staging and production)', () => {
  let fake: FakeGatewayA;
  let first: TestApp;
  let second: TestApp;
  const env = (fakeUrl: string) => ({ CHECKOUT_PROXY_URL: fakeUrl, GATEWAY_A_API_BASE: fakeUrl, ADMIN_URL: TEST_ADMIN_URL });

  beforeAll(async () => {
    fake = await startFakeGatewayA();
    first = await startTestApp(env(fake.url));
    await connectThroughProxy({ t: first, fake, close: async () => undefined }, 'test');
    // The second site is connected with the very same account keys.
    const options = first.app.get(OptionsService);
    const credentials = {
      user_id: await options.get<string>(gatewayAOption.credential('test', 'user_id'), ''),
      public_key: await options.get<string>(gatewayAOption.credential('test', 'public_key'), ''),
      secret_key: (await options.getSecret(gatewayAOption.credential('test', 'secret_key')))!,
    };
    second = await startTestApp({ ...env(fake.url), DATABASE_URL: await peerDatabaseUrl() });
    const landing = await followCallback(second, callbackPath(second, { state: await issueState(second, 'test'), ...credentials }));
    expect(landing.searchParams.get('gateway_a_connected')).toBe('test');
  });
  afterAll(async () => {
    await second?.close();
    await first?.close();
    await fake?.stop();
  });

  it("never hands one site the other's paid intent, although their payment ids collide", async () => {
    expect(installationIdOf(first)).not.toBe(installationIdOf(second));
    const paid = await createRecord(first, await createPaymentForm(first));
    const other = await createRecord(second, await createPaymentForm(second));
    expect(other.sync.payment_id).toBe(paid.sync.payment_id);

    const paidIntent = await createIntent(first, paid);
    await (await gatewayClient(first)).paymentIntents.confirm(paidIntent.body.intent_id, { payment_method: 'pm_card_visa' });
    expect((await finishCheckout(first, paid)).body).toMatchObject({ status: 'completed' });

    const otherIntent = await createIntent(second, other);
    expect(otherIntent.status).toBe(200);
    expect(otherIntent.body.intent_id).not.toBe(paidIntent.body.intent_id);
    expect((await finishCheckout(second, other)).body).toEqual({ status: 'pending', payment_id: other.sync.payment_id, requires_action: true });
    expect(await paymentRow(second, other.sync.payment_id)).toMatchObject({ status: 'pending', amount_received: null });
    expect(fake.resources.get(otherIntent.body.intent_id)!.metadata).toMatchObject({ checkout_installation_id: installationIdOf(second) });
  });
});

describe('gateway A subscriptions after their subscription exists at the gateway', () => {
  let bed: GatewayATestBed;
  let t: TestApp;
  let secret: string;
  let eventCounter = 0;

  beforeAll(async () => {
    bed = await startGatewayATestBed({ RATE_LIMIT_NEW_PAYMENT: '10000', RATE_LIMIT_PUBLIC_PAYMENT: '10000' });
    t = bed.t;
    const landing = await connectThroughProxy(bed, 'test');
    expect(landing.searchParams.get('gateway_a_webhook')).toBe('verified');
    await t.app.get(GatewayStateService).setActiveMethods('gateway_a', ['ccard', 'sepa']);
    secret = (await t.app.get(GatewayAContractService).getSigningSecret('test'))!;
  });
  afterAll(() => bed.close());

  const deliver = (type: string, object: Record<string, unknown>) => {
    const { body, signature } = signedEvent(type, object, secret, { id: `evt_review_${++eventCounter}_${Date.now()}` });
    return request(t.http).post(`${t.base}/webhook/gateway-a-callback/test`).set('Content-Type', 'application/json').set('Gateway-A-Signature', signature).send(body);
  };
  const fakeObject = (id: string) => ({ ...bed.fake.resources.get(id)! }) as Record<string, unknown>;

  describe('a subscription record after its subscription exists at the gateway', () => {
    let form: PaymentForm;
    beforeAll(async () => {
      form = await createPaymentForm(t, {
        plans: [
          { title: 'Monthly', prices: [{ amount: 999, currency: 'EUR', frequency: 'm_1' }] },
          { title: 'Yearly', prices: [{ amount: 9999, currency: 'EUR', frequency: 'y_1' }] },
        ],
      });
    });

    it('cannot be switched to another price by sync-details once its first invoice failed (the subscription keeps charging the old price)', async () => {
      const record = await createRecord(t, form, { plan_index: 0 });
      const id = record.sync.payment_id;
      const created = await createIntent(t, record);
      expect(created.status).toBe(200);
      const setupId = created.body.intent_id as string;
      const client = await gatewayClient(t);
      await client.setupIntents.confirm(setupId, { payment_method: 'pm_card_visa' });
      expect((await deliver('setup_intent.succeeded', fakeObject(setupId))).body.outcome).toBe('processed');
      const subscriptionRef = (await paymentRow(t, id)).provider_subscription_ref as string;
      expect(subscriptionRef).toMatch(/^sub_/);
      const firstInvoice = fakeObject(fakeObject(subscriptionRef).latest_invoice as string);

      // The first charge fails: the record fails (a retryable status for sync-details).
      await deliver('invoice.payment_failed', { ...firstInvoice, status: 'open', amount_paid: 0 });
      expect(await paymentRow(t, id)).toMatchObject({ status: 'failed' });

      // The payer now claims the yearly plan for the same record.
      const change = await request(t.http)
        .post(`${t.base}/payment/sync-details`)
        .send({ form_id: form.id, payment_gateway: 'gateway_a', payment_method: 'ccard', plan_index: 1, payment_id: id, payment_secret: record.sync.payment_secret });
      expect(change.status).toBe(409);
      expectWpError(change.body, 'checkout_invalid_state', 409);

      // The monthly invoice is paid later: the record completes as what it is, the monthly price.
      await deliver('invoice.paid', firstInvoice);
      const after = await paymentRow(t, id);
      expect(after).toMatchObject({ status: 'completed', frequency: 'm_1', provider_subscription_ref: subscriptionRef });
      expect(Number(after.amount)).toBe(999);
      expect(Number(after.plan_index)).toBe(0);
    });
  });
});
