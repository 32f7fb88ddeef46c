import request from 'supertest';
import type { PaymentForm } from '../../src/modules/forms/index.js';
import { GatewayAClientFactory, GatewayAContractService, gatewayAOption } from '../../src/modules/gateway-a/index.js';
import { GatewayStateService } from '../../src/modules/gateways/index.js';
import { WebhookIntakeService } from '../../src/modules/webhooks/index.js';
import { WebhookEventRepository } from '../../src/modules/webhooks/webhook-event.repository.js';
import { type PaymentPatch, PaymentLedgerService, PaymentQueriesService, type PaymentStatus } from '../../src/modules/payments/index.js';
import { InstallationService, OptionsService } from '../../src/modules/settings/index.js';
import { signedEvent, signPayload } from '../fakes/gateway-a/index.js';
import { connectThroughProxy, type GatewayATestBed, startGatewayATestBed } from '../support/gateway-a.js';
import { createIntent, createRecord, finishCheckout, gatewayClient } from '../support/gateway-a-checkout.js';
import { expectWpError } from '../support/http.js';
import { statementsDuring } from '../support/statements.js';
import { createPaymentForm, type SyncAnswer } from '../support/payment-fixtures.js';
import type { TestApp } from '../support/test-app.js';

/** What a database driver throws when the server is gone (mapped to 503 `checkout_unavailable`). */
function connectionLost(): Error {
  return Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:3306'), { code: 'ECONNREFUSED' });
}

const now = () => Math.floor(Date.now() / 1000);

