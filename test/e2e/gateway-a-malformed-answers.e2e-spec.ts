import request from 'supertest';
import type { PaymentForm } from '../../src/modules/forms/index.js';
import { GATEWAY_A_WEBHOOK_EVENTS, GatewayAContractService, GatewayAWebhookUpgradeTask, gatewayAOption } from '../../src/modules/gateway-a/index.js';
import { GatewayRegistry, GatewayStateService } from '../../src/modules/gateways/index.js';
import { PaymentLedgerService } from '../../src/modules/payments/index.js';
import { OptionsService } from '../../src/modules/settings/index.js';
import { signedEvent } from '../fakes/gateway-a/index.js';
import { callbackPath, connectThroughProxy, followCallback, type GatewayATestBed, issueState, startGatewayATestBed } from '../support/gateway-a.js';
import { createIntent, createRecord, finishCheckout, gatewayClient, syncBodyOf, tableRows } from '../support/gateway-a-checkout.js';
import { expectWpError } from '../support/http.js';
import { createPaymentForm } from '../support/payment-fixtures.js';
import { paymentRow } from '../support/app-state.js';

/**
 * Every gateway-A call site against answers the `stripe` SDK does not raise on: a 5xx answering
 * `{}` or `{"message": …}`, and a 200 answering `{}`. The SDK hands those on as the object asked
 * for; the service must treat them as gateway failures: a payer or an admin gets 502
 * `checkout_gateway_error`, nothing that claims success is written, the payment log (or the task's
 * own record) names the malformed answer, and background work changes no state.
 */
type Fault = [what: string, status: number, body: object];
const FAULTS: Fault[] = [
  ['a 502 answering {}', 502, {}],
  ['a 500 answering {"message": …}', 500, { message: 'upstream request failed' }],
  ['a 200 answering {}', 200, {}],
];

