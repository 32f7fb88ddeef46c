import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Stripe from 'stripe';
import { type FakeGatewayA, signedEvent, startFakeGatewayA } from '../../fakes/gateway-a/index.js';
import { answerProblems, eventProblems, exchangeProblems, objectProblems, operationOf, reference, requestProblems } from './gateway-a-contract.js';

/**
 * The fake gateway A against the provider's reference at the pinned API version: every operation
 * the service (or a test acting as the payer's browser) uses is driven once through the real SDK,
 * and every request and answer the fake recorded must validate against the schemas generated
 * from the SDK's type declarations (./schemas). A field the fake invents, one it leaves out that
 * the reference requires, a wrong type or an enum value the reference lacks fails here.
 */
describe('fake gateway A conforms to the reference (API version pinned by the SDK)', () => {
  let fake: FakeGatewayA;
  let stripe: Stripe.Stripe;

  beforeAll(async () => {
    fake = await startFakeGatewayA();
    stripe = new Stripe('sk_test_contractSpecKey0001', { host: '127.0.0.1', port: fake.port, protocol: 'http', maxNetworkRetries: 0, telemetry: false });
  });
  afterAll(() => fake.stop());

  it('the committed schemas are those of the installed SDK (regenerate with npm run contracts:gateway-a)', () => {
    const installed = JSON.parse(readFileSync(join(require.resolve('stripe'), '..', '..', 'package.json'), 'utf8')) as { version: string };
    expect(reference.source).toMatchObject({ sdk_version: installed.version, api_version: Stripe.API_VERSION });
  });

  it('answers every operation of the one-time, subscription and endpoint flows as the reference says', async () => {
    const metadata = { checkout_installation_id: 'inst_1', checkout_payment_id: '7' };
    // The connect token exchange, as the service posts it (without the SDK).
    const grant = fake.issueOAuthCode();
    const token = await fetch(new URL('/oauth/token', fake.url), {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'authorization_code', code: grant.code }),
    });
    expect(token.status).toBe(200);
    await stripe.accounts.retrieve(null);
    await stripe.balance.retrieve();
    const customer = await stripe.customers.create({ email: 'payer@example.test', name: 'Pat Payer', metadata }, { idempotencyKey: 'c-1' });
    await stripe.customers.create({ email: 'payer@example.test', name: 'Pat Payer', metadata }, { idempotencyKey: 'c-1' }); // replayed
    await stripe.customers.retrieve(customer.id);
    await stripe.customers.update(customer.id, { name: 'Pat' });
    await stripe.customers.list({ email: 'payer@example.test', limit: 1 });
    const product = await stripe.products.create({ name: 'Club', metadata });
    await stripe.products.retrieve(product.id);
    const price = await stripe.prices.create({ currency: 'eur', unit_amount: 999, product: product.id, recurring: { interval: 'month', interval_count: 1 }, metadata });
    await stripe.prices.retrieve(price.id);

    // One-time payment: created, confirmed by the payer, read back; an admin charge; a canceled one.
    const intent = await stripe.paymentIntents.create({
      amount: 1000,
      currency: 'usd',
      customer: customer.id,
      capture_method: 'automatic',
      allowed_payment_method_types: ['card'],
      application_fee_amount: 20,
      metadata,
    });
    await stripe.paymentIntents.update(intent.id, { description: 'Order 7' });
    await stripe.paymentIntents.confirm(intent.id, { payment_method: 'pm_card_visa' });
    await stripe.paymentIntents.retrieve(intent.id);
    // Its charge, expanded as the checkout, reconcile and webhook reads of the card ask for it.
    const withCharge = await stripe.paymentIntents.retrieve(intent.id, { expand: ['latest_charge'] });
    expect(withCharge.latest_charge).toMatchObject({ object: 'charge', payment_intent: intent.id, payment_method_details: { type: 'card', card: { brand: 'visa', last4: '4242' } } });
    // Refunds of it: partial (replayed under its key), the rest with the application fee, read back; then refused as already refunded.
    const refundMetadata = { checkout_installation_id: 'inst_1', checkout_refund_id: '3', checkout_payment_id: '7' };
    const refund = await stripe.refunds.create({ payment_intent: intent.id, amount: 400, reason: 'requested_by_customer', metadata: refundMetadata }, { idempotencyKey: 'r-1' });
    await stripe.refunds.create({ payment_intent: intent.id, amount: 400, reason: 'requested_by_customer', metadata: refundMetadata }, { idempotencyKey: 'r-1' }); // replayed
    await expect(stripe.refunds.create({ payment_intent: intent.id, amount: 700 })).rejects.toMatchObject({ statusCode: 400, code: 'amount_too_large' });
    await stripe.refunds.create({ payment_intent: intent.id, refund_application_fee: true, metadata: refundMetadata }, { idempotencyKey: 'r-2' });
    await expect(stripe.refunds.create({ payment_intent: intent.id, amount: 1 })).rejects.toMatchObject({ statusCode: 400, code: 'charge_already_refunded' });
    await stripe.refunds.retrieve(refund.id);
    await stripe.refunds.list({ payment_intent: intent.id, limit: 100 });
    const settled = await stripe.paymentIntents.create({ amount: 1999, currency: 'usd', payment_method: 'pm_card_visa', confirm: true, allowed_payment_method_types: ['card'], metadata });
    const declined = await stripe.paymentIntents.create({ amount: 500, currency: 'usd', payment_method: 'pm_card_chargeDeclined', allowed_payment_method_types: ['card'] });
    await expect(stripe.paymentIntents.confirm(declined.id)).rejects.toMatchObject({ type: 'StripeCardError' });
    const manual = await stripe.paymentIntents.create({ amount: 700, currency: 'usd', capture_method: 'manual', payment_method: 'pm_card_visa', confirm: true });
    await stripe.paymentIntents.capture(manual.id);
    const open = await stripe.paymentIntents.create({ amount: 300, currency: 'eur', automatic_payment_methods: { enabled: true } });
    await stripe.paymentIntents.cancel(open.id);
    // What the hosted page's payment element pays with: cards with Link; a regional wallet (automatic, other methods' types excluded).
    const linked = await stripe.paymentIntents.create({ amount: 1000, currency: 'usd', capture_method: 'automatic', allowed_payment_method_types: ['card', 'link'], metadata });
    await stripe.paymentIntents.confirm(linked.id, { payment_method: 'pm_link' });
    expect((await stripe.paymentIntents.retrieve(linked.id, { expand: ['latest_charge'] })).latest_charge).toMatchObject({ payment_method_details: { type: 'link' } });
    const regional = await stripe.paymentIntents.create({
      amount: 1000,
      currency: 'eur',
      capture_method: 'automatic',
      automatic_payment_methods: { enabled: true },
      excluded_payment_method_types: ['card', 'sepa_debit', 'us_bank_account'],
      metadata,
    });
    // A card is no regional wallet: the intent refuses it, as the gateway refuses a type its intent does not offer.
    await expect(stripe.paymentIntents.confirm(regional.id, { payment_method: 'pm_card_visa' })).rejects.toMatchObject({ statusCode: 400, code: 'payment_intent_incompatible_payment_method' });
    await stripe.paymentIntents.confirm(regional.id, { payment_method: 'pm_alipay' });
    const regionalSetup = await stripe.setupIntents.create({ customer: customer.id, usage: 'off_session', automatic_payment_methods: { enabled: true }, excluded_payment_method_types: ['card'], metadata });
    await expect(stripe.setupIntents.confirm(regionalSetup.id, { payment_method: 'pm_card_visa' })).rejects.toMatchObject({ statusCode: 400, code: 'setup_intent_invalid_parameter' });

    // After the payment: a refund and a dispute made at the provider, read back as the ledger sweep and `reconcile --payment` read them.
    const since = Math.floor(Date.now() / 1000) - 300;
    const dashboardRefund = fake.moneyAfter.dashboardRefund(settled.id, { amount: 300 });
    await stripe.refunds.list({ payment_intent: settled.id, limit: 100 });
    await stripe.refunds.retrieve(dashboardRefund.id as string);
    const dispute = fake.moneyAfter.openDispute(settled.id, { amount: 700 });
    fake.moneyAfter.setDisputeStatus(dispute.id as string, 'lost');
    await stripe.disputes.list({ payment_intent: settled.id, limit: 100 });
    await stripe.disputes.retrieve(dispute.id as string);
    const events = await stripe.events.list({ types: ['charge.refunded', 'charge.refund.updated', 'charge.dispute.created', 'charge.dispute.updated', 'charge.dispute.closed'], created: { gte: since }, limit: 2 });
    expect(events.data.map((event) => event.type)).toEqual(['charge.dispute.closed', 'charge.dispute.created']);
    const older = await stripe.events.list({ types: ['charge.refunded', 'charge.dispute.closed', 'charge.dispute.created'], created: { gte: since }, limit: 2, starting_after: events.data[1].id });
    // The dashboard's refund, then the API's (every refund records charge.refunded, whoever made it).
    expect(older.data.map((event) => event.type)).toEqual(['charge.refunded', 'charge.refunded']);

    // Subscription: setup intent, subscription with a setup fee and the fee percent, renewal.
    const setup = await stripe.setupIntents.create({ customer: customer.id, usage: 'off_session', allowed_payment_method_types: ['card'], metadata: { ...metadata, checkout_purpose: 'subscription' } });
    await stripe.setupIntents.confirm(setup.id, { payment_method: 'pm_card_visa' });
    await stripe.setupIntents.retrieve(setup.id);
    const openSetup = await stripe.setupIntents.create({ customer: customer.id, usage: 'off_session' });
    await stripe.setupIntents.cancel(openSetup.id);
    const subscription = await stripe.subscriptions.create({
      customer: customer.id,
      items: [{ price: price.id }],
      add_invoice_items: [{ price_data: { currency: 'eur', product: product.id, unit_amount: 500 } }],
      default_payment_method: 'pm_card_visa',
      application_fee_percent: 2,
      metadata,
    });
    const expanded = await stripe.subscriptions.retrieve(subscription.id, { expand: ['latest_invoice'] });
    const firstInvoice = expanded.latest_invoice as Stripe.Invoice;
    await stripe.invoices.retrieve(firstInvoice.id);
    await stripe.invoicePayments.list({ invoice: firstInvoice.id, expand: ['data.payment.payment_intent'] });
    const renewal = fake.resources.renewSubscription(subscription.id);
    await stripe.invoices.retrieve(renewal.id as string);
    await stripe.invoicePayments.list({ invoice: renewal.id as string, status: 'paid', expand: ['data.payment.payment_intent'] });
    await stripe.subscriptions.update(subscription.id, { metadata: { note: 'x' } });
    await stripe.subscriptions.cancel(subscription.id);

    // The managed webhook endpoint: created, read, updated, listed, deleted.
    const endpoint = await stripe.webhookEndpoints.create({
      url: 'https://shop.example/wp-json/checkout/v1/webhook/gateway-a-callback/test',
      enabled_events: ['payment_intent.succeeded', 'invoice.paid'],
      api_version: Stripe.API_VERSION as Stripe.WebhookEndpointCreateParams.ApiVersion,
      metadata: { checkout_managed: 'true' },
    });
    await stripe.webhookEndpoints.retrieve(endpoint.id);
    await stripe.webhookEndpoints.update(endpoint.id, { enabled_events: ['payment_intent.succeeded'] });
    await stripe.webhookEndpoints.list({ limit: 100 });
    await stripe.webhookEndpoints.del(endpoint.id);

    // Errors: a missing object, an injected 5xx.
    await expect(stripe.paymentIntents.retrieve('pi_missing')).rejects.toMatchObject({ statusCode: 404 });
    fake.fail({ path: '/v1/customers', status: 500 });
    await expect(stripe.customers.create({ email: 'x@example.test' })).rejects.toMatchObject({ statusCode: 500 });

    const operations = new Set(fake.exchanges.map((record) => operationOf(record.method, record.path)?.operation));
    expect([...operations].sort()).toEqual(reference.operations.map((op) => op.operation).sort());
    expect(exchangeProblems(fake.exchanges)).toEqual([]);

    // A request the reference refuses is refused by the fake too, with the reference's error body.
    await expect(stripe.paymentIntents.create({ currency: 'usd' } as Stripe.PaymentIntentCreateParams)).rejects.toMatchObject({ statusCode: 400, param: 'amount' });
    const refused = fake.exchanges.at(-1)!;
    expect(requestProblems(refused)).toEqual(['POST /v1/payment_intents params: lacks amount, which the reference requires']);
    expect(answerProblems(refused)).toEqual([]);
  });

  it('the objects the fake keeps, as events deliver them, conform too', () => {
    for (const event of fake.moneyAfter.recordedEvents()) expect(eventProblems(event)).toEqual([]);
    for (const kind of ['payment_intent', 'setup_intent', 'invoice', 'subscription'] as const) {
      const type = { payment_intent: 'payment_intent.succeeded', setup_intent: 'setup_intent.succeeded', invoice: 'invoice.paid', subscription: 'customer.subscription.updated' }[kind];
      for (const object of fake.resources.list(kind)) {
        const { body } = signedEvent(type, object, 'whsec_contract');
        expect(eventProblems(JSON.parse(body))).toEqual([]);
      }
    }
  });

  it('catches what it is meant to catch: an invented field, a missing one, a wrong type, an unknown enum value, a bad request', () => {
    const intent = fake.resources.list('payment_intent')[0];
    expect(objectProblems('PaymentIntent', intent)).toEqual([]);
    expect(objectProblems('PaymentIntent', { ...intent, invented: 1 })).toEqual(['PaymentIntent: has invented, which the reference lacks']);
    const { amount_received: _dropped, ...missing } = intent;
    expect(objectProblems('PaymentIntent', missing)).toEqual(['PaymentIntent: lacks amount_received, which the reference requires']);
    expect(objectProblems('PaymentIntent', { ...intent, amount: '1000' })).toEqual(['PaymentIntent/amount: must be number']);
    expect(objectProblems('PaymentIntent', { ...intent, status: 'paid' }).join()).toContain('PaymentIntent/status: must be one of');
    const invoice = fake.resources.list('invoice')[0];
    expect(objectProblems('Invoice', { ...invoice, application_fee_amount: 20 })).toEqual(['Invoice: has application_fee_amount, which the reference lacks']);
    expect(objectProblems('Account', { id: 'acct_1', object: 'account', livemode: false }).join()).toContain('has livemode, which the reference lacks');

    const request = (method: string, path: string, body: Record<string, unknown>) =>
      ({ method, path, body, query: {}, headers: {}, rawBody: '', stripeVersion: Stripe.API_VERSION, status: 200 }) as Parameters<typeof requestProblems>[0];
    expect(requestProblems(request('POST', '/v1/payment_intents', { amount: '1000', currency: 'usd' }))).toEqual([]);
    expect(requestProblems(request('POST', '/v1/payment_intents', { currency: 'usd' }))).toEqual(['POST /v1/payment_intents params: lacks amount, which the reference requires']);
    expect(requestProblems(request('POST', '/v1/payment_intents', { amount: '1000', currency: 'usd', colour: 'red' }))).toEqual([
      'POST /v1/payment_intents params: has colour, which the reference lacks',
    ]);
    expect(requestProblems(request('POST', '/v1/payment_intents', { amount: '1000', currency: 'usd', capture_method: 'later' })).join()).toContain('capture_method: must be one of');
    expect(requestProblems(request('POST', '/v1/payment_intents', { amount: 'ten', currency: 'usd' })).join()).toContain('/amount: must match pattern');
    expect(requestProblems(request('POST', '/v1/payment_intents/pi_1/refund', {}))).toEqual(['POST /v1/payment_intents/pi_1/refund: no such operation in the reference (or not one this project uses)']);
    expect(requestProblems({ ...request('GET', '/v1/balance', {}), stripeVersion: '2020-08-27' })).toEqual([`GET /v1/balance: Stripe-Version 2020-08-27 is not the pinned ${Stripe.API_VERSION}`]);
    expect(answerProblems({ ...request('GET', '/v1/balance', {}), answer: { object: 'balance' } }).join()).toContain('lacks available');
  });
});