describe('POST /webhook/gateway-a-callback/{mode}', () => {
  let bed: GatewayATestBed;
  let t: TestApp;
  let form: PaymentForm;
  let payments: PaymentLedgerService;
  let secret: string;
  let table: { payments: string; log: string; events: string; states: string };
  let eventCounter = 0;

  beforeAll(async () => {
    bed = await startGatewayATestBed({ RATE_LIMIT_NEW_PAYMENT: '10000', RATE_LIMIT_PUBLIC_PAYMENT: '10000' });
    t = bed.t;
    // The real connect flow: credentials at the fake, a managed endpoint and its signing secret.
    const outcome = await connectThroughProxy(bed, 'test');
    expect(outcome.searchParams.get('gateway_a_webhook')).toBe('verified');
    const state = t.app.get(GatewayStateService);
    await state.setMode('gateway_a', 'test');
    await state.setActiveMethods('gateway_a', ['ccard', 'sepa']);
    secret = (await t.app.get(GatewayAContractService).getSigningSecret('test'))!;
    expect(secret).toMatch(/^whsec_/);
    payments = t.app.get(PaymentLedgerService);
    form = await createPaymentForm(t);
    const prefix = t.config.tablePrefix;
    table = {
      payments: `${prefix}checkout_payments`,
      log: `${prefix}checkout_log`,
      events: `${prefix}checkout_webhook_events`,
      states: `${prefix}checkout_webhook_subscription_states`,
    };
  });
  afterAll(() => bed.close());
  afterEach(() => jest.restoreAllMocks());

  const isTransactionStart = (sql: string) => /^(BEGIN|START TRANSACTION)/i.test(sql);
  const statements = <T>(work: () => Promise<T>) => statementsDuring(t.dataSource, work);
  const logCount = async (paymentId: number) =>
    Number((await t.dataSource.query(`SELECT COUNT(*) AS n FROM \`${table.log}\` WHERE payment_id = ?`, [paymentId]))[0].n);

  const url = (mode = 'test') => `${t.base}/webhook/gateway-a-callback/${mode}`;
  const post = (body: string, headers: Record<string, string>, mode = 'test') => {
    const req = request(t.http).post(url(mode)).set('Content-Type', 'application/json');
    for (const [name, value] of Object.entries(headers)) req.set(name, value);
    return req.send(body);
  };
  const nextEventId = () => `evt_test_${++eventCounter}_${Date.now()}`;
  /** Signs and delivers one event the way the gateway does. */
  const deliver = (type: string, object: Record<string, unknown>, options: { id?: string; created?: number; livemode?: boolean; mode?: string } = {}) => {
    const id = options.id ?? nextEventId();
    const { body, signature } = signedEvent(type, object, secret, { id, created: options.created, livemode: options.livemode });
    return post(body, { 'Gateway-A-Signature': signature }, options.mode).then((res) => Object.assign(res, { eventId: id }));
  };

  const sync = async (planIndex = 0, priceIndex = 0): Promise<SyncAnswer> => {
    const res = await request(t.http)
      .post(`${t.base}/payment/sync-details`)
      .send({ form_id: form.id, payment_gateway: 'gateway_a', payment_method: 'ccard', plan_index: planIndex, price_index: priceIndex, email_address: 'payer@example.test' });
    expect(res.status).toBe(201);
    return res.body as SyncAnswer;
  };
  /** A record in the given status with the given provider facts, moved there through PaymentLedgerService. */
  const paymentIn = async (status: PaymentStatus, patch: PaymentPatch = {}, price: [number, number] = [0, 0]) => {
    const { payment_id: id } = await sync(...price);
    if (Object.keys(patch).length > 0) await payments.recordProviderDetails(id, patch, 'test');
    const path: Record<PaymentStatus, PaymentStatus[]> = {
      pending: [],
      processing: ['processing'],
      completed: ['completed'],
      failed: ['failed'],
      canceled: ['canceled'],
    };
    for (const step of path[status]) await payments.transition(id, step, { source: 'test' });
    return id;
  };
  const row = async (id: number) => {
    const [found] = await t.dataSource.query(`SELECT * FROM ${table.payments} WHERE id = ?`, [id]);
    return found as Record<string, unknown>;
  };
  const logEvents = async (id: number) =>
    ((await t.dataSource.query(`SELECT event FROM ${table.log} WHERE payment_id = ? ORDER BY id`, [id])) as Array<{ event: string }>).map((entry) => entry.event);
  const storedEvent = (eventId: string) => t.app.get(WebhookEventRepository).find('gateway_a', eventId);
  const countEvents = async () => Number((await t.dataSource.query(`SELECT COUNT(*) AS n FROM ${table.events}`))[0].n);
  const snapshot = async () => ({
    payments: await t.dataSource.query(`SELECT * FROM ${table.payments} ORDER BY id`),
    log: await t.dataSource.query(`SELECT * FROM ${table.log} ORDER BY id`),
    events: await t.dataSource.query(`SELECT * FROM ${table.events} ORDER BY id`),
    states: await t.dataSource.query(`SELECT * FROM ${table.states} ORDER BY id`),
  });

  /** The metadata this installation writes on every gateway object it creates. */
  const ours = (fields: Record<string, string> = {}) => ({ checkout_installation_id: t.app.get(InstallationService).id(), ...fields });
  const intent = (id: string, paymentId: number | null, fields: Record<string, unknown> = {}) => ({
    id,
    object: 'payment_intent',
    amount: 1000,
    amount_received: 0,
    currency: 'usd',
    status: 'requires_payment_method',
    metadata: paymentId === null ? ours() : ours({ checkout_payment_id: String(paymentId) }),
    ...fields,
  });
  const setupIntent = (id: string, paymentId: number, fields: Record<string, unknown> = {}) => ({
    id,
    object: 'setup_intent',
    status: 'succeeded',
    metadata: ours({ checkout_payment_id: String(paymentId) }),
    ...fields,
  });
  const invoice = (id: string, subscription: string, fields: Record<string, unknown> = {}) => ({
    id,
    object: 'invoice',
    amount_due: 999,
    amount_paid: 999,
    currency: 'eur',
    billing_reason: 'subscription_cycle',
    parent: { type: 'subscription_details', subscription_details: { subscription, metadata: ours() } },
    status: 'paid',
    ...fields,
  });
  const subscriptionObject = (id: string, status: string, paymentId: number | null = null) => ({
    id,
    object: 'subscription',
    status,
    metadata: paymentId === null ? ours() : ours({ checkout_payment_id: String(paymentId) }),
  });

  describe('payment intents', () => {
    it('payment_intent.succeeded completes the record and records the amount received; the event is stored once', async () => {
      const id = await paymentIn('pending', { providerPaymentRef: 'pi_succeeded_1' });
      const res = await deliver('payment_intent.succeeded', intent('pi_succeeded_1', id, { status: 'succeeded', amount_received: 1000 }));
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ received: true, outcome: 'processed' });
      expect(await row(id)).toMatchObject({ status: 'completed' });
      expect(Number((await row(id)).amount_received)).toBe(1000);
      expect(await storedEvent(res.eventId)).toMatchObject({ eventType: 'payment_intent.succeeded', mode: 'test', status: 'processed', paymentId: id });
      expect(await logEvents(id)).toContain('status_changed');
    });

    it("payment_intent.succeeded stores the card that paid, read from the intent with its charge expanded (the event names the charge by id only)", async () => {
      const client = await gatewayClient(t);
      const id = await paymentIn('pending');
      const paid = await client.paymentIntents.create({ amount: 1000, currency: 'usd', payment_method: 'pm_card_visa', confirm: true, metadata: ours({ checkout_payment_id: String(id) }) });
      await payments.recordProviderDetails(id, { providerPaymentRef: paid.id }, 'test');
      bed.fake.clearRequests();
      const object = bed.fake.resources.get(paid.id)!;
      expect(object.latest_charge).toMatch(/^ch_/);
      const res = await deliver('payment_intent.succeeded', object);
      expect(res.body).toEqual({ received: true, outcome: 'processed' });
      expect(await row(id)).toMatchObject({ status: 'completed', card_brand: 'visa', card_last4: '4242' });
      expect(bed.fake.requestsTo('GET', `/v1/payment_intents/${paid.id}`).map((call) => call.query)).toEqual([{ expand: ['latest_charge'] }]);
    });

    it('payment_intent.succeeded completes the record without a card when the card cannot be read (the words are best effort)', async () => {
      const client = await gatewayClient(t);
      const id = await paymentIn('pending');
      const paid = await client.paymentIntents.create({ amount: 1000, currency: 'usd', payment_method: 'pm_card_visa', confirm: true, metadata: ours({ checkout_payment_id: String(id) }) });
      await payments.recordProviderDetails(id, { providerPaymentRef: paid.id }, 'test');
      bed.fake.fail({ method: 'GET', path: `/v1/payment_intents/${paid.id}`, status: 500, times: 5 });
      try {
        const res = await deliver('payment_intent.succeeded', bed.fake.resources.get(paid.id)!);
        expect(res.body).toEqual({ received: true, outcome: 'processed' });
      } finally {
        bed.fake.clearFailures();
      }
      expect(await row(id)).toMatchObject({ status: 'completed', card_brand: null, card_last4: null });
    });

    it('a redelivery of the same event id answers 200 and changes nothing', async () => {
      const id = await paymentIn('pending', { providerPaymentRef: 'pi_redelivered' });
      const { body, signature } = signedEvent('payment_intent.processing', intent('pi_redelivered', id), secret, { id: nextEventId() });
      expect((await post(body, { 'Gateway-A-Signature': signature })).body).toEqual({ received: true, outcome: 'processed' });
      expect(await row(id)).toMatchObject({ status: 'processing' });
      const before = await snapshot();
      const again = await post(body, { 'Gateway-A-Signature': signPayload(body, secret) });
      expect(again.status).toBe(200);
      expect(again.body).toEqual({ received: true, outcome: 'duplicate' });
      expect(await snapshot()).toEqual(before);
    });

    it('a first delivery stores its event already claimed (one INSERT, no claim UPDATE); a repeat of the record\'s status takes no transaction', async () => {
      const id = await paymentIn('pending', { providerPaymentRef: 'pi_statements' });
      const first = await statements(() => deliver('payment_intent.processing', intent('pi_statements', id)));
      expect(first.result.body).toEqual({ received: true, outcome: 'processed' });
      const onEvents = first.statements.filter((sql) => sql.includes(`\`${table.events}\``));
      expect(onEvents.filter((sql) => sql.startsWith('INSERT'))).toHaveLength(1);
      expect(onEvents.filter((sql) => sql.includes("SET `status` = 'processing'"))).toHaveLength(0);
      expect(first.statements.filter(isTransactionStart)).toHaveLength(1);
      expect(await row(id)).toMatchObject({ status: 'processing' });
      expect(await storedEvent(first.result.eventId)).toMatchObject({ status: 'processed', claimedBy: null, claimExpiresAt: null });

      // Another event saying the same (a new event id): the record already is processing.
      const logLines = await logCount(id);
      const repeat = await statements(() => deliver('payment_intent.processing', intent('pi_statements', id)));
      expect(repeat.result.body).toEqual({ received: true, outcome: 'processed' });
      expect(repeat.statements.filter(isTransactionStart)).toHaveLength(0);
      expect(repeat.statements.filter((sql) => sql.includes(`FROM \`${table.payments}\``))).toHaveLength(1);
      expect(await storedEvent(repeat.result.eventId)).toMatchObject({ status: 'processed', paymentId: id });
      expect(await logCount(id)).toBe(logLines);
    });

    it.each([
      ['payment_intent.processing', 'processing'],
      ['payment_intent.payment_failed', 'failed'],
      ['payment_intent.canceled', 'canceled'],
    ])('%s moves a pending record to %s', async (type, status) => {
      const ref = `pi_${type.split('.')[1]}`;
      const id = await paymentIn('pending', { providerPaymentRef: ref });
      const res = await deliver(type, intent(ref, id));
      expect(res.body).toEqual({ received: true, outcome: 'processed' });
      expect(await row(id)).toMatchObject({ status, provider_payment_ref: ref });
    });

    it('payment_intent.payment_failed stores the intent\'s last_payment_error as the failure reason', async () => {
      const id = await paymentIn('pending', { providerPaymentRef: 'pi_declined' });
      const lastError = { type: 'card_error', code: 'card_declined', decline_code: 'insufficient_funds', message: 'Your card has insufficient funds.', doc_url: 'https://docs.example/card-declined' };
      const res = await deliver('payment_intent.payment_failed', intent('pi_declined', id, { status: 'requires_payment_method', last_payment_error: lastError }));
      expect(res.body).toEqual({ received: true, outcome: 'processed' });
      const stored = await t.app.get(PaymentQueriesService).findById(id);
      expect(stored).toMatchObject({ status: 'failed', failure_reason: { code: 'card_declined', decline_code: 'insufficient_funds', message: 'Your card has insufficient funds.' } });
      // Without an error on the intent, nothing is invented.
      const bare = await paymentIn('pending', { providerPaymentRef: 'pi_declined_bare' });
      await deliver('payment_intent.payment_failed', intent('pi_declined_bare', bare));
      expect(await t.app.get(PaymentQueriesService).findById(bare)).toMatchObject({ status: 'failed', failure_reason: null });
    });

    it('finds the record through the stored intent id when the metadata is absent', async () => {
      const id = await paymentIn('processing', { providerPaymentRef: 'pi_by_ref' });
      await deliver('payment_intent.succeeded', intent('pi_by_ref', null, { amount_received: 1000 }));
      expect(await row(id)).toMatchObject({ status: 'completed' });
    });

    it('never gives a record an intent it does not hold: rejected, the record keeps no provider reference', async () => {
      const id = await paymentIn('pending');
      const res = await deliver('payment_intent.succeeded', intent('pi_never_stored', id, { amount_received: 1000 }));
      expect(res.body).toEqual({ received: true, outcome: 'rejected' });
      expect(await row(id)).toMatchObject({ status: 'pending', provider_payment_ref: null, amount_received: null });
      expect(await storedEvent(res.eventId)).toMatchObject({ status: 'rejected', reason: 'the record holds no provider_payment_ref' });
    });

    it('a late processing after succeeded leaves the record completed (logged, 200)', async () => {
      const id = await paymentIn('pending', { providerPaymentRef: 'pi_out_of_order' });
      await deliver('payment_intent.succeeded', intent('pi_out_of_order', id, { amount_received: 1000 }));
      const late = await deliver('payment_intent.processing', intent('pi_out_of_order', id), { created: now() - 60 });
      expect(late.status).toBe(200);
      expect(late.body).toEqual({ received: true, outcome: 'ignored' });
      expect(await row(id)).toMatchObject({ status: 'completed' });
      expect(await logEvents(id)).toContain('transition_ignored');
      expect(await storedEvent(late.eventId)).toMatchObject({ status: 'ignored', paymentId: id });
    });

    it('a failure after success and a cancel after success do not move the record either', async () => {
      const id = await paymentIn('completed', { providerPaymentRef: 'pi_terminal' });
      for (const type of ['payment_intent.payment_failed', 'payment_intent.canceled']) {
        expect((await deliver(type, intent('pi_terminal', id))).status).toBe(200);
      }
      expect(await row(id)).toMatchObject({ status: 'completed' });
    });

    it.each([
      ['amount', { amount: 999 }],
      ['currency', { currency: 'eur' }],
    ])('a different %s is a logged contract mismatch and the record is not completed', async (_what, fields) => {
      const ref = `pi_mismatch_${_what}`;
      const id = await paymentIn('pending', { providerPaymentRef: ref });
      const res = await deliver('payment_intent.succeeded', intent(ref, id, { amount_received: 999, ...fields }));
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ received: true, outcome: 'rejected' });
      expect(await row(id)).toMatchObject({ status: 'pending', amount_received: null });
      expect(await logEvents(id)).toContain('webhook_contract_mismatch');
      expect(await storedEvent(res.eventId)).toMatchObject({ status: 'rejected', paymentId: id, reason: 'amount or currency differs from the record' });
    });

    it('metadata naming a record that holds another intent is a mismatch', async () => {
      const id = await paymentIn('pending', { providerPaymentRef: 'pi_the_real_one' });
      const res = await deliver('payment_intent.succeeded', intent('pi_someone_else', id, { amount_received: 1000 }));
      expect(res.body.outcome).toBe('rejected');
      expect(await row(id)).toMatchObject({ status: 'pending', provider_payment_ref: 'pi_the_real_one' });
    });

    it('an event for an unknown payment answers 200 and is stored as ignored, without a payment', async () => {
      const before = await t.dataSource.query(`SELECT * FROM ${table.payments} ORDER BY id`);
      const res = await deliver('payment_intent.succeeded', intent('pi_nobody_knows', null, { amount_received: 1000 }));
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ received: true, outcome: 'ignored' });
      expect(await storedEvent(res.eventId)).toMatchObject({ status: 'ignored', paymentId: null });
      const [logged] = await t.dataSource.query(`SELECT level, context FROM ${table.log} WHERE event = ? ORDER BY id DESC LIMIT 1`, ['webhook_unknown_payment']);
      expect(JSON.parse(logged.context)).toMatchObject({ event_id: res.eventId, object_id: 'pi_nobody_knows' });
      expect(await t.dataSource.query(`SELECT * FROM ${table.payments} ORDER BY id`)).toEqual(before);
    });

    it('metadata naming a payment that does not exist is an unknown payment', async () => {
      const res = await deliver('payment_intent.succeeded', intent('pi_ghost', 999999, { amount_received: 1000 }));
      expect(res.body).toEqual({ received: true, outcome: 'ignored' });
    });
  });

  describe('setup intents', () => {
    it('setup_intent.succeeded never completes a one-time record (nothing was charged)', async () => {
      const id = await paymentIn('pending', { providerPaymentRef: 'seti_saved' });
      const res = await deliver('setup_intent.succeeded', setupIntent('seti_saved', id));
      expect(res.body).toEqual({ received: true, outcome: 'rejected' });
      expect(await row(id)).toMatchObject({ status: 'pending' });
    });

    it('setup_intent.succeeded of a subscription creates the subscription at the gateway, then waits (processing) for the first invoice', async () => {
      const account = await t.app.get(GatewayAClientFactory).forMode('test');
      const customer = await account.client.customers.create({ email: 'payer@example.test' });
      const seti = await account.client.setupIntents.create({ customer: customer.id, payment_method: 'pm_card_visa', confirm: true });
      expect(seti.status).toBe('succeeded');
      const id = await paymentIn('pending', { providerPaymentRef: seti.id, providerCustomerRef: customer.id }, [1, 1]);
      bed.fake.clearRequests();

      const res = await deliver('setup_intent.succeeded', setupIntent(seti.id, id, { customer: customer.id, payment_method: 'pm_card_visa' }));
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ received: true, outcome: 'processed' });
      const created = bed.fake.requestsTo('POST', '/v1/subscriptions');
      expect(created).toHaveLength(1);
      expect(created[0].body).toMatchObject({ customer: customer.id, metadata: { checkout_payment_id: String(id) } });
      const stored = await row(id);
      expect(stored).toMatchObject({ status: 'processing', provider_subscription_ref: expect.stringMatching(/^sub_/) });

      // A redelivery under a new event id (the gateway retried) does not create a second one.
      await deliver('setup_intent.succeeded', setupIntent(seti.id, id, { customer: customer.id }));
      expect(bed.fake.requestsTo('POST', '/v1/subscriptions')).toHaveLength(1);
      expect(await row(id)).toMatchObject({ status: 'processing', provider_subscription_ref: stored.provider_subscription_ref });
    });

    it("the first invoice's payment names the card that paid it (read from the invoice's PaymentIntent, its charge expanded)", async () => {
      const account = await t.app.get(GatewayAClientFactory).forMode('test');
      const customer = await account.client.customers.create({ email: 'payer@example.test' });
      const seti = await account.client.setupIntents.create({ customer: customer.id, payment_method: 'pm_card_mastercard', confirm: true });
      const id = await paymentIn('pending', { providerPaymentRef: seti.id, providerCustomerRef: customer.id }, [1, 1]);
      await deliver('setup_intent.succeeded', setupIntent(seti.id, id, { customer: customer.id, payment_method: 'pm_card_mastercard' }));
      const subscriptionRef = String((await row(id)).provider_subscription_ref);
      const subscription = await account.client.subscriptions.retrieve(subscriptionRef, { expand: ['latest_invoice'] });
      const first = bed.fake.resources.get((subscription.latest_invoice as { id: string }).id)!;
      expect(first).toMatchObject({ billing_reason: 'subscription_create', status: 'paid' });
      const res = await deliver('invoice.paid', first);
      expect(res.body).toEqual({ received: true, outcome: 'processed' });
      expect(await row(id)).toMatchObject({ status: 'completed', provider_charge_ref: expect.stringMatching(/^pi_/), card_brand: 'mastercard', card_last4: '4444' });
    });

    it('a subscription whose setup cannot be used is rejected and logged, not retried', async () => {
      // No customer on the record: the subscription cannot be created.
      const id = await paymentIn('pending', { providerPaymentRef: 'seti_no_customer' }, [1, 1]);
      bed.fake.clearRequests();
      const res = await deliver('setup_intent.succeeded', setupIntent('seti_no_customer', id));
      expect(res.status).toBe(200);
      expect(res.body.outcome).toBe('rejected');
      expect(bed.fake.requestsTo('POST', '/v1/subscriptions')).toHaveLength(0);
      expect(await row(id)).toMatchObject({ status: 'pending' });
    });

    it('a gateway failure while creating the subscription answers 502 and leaves the event to the redelivery', async () => {
      const account = await t.app.get(GatewayAClientFactory).forMode('test');
      const customer = await account.client.customers.create({ email: 'retry@example.test' });
      const seti = await account.client.setupIntents.create({ customer: customer.id, payment_method: 'pm_card_visa', confirm: true });
      const id = await paymentIn('pending', { providerPaymentRef: seti.id, providerCustomerRef: customer.id }, [1, 1]);
      const { body, signature } = signedEvent('setup_intent.succeeded', setupIntent(seti.id, id, { customer: customer.id }), secret, { id: nextEventId() });
      const eventId = JSON.parse(body).id as string;

      bed.fake.fail({ method: 'POST', path: '/v1/subscriptions', status: 500, times: 3 });
      const first = await post(body, { 'Gateway-A-Signature': signature });
      expect(first.status).toBe(502);
      expectWpError(first.body, 'checkout_gateway_error', 502);
      expect(await storedEvent(eventId)).toMatchObject({ status: 'received', processedAt: null });
      expect(await row(id)).toMatchObject({ status: 'pending', provider_subscription_ref: null });

      const retry = await post(body, { 'Gateway-A-Signature': signPayload(body, secret) });
      expect(retry.status).toBe(200);
      expect(retry.body).toEqual({ received: true, outcome: 'processed' });
      expect(await row(id)).toMatchObject({ status: 'processing', provider_subscription_ref: expect.stringMatching(/^sub_/) });
      expect(await storedEvent(eventId)).toMatchObject({ status: 'processed', paymentId: id });
    });

    it.each([
      ['setup_intent.setup_failed', 'failed'],
      ['setup_intent.canceled', 'canceled'],
    ])('%s moves the record to %s', async (type, status) => {
      const ref = `seti_${status}`;
      const id = await paymentIn('pending', { providerPaymentRef: ref }, [1, 1]);
      const res = await deliver(type, setupIntent(ref, id, { status: status === 'failed' ? 'requires_payment_method' : 'canceled' }));
      expect(res.body).toEqual({ received: true, outcome: 'processed' });
      expect(await row(id)).toMatchObject({ status });
    });

    it('a setup intent for another customer than the record is a mismatch', async () => {
      const id = await paymentIn('pending', { providerPaymentRef: 'seti_customer', providerCustomerRef: 'cus_mine' });
      const res = await deliver('setup_intent.succeeded', setupIntent('seti_customer', id, { customer: 'cus_other' }));
      expect(res.body.outcome).toBe('rejected');
      expect(await row(id)).toMatchObject({ status: 'pending' });
    });
  });

  describe('invoices', () => {
    const subscriptionPayment = async (subscriptionRef: string, status: PaymentStatus = 'processing') =>
      paymentIn(status, { providerPaymentRef: `seti_for_${subscriptionRef}`, providerCustomerRef: 'cus_sub', providerSubscriptionRef: subscriptionRef }, [1, 1]);
    const renewalsOf = (parentId: number) =>
      t.dataSource.query(`SELECT * FROM ${table.payments} WHERE parent_payment_id = ? ORDER BY id`, [parentId]) as Promise<Array<Record<string, unknown>>>;

    it('the first invoice completes the subscription payment; later invoices add one renewal row each', async () => {
      const parent = await subscriptionPayment('sub_paid');
      const first = await deliver('invoice.paid', invoice('in_first', 'sub_paid', { billing_reason: 'subscription_create' }));
      expect(first.body).toEqual({ received: true, outcome: 'processed' });
      expect(await row(parent)).toMatchObject({ status: 'completed' });
      expect(Number((await row(parent)).amount_received)).toBe(999);
      expect(await renewalsOf(parent)).toEqual([]);

      const renewal = await deliver('invoice.paid', invoice('in_second', 'sub_paid', { amount_paid: 1099, amount_due: 1099 }));
      expect(renewal.body).toEqual({ received: true, outcome: 'processed' });
      const rows = await renewalsOf(parent);
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({
        parent_payment_id: parent,
        status: 'completed',
        currency: 'EUR',
        provider_payment_ref: 'in_second',
        provider_subscription_ref: 'sub_paid',
        provider_customer_ref: 'cus_sub',
        form_id: form.id,
        frequency: 'm_1',
        gateway: 'gateway_a',
        mode: 'test',
      });
      expect(Number(rows[0].amount)).toBe(1099);
      expect(Number(rows[0].amount_received)).toBe(1099);
      // A subscription created without a fee (its first payment has none) charges none; each paid
      // invoice is read once for the PaymentIntent that paid it (where refunds go; none at the fake here).
      expect(rows[0].application_fee_amount).toBeNull();
      expect(rows[0].provider_charge_ref).toBeNull();
      expect(bed.fake.requestsTo('GET', '/v1/invoice_payments').map((call) => call.query.invoice)).toEqual(['in_first', 'in_second']);
      expect(await storedEvent(renewal.eventId)).toMatchObject({ status: 'processed', paymentId: Number(rows[0].id) });

      // The same invoice under another event id (e.g. a resend from the dashboard): still one row.
      const resent = await deliver('invoice.paid', invoice('in_second', 'sub_paid', { amount_paid: 1099, amount_due: 1099 }));
      expect(resent.status).toBe(200);
      expect(await renewalsOf(parent)).toHaveLength(1);
    });

    it('an invoice that overtakes the recording of its subscription is retried (503), and applies once the record holds it', async () => {
      const id = await paymentIn('processing', { providerPaymentRef: 'seti_meta', providerCustomerRef: 'cus_meta' }, [1, 1]);
      const object = invoice('in_meta', 'sub_meta', { billing_reason: 'subscription_create' });
      (object.parent.subscription_details as { metadata: Record<string, string> }).metadata = ours({ checkout_payment_id: String(id) });
      const early = await deliver('invoice.paid', object);
      expect(early.status).toBe(503);
      expectWpError(early.body, 'checkout_unavailable', 503);
      expect(await row(id)).toMatchObject({ status: 'processing', provider_subscription_ref: null });
      expect(await storedEvent(early.eventId)).toMatchObject({ status: 'received' });

      await payments.recordProviderDetails(id, { providerSubscriptionRef: 'sub_meta' }, 'test');
      const redelivered = await deliver('invoice.paid', object, { id: early.eventId });
      expect(redelivered.body).toEqual({ received: true, outcome: 'processed' });
      expect(await row(id)).toMatchObject({ status: 'completed', provider_subscription_ref: 'sub_meta' });
    });

    it('a failed first invoice fails the subscription payment and keeps the subscription status', async () => {
      const parent = await subscriptionPayment('sub_first_failed');
      await payments.recordProviderDetails(parent, { subscriptionStatus: 'incomplete' }, 'test');
      const res = await deliver('invoice.payment_failed', invoice('in_first_failed', 'sub_first_failed', { billing_reason: 'subscription_create', amount_paid: 0, status: 'open' }));
      expect(res.body).toEqual({ received: true, outcome: 'processed' });
      expect(await row(parent)).toMatchObject({ status: 'failed', subscription_status: 'incomplete' });
      // Paid on the gateway's retry: failed → completed.
      await deliver('invoice.paid', invoice('in_first_failed', 'sub_first_failed', { billing_reason: 'subscription_create' }));
      expect(await row(parent)).toMatchObject({ status: 'completed' });
    });

    it('a failed renewal adds a failed renewal row, keeps the subscription status, and completes when the invoice is paid later', async () => {
      const parent = await subscriptionPayment('sub_renewal_failed', 'completed');
      await payments.recordProviderDetails(parent, { subscriptionStatus: 'active' }, 'test');
      const failed = await deliver('invoice.payment_failed', invoice('in_renewal_failed', 'sub_renewal_failed', { amount_paid: 0, status: 'open' }));
      expect(failed.body).toEqual({ received: true, outcome: 'processed' });
      let rows = await renewalsOf(parent);
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({ status: 'failed', provider_payment_ref: 'in_renewal_failed', amount_received: null });
      expect(Number(rows[0].amount)).toBe(999);
      expect(await row(parent)).toMatchObject({ status: 'completed', subscription_status: 'active' });

      await deliver('invoice.paid', invoice('in_renewal_failed', 'sub_renewal_failed'));
      rows = await renewalsOf(parent);
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({ status: 'completed' });
      expect(Number(rows[0].amount_received)).toBe(999);

      // A late failure of the paid invoice does not move it back.
      await deliver('invoice.payment_failed', invoice('in_renewal_failed', 'sub_renewal_failed', { amount_paid: 0 }), { created: now() - 3600 });
      expect((await renewalsOf(parent))[0]).toMatchObject({ status: 'completed' });
    });

    it('an invoice of an unknown subscription, or of none, answers 200 and is ignored', async () => {
      const before = await t.dataSource.query(`SELECT * FROM ${table.payments} ORDER BY id`);
      const unknown = await deliver('invoice.paid', invoice('in_unknown', 'sub_unknown'));
      expect(unknown.body).toEqual({ received: true, outcome: 'ignored' });
      const standalone = await deliver('invoice.paid', { ...invoice('in_standalone', 'x'), parent: null });
      expect(standalone.body).toEqual({ received: true, outcome: 'ignored' });
      expect(await t.dataSource.query(`SELECT * FROM ${table.payments} ORDER BY id`)).toEqual(before);
    });
  });

  describe('subscriptions', () => {
    it('created, updated and deleted store the subscription status with its payment', async () => {
      const id = await paymentIn('processing', { providerPaymentRef: 'seti_status', providerSubscriptionRef: 'sub_status' }, [1, 1]);
      const start = now() - 100;
      await deliver('customer.subscription.created', subscriptionObject('sub_status', 'incomplete'), { created: start });
      expect(await row(id)).toMatchObject({ subscription_status: 'incomplete', status: 'processing' });
      await deliver('customer.subscription.updated', subscriptionObject('sub_status', 'active'), { created: start + 10 });
      expect(await row(id)).toMatchObject({ subscription_status: 'active' });
      await deliver('customer.subscription.deleted', subscriptionObject('sub_status', 'canceled'), { created: start + 20 });
      expect(await row(id)).toMatchObject({ subscription_status: 'canceled', status: 'processing' });
    });

    it('an update older than the stored one does not overwrite it', async () => {
      const id = await paymentIn('completed', { providerPaymentRef: 'seti_order', providerSubscriptionRef: 'sub_order' }, [1, 1]);
      const start = now() - 100;
      const newer = await deliver('customer.subscription.updated', subscriptionObject('sub_order', 'past_due'), { created: start + 50 });
      expect(newer.body.outcome).toBe('processed');
      const older = await deliver('customer.subscription.updated', subscriptionObject('sub_order', 'active'), { created: start });
      expect(older.status).toBe(200);
      expect(older.body).toEqual({ received: true, outcome: 'ignored' });
      expect(await row(id)).toMatchObject({ subscription_status: 'past_due' });
      expect(await logEvents(id)).toContain('webhook_out_of_order');
      // created (incomplete) and updated (active) in the same second, delivered in reverse order.
      const same = start + 60;
      await deliver('customer.subscription.updated', subscriptionObject('sub_order', 'active'), { created: same });
      await deliver('customer.subscription.created', subscriptionObject('sub_order', 'incomplete'), { created: same });
      expect(await row(id)).toMatchObject({ subscription_status: 'active' });
      // After deleted, nothing revives it.
      await deliver('customer.subscription.deleted', subscriptionObject('sub_order', 'canceled'), { created: same + 1 });
      await deliver('customer.subscription.updated', subscriptionObject('sub_order', 'active'), { created: same + 100 });
      expect(await row(id)).toMatchObject({ subscription_status: 'canceled' });
    });

    it('a subscription event for a subscription its record does not hold yet is retried (503), never adopted', async () => {
      const id = await paymentIn('processing', { providerPaymentRef: 'seti_sub_meta' }, [1, 1]);
      const early = await deliver('customer.subscription.created', subscriptionObject('sub_from_meta', 'active', id));
      expect(early.status).toBe(503);
      expect(await row(id)).toMatchObject({ provider_subscription_ref: null, subscription_status: null });
      await payments.recordProviderDetails(id, { providerSubscriptionRef: 'sub_from_meta' }, 'test');
      expect((await deliver('customer.subscription.created', subscriptionObject('sub_from_meta', 'active', id), { id: early.eventId })).body.outcome).toBe('processed');
      expect(await row(id)).toMatchObject({ provider_subscription_ref: 'sub_from_meta', subscription_status: 'active' });
    });

    it('a subscription event naming a record that holds another subscription is a mismatch', async () => {
      const id = await paymentIn('processing', { providerPaymentRef: 'seti_sub_other', providerSubscriptionRef: 'sub_mine' }, [1, 1]);
      const res = await deliver('customer.subscription.updated', subscriptionObject('sub_theirs', 'canceled', id));
      expect(res.body.outcome).toBe('rejected');
      expect(await row(id)).toMatchObject({ provider_subscription_ref: 'sub_mine', subscription_status: null });
    });
  });

  describe('signatures, envelope and answers', () => {
    const paymentEvent = () => intent('pi_signature_checks', null);

    it('answers 503, never 500, to an unauthenticated post when the signing secret cannot be opened', async () => {
      const options = t.app.get(OptionsService);
      const name = gatewayAOption.webhookSecret('live');
      await options.set(name, { sealed: 'v1.not-a-sealed-value' });
      try {
        const { body } = signedEvent('payment_intent.succeeded', paymentEvent(), 'whsec_anyone', { livemode: true });
        const res = await post(body, { 'Gateway-A-Signature': 't=1,v1=00' }, 'live');
        expect(res.status).toBe(503);
        expectWpError(res.body, 'checkout_unavailable', 503);
      } finally {
        await options.delete([name]);
      }
    });

    it('accepts the gateway\'s own Stripe-Signature header', async () => {
      const id = await paymentIn('pending', { providerPaymentRef: 'pi_stripe_header' });
      const { body, signature } = signedEvent('payment_intent.processing', intent('pi_stripe_header', id), secret);
      const res = await post(body, { 'Stripe-Signature': signature });
      expect(res.status).toBe(200);
      expect(await row(id)).toMatchObject({ status: 'processing' });
    });

    it('verifies the raw bytes as sent (whitespace and key order a re-serialisation would change)', async () => {
      const id = await paymentIn('pending', { providerPaymentRef: 'pi_raw_bytes' });
      const eventId = nextEventId();
      const body = `{\n  "type": "payment_intent.processing",\n  "livemode": false,\n  "created": ${now()},\n  "id": "${eventId}",\n  "object": "event",\n  "data": { "object": { "object": "payment_intent", "id": "pi_raw_bytes", "amount": 1000, "currency": "usd", "metadata": { "checkout_payment_id": "${id}", "checkout_installation_id": "${t.app.get(InstallationService).id()}" } } }\n}`;
      const res = await post(body, { 'Gateway-A-Signature': signPayload(body, secret) });
      expect(res.status).toBe(200);
      expect(await row(id)).toMatchObject({ status: 'processing' });
    });

    // The exact 300 s bounds are unit-tested with a fixed clock (webhook-signature.spec.ts). Over
    // HTTP the check runs a moment after signing, which only ages a stale signature further but
    // brings a future one closer: a second boundary crossed between the two, or a slow worker on a
    // loaded machine, would let a signature 301 s ahead pass. So the future case keeps a margin.
    it.each([
      ['stale (over 300 s old)', { ageSec: 301 }],
      ['from the future (over 300 s ahead)', { ageSec: -330 }],
      ['forged (another secret)', { secret: 'whsec_not_the_right_one' }],
    ])('refuses a %s signature with 400 and stores nothing', async (_name, options: { ageSec?: number; secret?: string }) => {
      const before = await snapshot();
      const timestampSec = options.ageSec === undefined ? undefined : now() - options.ageSec;
      const { body, signature } = signedEvent('payment_intent.succeeded', paymentEvent(), options.secret ?? secret, { timestampSec });
      const res = await post(body, { 'Gateway-A-Signature': signature });
      expectWpError(res.body, 'checkout_invalid_signature', 400);
      expect(res.status).toBe(400);
      expect(await snapshot()).toEqual(before);
    });

    it('accepts a signature just inside the tolerance', async () => {
      const { body, signature } = signedEvent('payment_intent.succeeded', paymentEvent(), secret, { timestampSec: now() - 280 });
      expect((await post(body, { 'Gateway-A-Signature': signature })).status).toBe(200);
    });

    it('refuses a body changed after signing, a missing header and a malformed header', async () => {
      const before = await snapshot();
      const { body, signature } = signedEvent('payment_intent.succeeded', paymentEvent(), secret);
      const tampered = body.replace('"amount":1000', '"amount":1');
      expect(tampered).not.toBe(body);
      expectWpError((await post(tampered, { 'Gateway-A-Signature': signature })).body, 'checkout_invalid_signature', 400);
      expectWpError((await post(body, {})).body, 'checkout_invalid_signature', 400);
      expectWpError((await post(body, { 'Gateway-A-Signature': 'v1=abc' })).body, 'checkout_invalid_signature', 400);
      expect(await snapshot()).toEqual(before);
    });

    it('refuses every delivery to a mode without a configured secret (400, nothing processed)', async () => {
      expect(await t.app.get(GatewayAContractService).getSigningSecret('live')).toBeNull();
      const before = await snapshot();
      const { body, signature } = signedEvent('payment_intent.succeeded', paymentEvent(), secret, { livemode: true });
      const res = await post(body, { 'Gateway-A-Signature': signature }, 'live');
      expectWpError(res.body, 'checkout_invalid_signature', 400);
      expect(await snapshot()).toEqual(before);
    });

    it('an event of the live endpoint never touches a test record', async () => {
      const id = await paymentIn('pending', { providerPaymentRef: 'pi_mode' });
      const options = t.app.get(OptionsService);
      const liveSecret = 'whsec_live_secret_for_this_test';
      await options.setSecret(gatewayAOption.webhookSecret('live'), liveSecret);
      try {
        const { body, signature } = signedEvent('payment_intent.succeeded', intent('pi_mode', id, { amount_received: 1000 }), liveSecret, { livemode: true });
        const res = await post(body, { 'Gateway-A-Signature': signature }, 'live');
        expect(res.status).toBe(200);
        expect(res.body).toEqual({ received: true, outcome: 'rejected' });
        expect(await row(id)).toMatchObject({ status: 'pending' });
        expect(await storedEvent(JSON.parse(body).id)).toMatchObject({ mode: 'live', status: 'rejected', paymentId: id });
      } finally {
        await options.delete([gatewayAOption.webhookSecret('live')]);
      }
    });

    it('refuses an event whose livemode is not the mode (400, nothing stored)', async () => {
      const before = await snapshot();
      const res = await deliver('payment_intent.succeeded', paymentEvent(), { livemode: true });
      expectWpError(res.body, 'checkout_livemode_mismatch', 400);
      expect(await snapshot()).toEqual(before);
    });

    it('refuses a signed body that is not an event envelope', async () => {
      const body = JSON.stringify({ id: nextEventId(), type: 'payment_intent.succeeded', livemode: false, created: now() });
      const res = await post(body, { 'Gateway-A-Signature': signPayload(body, secret) });
      expectWpError(res.body, 'checkout_invalid_event', 400);
    });

    it('answers 404 rest_no_route for a mode other than test or live, with the unknown-route body', async () => {
      const { body, signature } = signedEvent('payment_intent.succeeded', paymentEvent(), secret);
      const res = await post(body, { 'Gateway-A-Signature': signature }, 'staging');
      const unknownRoute = await request(t.http).post(`${t.base}/no-such-route`).send({});
      expect(res.status).toBe(404);
      expectWpError(res.body, 'rest_no_route', 404);
      expect(res.body).toEqual(unknownRoute.body);
    });

    it('stores an event outside the contract as ignored and answers 200', async () => {
      const res = await deliver('charge.refunded', { id: 'ch_1', object: 'charge' });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ received: true, outcome: 'ignored' });
      expect(await storedEvent(res.eventId)).toMatchObject({ eventType: 'charge.refunded', status: 'ignored', paymentId: null });
      const again = await deliver('charge.refunded', { id: 'ch_1', object: 'charge' }, { id: res.eventId });
      expect(again.body).toEqual({ received: true, outcome: 'duplicate' });
    });

    it('answers 413 for a body over 512 KiB', async () => {
      const count = await countEvents();
      const { body, signature } = signedEvent('payment_intent.succeeded', { ...paymentEvent(), description: 'x'.repeat(513 * 1024) }, secret);
      const res = await post(body, { 'Gateway-A-Signature': signature });
      expect(res.status).toBe(413);
      expectWpError(res.body, 'checkout_payload_too_large', 413);
      expect(await countEvents()).toBe(count);
    });

    it('accepts a body just under 512 KiB', async () => {
      const { body, signature } = signedEvent('charge.refunded', { id: 'ch_big', description: 'x'.repeat(500 * 1024) }, secret);
      expect(Buffer.byteLength(body)).toBeLessThan(512 * 1024);
      expect((await post(body, { 'Gateway-A-Signature': signature })).status).toBe(200);
    });
  });

  describe('database failures', () => {
    it('answers 503 when the event cannot be stored; the redelivery processes it', async () => {
      const id = await paymentIn('pending', { providerPaymentRef: 'pi_db_down_store' });
      const { body } = signedEvent('payment_intent.succeeded', intent('pi_db_down_store', id, { amount_received: 1000 }), secret, { id: nextEventId() });
      const eventId = JSON.parse(body).id as string;
      jest.spyOn(t.app.get(WebhookEventRepository), 'recordEventOnce').mockRejectedValueOnce(connectionLost());
      const down = await post(body, { 'Gateway-A-Signature': signPayload(body, secret) });
      expect(down.status).toBe(503);
      expectWpError(down.body, 'checkout_unavailable', 503);
      expect(await storedEvent(eventId)).toBeNull();
      expect(await row(id)).toMatchObject({ status: 'pending' });

      const retry = await post(body, { 'Gateway-A-Signature': signPayload(body, secret) });
      expect(retry.body).toEqual({ received: true, outcome: 'processed' });
      expect(await row(id)).toMatchObject({ status: 'completed' });
    });

    it('answers 503 when the effect fails; the event stays unfinished and the redelivery applies it', async () => {
      const id = await paymentIn('pending', { providerPaymentRef: 'pi_db_down_effect' });
      const { body } = signedEvent('payment_intent.succeeded', intent('pi_db_down_effect', id, { amount_received: 1000 }), secret, { id: nextEventId() });
      const eventId = JSON.parse(body).id as string;
      jest.spyOn(payments, 'transition').mockRejectedValueOnce(connectionLost());
      const down = await post(body, { 'Gateway-A-Signature': signPayload(body, secret) });
      expect(down.status).toBe(503);
      expectWpError(down.body, 'checkout_unavailable', 503);
      expect(await storedEvent(eventId)).toMatchObject({ status: 'received', processedAt: null });
      expect(await row(id)).toMatchObject({ status: 'pending' });

      const retry = await post(body, { 'Gateway-A-Signature': signPayload(body, secret) });
      expect(retry.status).toBe(200);
      expect(retry.body).toEqual({ received: true, outcome: 'processed' });
      expect(await row(id)).toMatchObject({ status: 'completed' });
      expect(await storedEvent(eventId)).toMatchObject({ status: 'processed', paymentId: id });
    });

    it('answers 503 when the outcome cannot be stored after the effect; the redelivery re-applies harmlessly', async () => {
      const parent = await paymentIn('completed', { providerPaymentRef: 'seti_db_down', providerSubscriptionRef: 'sub_db_down' }, [1, 1]);
      const { body } = signedEvent('invoice.paid', invoice('in_db_down', 'sub_db_down'), secret, { id: nextEventId() });
      const eventId = JSON.parse(body).id as string;
      jest.spyOn(t.app.get(WebhookEventRepository), 'markOutcome').mockRejectedValueOnce(connectionLost());
      expect((await post(body, { 'Gateway-A-Signature': signPayload(body, secret) })).status).toBe(503);
      expect(await storedEvent(eventId)).toMatchObject({ status: 'received' });

      const retry = await post(body, { 'Gateway-A-Signature': signPayload(body, secret) });
      expect(retry.body).toEqual({ received: true, outcome: 'processed' });
      const renewals = await t.dataSource.query(`SELECT id FROM ${table.payments} WHERE parent_payment_id = ?`, [parent]);
      expect(renewals).toHaveLength(1);
      expect(await storedEvent(eventId)).toMatchObject({ status: 'processed', paymentId: Number(renewals[0].id) });
    });
  });

  describe("events not tied to this installation's own objects (hardening)", () => {
    const otherInstallation = '5d1c9a7e-0b2f-4e3a-8c6d-1f2e3a4b5c6d';

    it('an event of another installation on the same gateway account never moves the record its payment id names', async () => {
      const id = await paymentIn('pending', { providerPaymentRef: 'pi_shared_account' });
      const foreign = intent('pi_shared_account', id, { amount_received: 1000, metadata: { checkout_payment_id: String(id), checkout_installation_id: otherInstallation } });
      const res = await deliver('payment_intent.succeeded', foreign);
      expect(res.body).toEqual({ received: true, outcome: 'ignored' });
      expect(await row(id)).toMatchObject({ status: 'pending', amount_received: null });
      expect(await storedEvent(res.eventId)).toMatchObject({ status: 'ignored', paymentId: null, reason: 'the object was not created by this installation' });
    });

    it('an event whose object carries no installation id is ignored', async () => {
      const id = await paymentIn('pending', { providerPaymentRef: 'pi_no_installation' });
      const res = await deliver('payment_intent.succeeded', intent('pi_no_installation', id, { amount_received: 1000, metadata: { checkout_payment_id: String(id) } }));
      expect(res.body).toEqual({ received: true, outcome: 'ignored' });
      expect(await row(id)).toMatchObject({ status: 'pending' });
    });

    it('a payment intent this service never created does not complete a pending record', async () => {
      const id = await paymentIn('pending', { providerPaymentRef: 'pi_ours_pending' });
      const res = await deliver('payment_intent.succeeded', intent('pi_made_elsewhere', id, { amount_received: 1000 }));
      expect(res.body).toEqual({ received: true, outcome: 'rejected' });
      expect(await row(id)).toMatchObject({ status: 'pending', provider_payment_ref: 'pi_ours_pending', amount_received: null });
    });

    it('a first invoice of 1 never completes a one-time 10.00 USD record, nor records 1 as received', async () => {
      const id = await paymentIn('pending', { providerPaymentRef: 'pi_one_time_target' });
      const attack = invoice('in_attack', 'sub_attack', { billing_reason: 'subscription_create', amount_paid: 1, amount_due: 1, currency: 'usd' });
      (attack.parent.subscription_details as { metadata: Record<string, string> }).metadata = ours({ checkout_payment_id: String(id) });
      const res = await deliver('invoice.paid', attack);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ received: true, outcome: 'rejected' });
      expect(await row(id)).toMatchObject({ status: 'pending', amount_received: null, provider_subscription_ref: null });
      expect(await storedEvent(res.eventId)).toMatchObject({ status: 'rejected', reason: 'the record is not a subscription payment' });
    });

    it('a first invoice for another amount than the recurring amount plus setup fee is rejected', async () => {
      const id = await paymentIn('processing', { providerPaymentRef: 'seti_first_amount', providerCustomerRef: 'cus_first_amount', providerSubscriptionRef: 'sub_first_amount' }, [1, 1]);
      const res = await deliver('invoice.paid', invoice('in_first_amount', 'sub_first_amount', { billing_reason: 'subscription_create', amount_paid: 1 }));
      expect(res.body).toEqual({ received: true, outcome: 'rejected' });
      expect(await row(id)).toMatchObject({ status: 'processing', amount_received: null });
    });

    it.each([
      ['a renewal', { billing_reason: 'subscription_cycle', amount_paid: 2_147_483_648, amount_due: 2_147_483_648 }],
      ['a first invoice', { billing_reason: 'subscription_create', amount_paid: 2_147_483_648, amount_due: 2_147_483_648 }],
    ])('%s with an amount beyond the columns is rejected (200), never a 500 left for the provider to retry', async (_what, fields) => {
      const parent = await paymentIn('completed', { providerPaymentRef: `seti_huge_${fields.billing_reason}`, providerSubscriptionRef: `sub_huge_${fields.billing_reason}` }, [1, 1]);
      const res = await deliver('invoice.paid', invoice(`in_huge_${fields.billing_reason}`, `sub_huge_${fields.billing_reason}`, fields));
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ received: true, outcome: 'rejected' });
      expect(await storedEvent(res.eventId)).toMatchObject({ status: 'rejected', reason: 'the invoice amount is out of range' });
      expect(await t.dataSource.query(`SELECT id FROM ${table.payments} WHERE parent_payment_id = ?`, [parent])).toEqual([]);
    });
  });

  describe('concurrency', () => {
    it('concurrent deliveries of one renewal invoice create one row', async () => {
      const parent = await paymentIn('completed', { providerPaymentRef: 'seti_concurrent', providerSubscriptionRef: 'sub_concurrent' }, [1, 1]);
      const results = await Promise.all(Array.from({ length: 6 }, () => deliver('invoice.paid', invoice('in_concurrent', 'sub_concurrent'))));
      expect(results.every((res) => res.status === 200)).toBe(true);
      const renewals = await t.dataSource.query(`SELECT id, status FROM ${table.payments} WHERE parent_payment_id = ?`, [parent]);
      expect(renewals).toHaveLength(1);
      expect(renewals[0].status).toBe('completed');
    });
  });

  describe('exactly once', () => {
    it('twenty simultaneous deliveries of one event: one applies it, nineteen answer duplicate', async () => {
      const id = await paymentIn('pending', { providerPaymentRef: 'pi_twenty' });
      const { body, signature } = signedEvent('payment_intent.succeeded', intent('pi_twenty', id, { amount_received: 1000 }), secret, { id: nextEventId() });
      const results = await Promise.all(Array.from({ length: 20 }, () => post(body, { 'Gateway-A-Signature': signature })));
      expect(results.map((res) => res.status)).toEqual(Array(20).fill(200));
      const outcomes = results.map((res) => res.body.outcome as string).sort();
      expect(outcomes).toEqual([...Array(19).fill('duplicate'), 'processed']);
      expect((await logEvents(id)).filter((event) => event === 'status_changed')).toHaveLength(1);
      expect(await row(id)).toMatchObject({ status: 'completed' });
    });

    it('a delivery arriving while another applies the event waits for it, and takes over when that attempt fails', async () => {
      const id = await paymentIn('pending', { providerPaymentRef: 'pi_takeover' });
      const { body } = signedEvent('payment_intent.succeeded', intent('pi_takeover', id, { amount_received: 1000 }), secret, { id: nextEventId() });
      // The first attempt fails after a while (its effect hits a broken database), the second waits and then applies.
      const transition = payments.transition.bind(payments);
      jest.spyOn(payments, 'transition').mockImplementationOnce(async () => {
        await new Promise((resolve) => setTimeout(resolve, 150));
        throw connectionLost();
      }).mockImplementation(transition);
      const eventId = JSON.parse(body).id as string;
      const first = post(body, { 'Gateway-A-Signature': signPayload(body, secret) }).then((res) => res);
      // The second delivery arrives once the first has claimed the event.
      for (let i = 0; i < 100 && (await storedEvent(eventId))?.status !== 'processing'; i += 1) await new Promise((resolve) => setTimeout(resolve, 10));
      const second = post(body, { 'Gateway-A-Signature': signPayload(body, secret) });
      const [a, b] = await Promise.all([first, second]);
      expect(a.status).toBe(503);
      expect(b.body).toEqual({ received: true, outcome: 'processed' });
      expect(await row(id)).toMatchObject({ status: 'completed' });
    });
    describe('the claim is a lease, renewed while the event is applied', () => {
      let intake: WebhookIntakeService;
      let timing: WebhookIntakeService['timing'];
      beforeEach(() => {
        intake = t.app.get(WebhookIntakeService);
        timing = intake.timing;
      });
      afterEach(() => {
        intake.timing = timing;
      });

      it('an apply slower than the lease keeps its claim: a delivery after the first lease waits and never applies it twice', async () => {
        intake.timing = { claimTtlMs: 300, waitForClaimMs: 250, pollMs: 20 };
        const id = await paymentIn('pending', { providerPaymentRef: 'pi_slow_lease' });
        const { body } = signedEvent('payment_intent.succeeded', intent('pi_slow_lease', id, { amount_received: 1000 }), secret, { id: nextEventId() });
        const eventId = JSON.parse(body).id as string;
        const transition = payments.transition.bind(payments);
        jest.spyOn(payments, 'transition').mockImplementationOnce(async (...args) => {
          await new Promise((resolve) => setTimeout(resolve, 1000));
          return transition(...args);
        });
        const first = post(body, { 'Gateway-A-Signature': signPayload(body, secret) }).then((res) => res); // sent now, not when awaited
        for (let i = 0; i < 100 && (await storedEvent(eventId))?.status !== 'processing'; i += 1) await new Promise((resolve) => setTimeout(resolve, 10));
        const claimedUntil = (await storedEvent(eventId))!.claimExpiresAt!.getTime();
        // Two leases later the claim has been renewed, so a second delivery cannot take it.
        await new Promise((resolve) => setTimeout(resolve, 600));
        expect((await storedEvent(eventId))!.claimExpiresAt!.getTime()).toBeGreaterThan(claimedUntil);
        const second = await post(body, { 'Gateway-A-Signature': signPayload(body, secret) });
        expect(second.status).toBe(503);
        expectWpError(second.body, 'checkout_unavailable', 503);
        expect((await first).body).toEqual({ received: true, outcome: 'processed' });
        expect((await logEvents(id)).filter((event) => event === 'status_changed')).toHaveLength(1);
        expect(await storedEvent(eventId)).toMatchObject({ status: 'processed', claimedBy: null, claimExpiresAt: null });
      });

      it('a claim whose holder died (killed, or its database node cut off) lapses within the lease; a waiting delivery then applies the event', async () => {
        intake.timing = { claimTtlMs: 300, waitForClaimMs: 2000, pollMs: 20 };
        const id = await paymentIn('pending', { providerPaymentRef: 'pi_dead_holder' });
        const { body } = signedEvent('payment_intent.succeeded', intent('pi_dead_holder', id, { amount_received: 1000 }), secret, { id: nextEventId() });
        const eventId = JSON.parse(body).id as string;
        const events = t.app.get(WebhookEventRepository);
        const stored = await events.recordEventOnce({ provider: 'gateway_a', eventId, type: 'payment_intent.succeeded', mode: 'test' }, undefined, new Date(), {
          owner: 'dead-instance:1:abcd',
          expiresAt: new Date(Date.now() + 300),
        });
        expect(stored.recorded).toBe(true);
        const started = Date.now();
        const res = await post(body, { 'Gateway-A-Signature': signPayload(body, secret) });
        expect(res.body).toEqual({ received: true, outcome: 'processed' });
        expect(Date.now() - started).toBeGreaterThanOrEqual(200);
        expect(await row(id)).toMatchObject({ status: 'completed' });
      });
    });
  });

  describe('with the checkout routes, on the fake\'s own objects', () => {
    const fakeObject = (id: string) => ({ ...bed.fake.resources.get(id)! }) as Record<string, unknown>;

    it('one-time: the webhook completes the payment the intent route created; the checkout route then agrees', async () => {
      const record = await createRecord(t, form);
      const id = record.sync.payment_id;
      const created = await createIntent(t, record);
      expect(created.status).toBe(200);
      const intentId = created.body.intent_id as string;
      bed.fake.resources.setIntentStatus(intentId, 'succeeded');

      const res = await deliver('payment_intent.succeeded', fakeObject(intentId));
      expect(res.body).toEqual({ received: true, outcome: 'processed' });
      expect(await row(id)).toMatchObject({ status: 'completed', provider_payment_ref: intentId });
      expect(Number((await row(id)).amount_received)).toBe(1000);

      const done = await finishCheckout(t, record, { intent_id: intentId });
      expect(done.status).toBe(200);
      expect(done.body).toMatchObject({ status: 'completed', payment_id: id });
      expect((await logEvents(id)).filter((event) => event === 'status_changed')).toHaveLength(1);
    });

    it('subscription: setup succeeded → subscription created → its events and first invoice complete the payment', async () => {
      const record = await createRecord(t, form, { plan_index: 1, price_index: 1 });
      const id = record.sync.payment_id;
      const created = await createIntent(t, record);
      expect(created.body).toMatchObject({ intent_type: 'setup_intent' });
      const setupId = created.body.intent_id as string;
      const client = await gatewayClient(t);
      expect((await client.setupIntents.confirm(setupId, { payment_method: 'pm_card_visa' })).status).toBe('succeeded');

      expect((await deliver('setup_intent.succeeded', fakeObject(setupId))).body).toEqual({ received: true, outcome: 'processed' });
      const afterSetup = await row(id);
      expect(afterSetup).toMatchObject({ status: 'processing', provider_subscription_ref: expect.stringMatching(/^sub_/) });
      const subscription = fakeObject(afterSetup.provider_subscription_ref as string);
      expect(subscription.metadata).toEqual(ours({ checkout_payment_id: String(id) }));
      const invoiceObject = fakeObject(subscription.latest_invoice as string);

      expect((await deliver('customer.subscription.created', subscription)).body.outcome).toBe('processed');
      expect(await row(id)).toMatchObject({ subscription_status: 'active', status: 'processing' });

      // The invoice's own payment intent carries no checkout metadata: nothing to do for it.
      const [paymentOfInvoice] = bed.fake.resources.list('invoice_payment').filter((entry) => entry.invoice === invoiceObject.id);
      const invoicePayment = (paymentOfInvoice.payment as { payment_intent: string }).payment_intent;
      expect((await deliver('payment_intent.succeeded', fakeObject(invoicePayment))).body).toEqual({ received: true, outcome: 'ignored' });

      expect((await deliver('invoice.paid', invoiceObject)).body).toEqual({ received: true, outcome: 'processed' });
      const paid = await row(id);
      expect(paid).toMatchObject({ status: 'completed' });
      expect(Number(paid.amount_received)).toBe(999);
      expect(await t.dataSource.query(`SELECT id FROM ${table.payments} WHERE parent_payment_id = ?`, [id])).toEqual([]);

      const done = await finishCheckout(t, record);
      expect(done.body).toMatchObject({ status: 'completed', payment_id: id });
    });
  });

  it('is documented with its operationId, body schema and answers', async () => {
    const res = await request(t.http).get('/docs-json');
    const operation = res.body.paths['/webhook/gateway-a-callback/{mode}'].post;
    expect(operation.operationId).toBe('webhookGatewayACallback');
    expect(Object.keys(operation.responses)).toEqual(expect.arrayContaining(['200', '400', '404', '413', '503']));
    expect(JSON.stringify(operation.requestBody)).toContain('GatewayAEventEnvelopeDto');
    expect(operation.parameters).toEqual(expect.arrayContaining([expect.objectContaining({ name: 'mode', in: 'path', schema: expect.objectContaining({ enum: ['test', 'live'] }) })]));
  });
});