describe('gateway A: malformed answers at every call site', () => {
  let bed: GatewayATestBed;
  let form: PaymentForm;
  const t = () => bed.t;
  let emailCounter = 0;
  const email = () => `malformed-${++emailCounter}@example.test`;

  beforeAll(async () => {
    bed = await startGatewayATestBed({ RATE_LIMIT_NEW_PAYMENT: '10000', RATE_LIMIT_PUBLIC_PAYMENT: '10000' });
    const landing = await connectThroughProxy(bed, 'test');
    expect(landing.searchParams.get('gateway_a_webhook')).toBe('verified');
    await t().app.get(GatewayStateService).setActiveMethods('gateway_a', ['ccard', 'sepa']);
    form = await createPaymentForm(t());
  });
  afterAll(() => bed.close());
  afterEach(() => bed.fake.clearFailures());

  /** The next answers (first try and the SDK's retries) of one operation are `fault`. */
  const inject = (method: string, path: string | RegExp, [, status, body]: Fault) => bed.fake.fail({ method, path, status, body, times: 3 });
  const subscriptionForm = () => createPaymentForm(t(), { plans: [{ title: 'Monthly', prices: [{ amount: 999, currency: 'EUR', frequency: 'm_1' }] }] });

  /** The payment log's lines of `event` for a payment. */
  const logLines = async (paymentId: number, event: string) => {
    const rows: Array<{ level: string; message: string; context: string }> = await t().dataSource.query(
      `SELECT level, message, context FROM ${t().config.tablePrefix}checkout_log WHERE payment_id = ? AND event = ? ORDER BY id`,
      [paymentId, event],
    );
    return rows.map((row) => ({ ...row, context: JSON.parse(row.context) as Record<string, unknown> }));
  };
  /** The payment's log has one `event` line naming the malformed answer to `operation` and its status. */
  const expectLoggedMalformed = async (paymentId: number, event: string, operation: string, [, status]: Fault) => {
    const lines = await logLines(paymentId, event);
    expect(lines).toHaveLength(1);
    expect(lines[0].level).toBe('error');
    expect(lines[0].message).toContain(`malformed answer to ${operation} (HTTP ${status})`);
    expect(lines[0].message).not.toContain('upstream request failed');
    expect(lines[0].context).toMatchObject({ kind: 'malformed_answer', operation, http_status: status });
  };
  const expect502 = (res: request.Response) => {
    expect(res.status).toBe(502);
    expectWpError(res.body, 'checkout_gateway_error', 502);
    expect(JSON.stringify(res.body)).not.toContain('client_secret');
  };

  describe('POST /gateway-a/payment-intent-or-setup (the payer)', () => {
    it.each(FAULTS)('customers.create: %s is a 502; no customer is cached and the record holds nothing', async (...fault) => {
      const payer = email();
      const record = await createRecord(t(), form, { email_address: payer });
      inject('POST', '/v1/customers', fault);
      expect502(await createIntent(t(), record));
      expect(await paymentRow(t(), record.sync.payment_id)).toMatchObject({ status: 'pending', provider_payment_ref: null, provider_customer_ref: null });
      expect((await tableRows(t(), 'customers')).map((row) => row.email_address)).not.toContain(payer);
      expect(bed.fake.requestsTo('POST', '/v1/payment_intents').filter((r) => r.body.metadata && (r.body.metadata as Record<string, string>).checkout_payment_id === String(record.sync.payment_id))).toHaveLength(0);
      await expectLoggedMalformed(record.sync.payment_id, 'intent_failed', 'customers.create', fault);
    });

    it.each(FAULTS)('paymentIntents.create: %s is a 502, never a created intent; the record holds no intent', async (...fault) => {
      const record = await createRecord(t(), form, { email_address: email() });
      inject('POST', '/v1/payment_intents', fault);
      expect502(await createIntent(t(), record));
      expect(await paymentRow(t(), record.sync.payment_id)).toMatchObject({ status: 'pending', provider_payment_ref: null, application_fee_amount: null });
      await expectLoggedMalformed(record.sync.payment_id, 'intent_failed', 'paymentIntents.create', fault);
      // Once the gateway answers properly, the same request creates the intent.
      bed.fake.clearFailures();
      const retry = await createIntent(t(), record);
      expect(retry.status).toBe(200);
      expect(retry.body).toMatchObject({ intent_type: 'payment_intent', client_secret: expect.stringMatching(new RegExp(`^${retry.body.intent_id}_secret_`)) });
    });

    it.each(FAULTS)('paymentIntents.retrieve of the stored intent (a repeat call): %s is a 502; the record keeps its intent', async (...fault) => {
      const record = await createRecord(t(), form, { email_address: email() });
      const first = await createIntent(t(), record);
      expect(first.status).toBe(200);
      inject('GET', `/v1/payment_intents/${first.body.intent_id}`, fault);
      expect502(await createIntent(t(), record));
      expect(await paymentRow(t(), record.sync.payment_id)).toMatchObject({ status: 'pending', provider_payment_ref: first.body.intent_id });
      expect(bed.fake.requestsTo('POST', '/v1/payment_intents').filter((r) => (r.body.metadata as Record<string, string>)?.checkout_payment_id === String(record.sync.payment_id))).toHaveLength(1);
      await expectLoggedMalformed(record.sync.payment_id, 'intent_failed', 'paymentIntents.retrieve', fault);
    });

    describe('a subscription record', () => {
      it.each(FAULTS)('products.create: %s is a 502; no product is cached', async (...fault) => {
        const subscriptions = await subscriptionForm();
        const record = await createRecord(t(), subscriptions, { email_address: email() });
        inject('POST', '/v1/products', fault);
        expect502(await createIntent(t(), record));
        expect((await tableRows(t(), 'products')).filter((row) => Number(row.form_id) === subscriptions.id)).toEqual([]);
        expect(await paymentRow(t(), record.sync.payment_id)).toMatchObject({ status: 'pending', provider_payment_ref: null });
        await expectLoggedMalformed(record.sync.payment_id, 'intent_failed', 'products.create', fault);
      });

      it.each(FAULTS)('prices.create: %s is a 502; no price is cached', async (...fault) => {
        const subscriptions = await subscriptionForm();
        const record = await createRecord(t(), subscriptions, { email_address: email() });
        inject('POST', '/v1/prices', fault);
        expect502(await createIntent(t(), record));
        expect((await tableRows(t(), 'prices')).filter((row) => Number(row.form_id) === subscriptions.id)).toEqual([]);
        expect(await paymentRow(t(), record.sync.payment_id)).toMatchObject({ status: 'pending', provider_payment_ref: null });
        await expectLoggedMalformed(record.sync.payment_id, 'intent_failed', 'prices.create', fault);
      });

      it.each(FAULTS)('setupIntents.create: %s is a 502, never an empty setup intent; the record holds nothing', async (...fault) => {
        const record = await createRecord(t(), await subscriptionForm(), { email_address: email() });
        inject('POST', '/v1/setup_intents', fault);
        expect502(await createIntent(t(), record));
        expect(await paymentRow(t(), record.sync.payment_id)).toMatchObject({ status: 'pending', provider_payment_ref: null, provider_customer_ref: null });
        await expectLoggedMalformed(record.sync.payment_id, 'intent_failed', 'setupIntents.create', fault);
      });

      it.each(FAULTS)('setupIntents.retrieve of the stored setup (a repeat call): %s is a 502', async (...fault) => {
        const record = await createRecord(t(), await subscriptionForm(), { email_address: email() });
        const first = await createIntent(t(), record);
        expect(first.body.intent_type).toBe('setup_intent');
        inject('GET', `/v1/setup_intents/${first.body.intent_id}`, fault);
        expect502(await createIntent(t(), record));
        expect(await paymentRow(t(), record.sync.payment_id)).toMatchObject({ provider_payment_ref: first.body.intent_id });
        await expectLoggedMalformed(record.sync.payment_id, 'intent_failed', 'setupIntents.retrieve', fault);
      });
    });

    it.each(FAULTS)('paymentIntents.cancel of a replaced intent (best effort): %s leaves the new intent in place and logs a warning', async (...fault) => {
      const record = await createRecord(t(), form, { email_address: email() });
      const first = await createIntent(t(), record);
      inject('POST', `/v1/payment_intents/${first.body.intent_id}/cancel`, fault);
      // Saving the method is another request: a new intent replaces the open one.
      const second = await createIntent(t(), record, { save_payment_method: true });
      expect(second.status).toBe(200);
      expect(second.body.intent_id).not.toBe(first.body.intent_id);
      expect(await paymentRow(t(), record.sync.payment_id)).toMatchObject({ provider_payment_ref: second.body.intent_id });
      const [line] = await logLines(record.sync.payment_id, 'intent_retire_failed');
      expect(line).toMatchObject({ level: 'warning', message: expect.stringContaining(`malformed answer to paymentIntents.cancel (HTTP ${fault[1]})`) });
    });
  });

  describe('POST /payment/sync-details (the payer changes a record that holds an intent)', () => {
    it.each(FAULTS)('paymentIntents.retrieve: %s is a 502 and the record is not changed', async (...fault) => {
      const record = await createRecord(t(), form, { email_address: email() });
      const intent = await createIntent(t(), record);
      inject('GET', `/v1/payment_intents/${intent.body.intent_id}`, fault);
      const res = await request(t().http)
        .post(`${t().base}/payment/sync-details`)
        .send({ ...syncBodyOf(record), email_address: 'changed@example.test' });
      expect502(res);
      expect(await paymentRow(t(), record.sync.payment_id)).toMatchObject({ email_address: expect.stringMatching(/^malformed-/), provider_payment_ref: intent.body.intent_id });
      await expectLoggedMalformed(record.sync.payment_id, 'intent_read_failed', 'paymentIntents.retrieve', fault);
    });
  });

  describe('POST /gateway-a/checkout (the payer)', () => {
    it.each(FAULTS)('paymentIntents.retrieve: %s is a 502; the record stays pending', async (...fault) => {
      const record = await createRecord(t(), form, { email_address: email() });
      const intent = await createIntent(t(), record);
      bed.fake.resources.setIntentStatus(intent.body.intent_id, 'succeeded');
      inject('GET', `/v1/payment_intents/${intent.body.intent_id}`, fault);
      expect502(await finishCheckout(t(), record));
      expect(await paymentRow(t(), record.sync.payment_id)).toMatchObject({ status: 'pending', amount_received: null, provider_capture_ref: null });
      await expectLoggedMalformed(record.sync.payment_id, 'checkout_failed', 'paymentIntents.retrieve', fault);
    });

    it.each(FAULTS)('setupIntents.retrieve: %s is a 502; no subscription is created', async (...fault) => {
      const record = await createRecord(t(), await subscriptionForm(), { email_address: email() });
      const setup = await createIntent(t(), record);
      await (await gatewayClient(t())).setupIntents.confirm(setup.body.intent_id, { payment_method: 'pm_card_visa' });
      inject('GET', `/v1/setup_intents/${setup.body.intent_id}`, fault);
      bed.fake.clearRequests();
      expect502(await finishCheckout(t(), record));
      expect(bed.fake.requestsTo('POST', '/v1/subscriptions')).toHaveLength(0);
      expect(await paymentRow(t(), record.sync.payment_id)).toMatchObject({ status: 'pending', provider_subscription_ref: null });
      await expectLoggedMalformed(record.sync.payment_id, 'checkout_failed', 'setupIntents.retrieve', fault);
    });

    it.each(FAULTS)('subscriptions.create: %s is a 502; no subscription id or status is stored', async (...fault) => {
      const record = await createRecord(t(), await subscriptionForm(), { email_address: email() });
      const setup = await createIntent(t(), record);
      await (await gatewayClient(t())).setupIntents.confirm(setup.body.intent_id, { payment_method: 'pm_card_visa' });
      inject('POST', '/v1/subscriptions', fault);
      expect502(await finishCheckout(t(), record));
      expect(await paymentRow(t(), record.sync.payment_id)).toMatchObject({ status: 'pending', provider_subscription_ref: null, subscription_status: null, application_fee_amount: null });
      await expectLoggedMalformed(record.sync.payment_id, 'subscription_failed', 'subscriptions.create', fault);
    });
  });

  describe('setup_intent.succeeded (the webhook creates the subscription)', () => {
    it.each(FAULTS)('setupIntents.retrieve: %s answers the delivery 502 (redelivered later); nothing is stored', async (...fault) => {
      const record = await createRecord(t(), await subscriptionForm(), { email_address: email() });
      const setup = await createIntent(t(), record);
      await (await gatewayClient(t())).setupIntents.confirm(setup.body.intent_id, { payment_method: 'pm_card_visa' });
      const secret = (await t().app.get(GatewayAContractService).getSigningSecret('test'))!;
      const object = bed.fake.resources.get(setup.body.intent_id)!;
      const { body, signature } = signedEvent('setup_intent.succeeded', object, secret, { id: `evt_malformed_${fault[1]}_${emailCounter}` });
      inject('GET', `/v1/setup_intents/${setup.body.intent_id}`, fault);
      const res = await request(t().http).post(`${t().base}/webhook/gateway-a-callback/test`).set('Content-Type', 'application/json').set('Gateway-A-Signature', signature).send(body);
      expect(res.status).toBe(502);
      expectWpError(res.body, 'checkout_gateway_error', 502);
      expect(await paymentRow(t(), record.sync.payment_id)).toMatchObject({ status: 'pending', provider_subscription_ref: null });
      await expectLoggedMalformed(record.sync.payment_id, 'subscription_failed', 'setupIntents.retrieve', fault);
    });
  });

  describe('POST /gateway-a/payment (section B admin charge)', () => {
    const charge = () => request(t().http).post(`${t().base}/gateway-a/payment`).set('Authorization', t().admin.auth).send({ amount: 7, currency: 'USD', source: 'pm_card_visa' });
    const lastPayment = async () => (await t().dataSource.query(`SELECT * FROM ${t().config.tablePrefix}checkout_payments ORDER BY id DESC LIMIT 1`))[0] as Record<string, unknown>;

    it.each(FAULTS)('paymentIntents.create: %s is a 502, never a success; the charge stays pending (outcome unknown)', async (...fault) => {
      inject('POST', '/v1/payment_intents', fault);
      expect502(await charge());
      const row = await lastPayment();
      expect(row).toMatchObject({ status: 'pending', provider_payment_ref: null, amount_received: null });
      await expectLoggedMalformed(Number(row.id), 'charge_failed', 'paymentIntents.create', fault);
    });

    it('a decline whose payment_intent is not this charge\'s intent is a refusal: 502, the record failed without a reference', async () => {
      bed.fake.fail({ method: 'POST', path: '/v1/payment_intents', status: 402, error: { type: 'card_error', code: 'card_declined', payment_intent: {} } });
      expect502(await charge());
      expect(await lastPayment()).toMatchObject({ status: 'failed', provider_payment_ref: null });
    });
  });

  describe('the reconciliation sweep (background: logged, no state change)', () => {
    const reconcile = (paymentId: number) => t().app.get(GatewayRegistry).get('gateway_a').reconciler!.reconcile(paymentId);

    it.each(FAULTS)('paymentIntents.retrieve: %s fails the reconciliation of the payment (502) and moves nothing', async (...fault) => {
      const record = await createRecord(t(), form, { email_address: email() });
      const intent = await createIntent(t(), record);
      bed.fake.resources.setIntentStatus(intent.body.intent_id, 'succeeded');
      inject('GET', `/v1/payment_intents/${intent.body.intent_id}`, fault);
      await expect(reconcile(record.sync.payment_id)).rejects.toMatchObject({ code: 'checkout_gateway_error', status: 502 });
      expect(await paymentRow(t(), record.sync.payment_id)).toMatchObject({ status: 'pending', amount_received: null });
      await expectLoggedMalformed(record.sync.payment_id, 'reconcile_failed', 'paymentIntents.retrieve', fault);
    });

    it.each(FAULTS)('subscriptions.retrieve: %s fails the reconciliation and moves nothing', async (...fault) => {
      const record = await createRecord(t(), await subscriptionForm(), { email_address: email() });
      const setup = await createIntent(t(), record);
      await (await gatewayClient(t())).setupIntents.confirm(setup.body.intent_id, { payment_method: 'pm_card_visa' });
      // The subscription was created (its id stored) but the first invoice's event never came.
      const subscriptionId = `sub_Malformed${fault[1]}x${emailCounter}`;
      await t().app.get(PaymentLedgerService).recordProviderDetails(record.sync.payment_id, { providerSubscriptionRef: subscriptionId, subscriptionStatus: 'incomplete' }, 'test');
      inject('GET', `/v1/subscriptions/${subscriptionId}`, fault);
      await expect(reconcile(record.sync.payment_id)).rejects.toMatchObject({ code: 'checkout_gateway_error', status: 502 });
      expect(await paymentRow(t(), record.sync.payment_id)).toMatchObject({ status: 'pending', amount_received: null, subscription_status: 'incomplete' });
      await expectLoggedMalformed(record.sync.payment_id, 'reconcile_failed', 'subscriptions.retrieve', fault);
    });
  });

  describe('doctor (background: a warning, never a pass)', () => {
    const diagnose = () => t().app.get(GatewayRegistry).get('gateway_a').diagnose!('test');

    it('passes both checks against a gateway that answers properly', async () => {
      expect((await diagnose()).map((check) => check.status)).toEqual(['ok', 'ok']);
    });

    it.each(FAULTS)('webhookEndpoints.list: %s is a warning on the credentials, not "the gateway accepts the keys"', async (...fault) => {
      inject('GET', '/v1/webhook_endpoints', fault);
      const checks = await diagnose();
      expect(checks).toEqual([expect.objectContaining({ check: 'gateway_a test credentials', status: 'warn', message: expect.stringContaining(`malformed answer to webhookEndpoints.list (HTTP ${fault[1]})`) })]);
    });

    it.each(FAULTS)('webhookEndpoints.retrieve: %s is a warning on the webhook (read again later), not a pass', async (...fault) => {
      inject('GET', /^\/v1\/webhook_endpoints\/we_/, fault);
      const checks = await diagnose();
      expect(checks[1]).toMatchObject({ check: 'gateway_a test webhook', status: 'warn', message: expect.stringContaining('malformed answer to webhookEndpoints.retrieve') });
    });
  });

  describe('the 1.5.3 webhook upgrade task (background: retried, the contract untouched)', () => {
    let task: GatewayAWebhookUpgradeTask;
    let contract: GatewayAContractService;
    let saved: unknown;

    beforeAll(async () => {
      task = t().app.get(GatewayAWebhookUpgradeTask);
      contract = t().app.get(GatewayAContractService);
      saved = await contract.getRecord('test');
    });
    afterEach(async () => {
      const options = t().app.get(OptionsService);
      await task.idle();
      await options.delete(gatewayAOption.webhookUpgrade());
      await options.set(gatewayAOption.webhook('test'), saved);
      bed.fake.resources.get((saved as { endpoint_id: string }).endpoint_id)!.enabled_events = [...GATEWAY_A_WEBHOOK_EVENTS];
    });

    /** The test mode's managed endpoint as release 1.5.2 left it: an older event list, not yet upgraded. */
    const legacyEndpoint = async () => {
      const record = (await contract.getRecord('test'))!;
      await t().app.get(OptionsService).set(gatewayAOption.webhook('test'), { ...record, events_version: '1.5.2' });
      const endpoint = bed.fake.resources.get(record.endpoint_id!)!;
      endpoint.enabled_events = ['payment_intent.succeeded', 'invoice.paid'];
      return { record: (await contract.getRecord('test'))!, endpointId: record.endpoint_id! };
    };
    const runAttempt = async () => {
      await t().app.get(OptionsService).set(gatewayAOption.webhookUpgrade(), {
        task: 'gateway_a_webhook_update_1_5_3',
        status: 'scheduled',
        attempts: 0,
        max_attempts: 5,
        next_attempt_at: new Date(0).toISOString(),
        last_error: null,
        modes: {},
        scheduled_at: new Date().toISOString(),
        started_at: null,
        finished_at: null,
      });
      await task.runDue();
      await task.idle();
      return (await task.progress())!;
    };

    it.each(FAULTS)('webhookEndpoints.retrieve: %s leaves the mode to a later attempt and the contract as it was', async (...fault) => {
      const { record, endpointId } = await legacyEndpoint();
      inject('GET', `/v1/webhook_endpoints/${endpointId}`, fault);
      bed.fake.clearRequests();
      const progress = await runAttempt();
      expect(progress).toMatchObject({ status: 'retrying', attempts: 1, modes: { test: 'error' }, last_error: expect.stringContaining('malformed answer to webhookEndpoints.retrieve') });
      expect(bed.fake.requestsTo('POST', `/v1/webhook_endpoints/${endpointId}`)).toHaveLength(0);
      expect(await contract.getRecord('test')).toEqual(record);
    });

    it.each(FAULTS)('webhookEndpoints.update: %s leaves the mode to a later attempt and the contract as it was', async (...fault) => {
      const { record, endpointId } = await legacyEndpoint();
      inject('POST', `/v1/webhook_endpoints/${endpointId}`, fault);
      const progress = await runAttempt();
      expect(progress).toMatchObject({ status: 'retrying', modes: { test: 'error' }, last_error: expect.stringContaining('malformed answer to webhookEndpoints.update') });
      expect(await contract.getRecord('test')).toEqual(record);
    });
  });

  describe('connect (live mode): a clear refusal, nothing stored', () => {
    const options = () => t().app.get(OptionsService);
    const liveCredentials = async () => ({
      user_id: await options().get(gatewayAOption.credential('live', 'user_id'), null),
      public_key: await options().get(gatewayAOption.credential('live', 'public_key'), null),
      secret_key: await options().getSecret(gatewayAOption.credential('live', 'secret_key')),
    });
    afterEach(() => t().app.get(GatewayRegistry).get('gateway_a').disconnect('live'));

    it.each(FAULTS)('the OAuth token exchange: %s refuses the connect (exchange_failed) and stores nothing', async (...fault) => {
      const grant = bed.fake.issueOAuthCode({ livemode: true });
      inject('POST', '/oauth/token', fault);
      const landing = await followCallback(t(), callbackPath(t(), { state: await issueState(t(), 'live'), code: grant.code }));
      expect(landing.searchParams.get('gateway_a_error')).toBe('exchange_failed');
      expect(await liveCredentials()).toEqual({ user_id: null, public_key: null, secret_key: null });
      expect(await t().app.get(GatewayAContractService).getRecord('live')).toBeNull();
    });

    it.each(FAULTS)('accounts.retrieve (own keys): %s is a 502 saying nothing was saved', async (...fault) => {
      inject('GET', '/v1/account', fault);
      const keys = { publishableKey: 'pk_live_malformedOwnKey01', secretKey: 'sk_live_malformedOwnKey01' };
      await expect(t().app.get(GatewayRegistry).get('gateway_a').keyConnect!.connectWithKeys('live', keys, 'test')).rejects.toMatchObject({
        code: 'checkout_gateway_error',
        status: 502,
        message: expect.stringContaining('nothing was saved'),
      });
      expect(await liveCredentials()).toEqual({ user_id: null, public_key: null, secret_key: null });
    });

    it.each(FAULTS)('webhookEndpoints.create: %s leaves the contract failed (checkout paused) with no endpoint id and no secret', async (...fault) => {
      inject('POST', '/v1/webhook_endpoints', fault);
      const landing = await connectThroughProxy(bed, 'live');
      expect(Object.fromEntries(landing.searchParams)).toMatchObject({ gateway_a_connected: 'live', gateway_a_webhook: 'failed' });
      const contract = t().app.get(GatewayAContractService);
      expect(await contract.getRecord('live')).toMatchObject({ status: 'failed', endpoint_id: null, last_error: expect.stringContaining('malformed answer to webhookEndpoints.create') });
      expect(await contract.getSigningSecret('live')).toBeNull();
      expect(await contract.isCheckoutAvailable('live')).toBe(false);
    });

    it.each(FAULTS)('webhookEndpoints.retrieve (the read-back): %s leaves the contract failed, checkout paused', async (...fault) => {
      inject('GET', /^\/v1\/webhook_endpoints\/we_/, fault);
      const landing = await connectThroughProxy(bed, 'live');
      expect(landing.searchParams.get('gateway_a_webhook')).toBe('failed');
      const contract = t().app.get(GatewayAContractService);
      expect(await contract.getRecord('live')).toMatchObject({ status: 'failed', verified_at: null, last_error: expect.stringContaining('malformed answer to webhookEndpoints.retrieve') });
      expect(await contract.isCheckoutAvailable('live')).toBe(false);
    });

    it.each(FAULTS)('disconnect (retiring the managed endpoint, best effort): %s deletes nothing at the gateway', async (...fault) => {
      expect((await connectThroughProxy(bed, 'live')).searchParams.get('gateway_a_webhook')).toBe('verified');
      const endpointId = (await t().app.get(GatewayAContractService).getRecord('live'))!.endpoint_id!;
      inject('GET', `/v1/webhook_endpoints/${endpointId}`, fault);
      bed.fake.clearRequests();
      await t().app.get(GatewayRegistry).get('gateway_a').disconnect('live');
      expect(bed.fake.requestsTo('DELETE', `/v1/webhook_endpoints/${endpointId}`)).toHaveLength(0);
      expect(bed.fake.resources.get(endpointId)).toBeDefined();
      expect(await liveCredentials()).toEqual({ user_id: null, public_key: null, secret_key: null });
    });
  });
});
