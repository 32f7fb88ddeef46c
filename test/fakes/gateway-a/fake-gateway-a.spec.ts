import Stripe from 'stripe';
import { parseStripeForm } from './form-body.js';
import { type FakeGatewayA, startFakeGatewayA } from './fake-gateway-a.js';
import { buildEvent, signPayload } from './sign-event.js';

/** The fake is only useful if the real SDK talks to it as it would to the gateway. */
describe('fake gateway A (through the stripe SDK)', () => {
  let fake: FakeGatewayA;
  let stripe: Stripe.Stripe;
  const key = 'sk_test_fakeGatewaySpecKey0001';

  beforeAll(async () => {
    fake = await startFakeGatewayA();
    stripe = new Stripe(key, { host: '127.0.0.1', port: fake.port, protocol: 'http', maxNetworkRetries: 0, telemetry: false });
  });
  afterAll(() => fake.stop());
  beforeEach(() => {
    fake.clearRequests();
    fake.clearFailures();
  });

  it('parses the nested form encoding the SDK sends', () => {
    expect(parseStripeForm('a=1&metadata[x]=y%20z&items[0][price]=p_1&items[1][price]=p_2&enabled_events[]=a.b&enabled_events[]=c.d&n=a+b')).toEqual({
      a: '1',
      metadata: { x: 'y z' },
      items: [{ price: 'p_1' }, { price: 'p_2' }],
      enabled_events: ['a.b', 'c.d'],
      n: 'a b',
    });
  });

  it('records method, path, headers and the parsed body, and answers with object fields', async () => {
    const customer = await stripe.customers.create({ email: 'payer@example.test', metadata: { checkout: '1' } }, { idempotencyKey: 'cus-key-1' });
    expect(customer).toMatchObject({ object: 'customer', email: 'payer@example.test', metadata: { checkout: '1' }, livemode: false });
    const [recorded] = fake.requestsTo('POST', '/v1/customers');
    expect(recorded).toMatchObject({ apiKey: key, idempotencyKey: 'cus-key-1', body: { email: 'payer@example.test', metadata: { checkout: '1' } } });
    expect(recorded.stripeVersion).toBe(Stripe.API_VERSION);
    expect(await stripe.customers.retrieve(customer.id)).toMatchObject({ id: customer.id });
  });

  it('replays the first answer for a repeated Idempotency-Key and refuses other parameters under it', async () => {
    const first = await stripe.products.create({ name: 'Plan' }, { idempotencyKey: 'prod-key' });
    const second = await stripe.products.create({ name: 'Plan' }, { idempotencyKey: 'prod-key' });
    expect(second.id).toBe(first.id);
    expect(fake.resources.list('product').filter((p) => p.id === first.id)).toHaveLength(1);
    expect(fake.requests.at(-1)?.replayed).toBe(true);
    await expect(stripe.products.create({ name: 'Other' }, { idempotencyKey: 'prod-key' })).rejects.toMatchObject({ type: 'StripeIdempotencyError' });
  });

  it('answers the gateway error shape with the right status, which the SDK maps to its error classes', async () => {
    await expect(stripe.paymentIntents.retrieve('pi_missing')).rejects.toMatchObject({ type: 'StripeInvalidRequestError', statusCode: 404, code: 'resource_missing' });
    await expect(stripe.paymentIntents.create({ currency: 'usd' } as Stripe.PaymentIntentCreateParams)).rejects.toMatchObject({
      statusCode: 400,
      code: 'parameter_missing',
      param: 'amount',
    });
    await expect(new Stripe('sk_test_unknownButWellFormed1', { host: '127.0.0.1', port: fake.port, protocol: 'http' }).customers.list()).resolves.toBeDefined();
    fake.revokeKey('sk_test_revokedKeyForTheSpec1');
    const revoked = new Stripe('sk_test_revokedKeyForTheSpec1', { host: '127.0.0.1', port: fake.port, protocol: 'http' });
    await expect(revoked.customers.list()).rejects.toMatchObject({ type: 'StripeAuthenticationError', statusCode: 401 });
  });

  it('runs payment intents through their statuses, with the application fee and test control', async () => {
    const customer = await stripe.customers.create({ email: 'pi@example.test' });
    const intent = await stripe.paymentIntents.create({
      amount: 1999,
      currency: 'usd',
      customer: customer.id,
      application_fee_amount: 40,
      automatic_payment_methods: { enabled: true },
      metadata: { checkout_payment_id: '7' },
    });
    expect(intent).toMatchObject({ status: 'requires_payment_method', amount: 1999, currency: 'usd', application_fee_amount: 40, metadata: { checkout_payment_id: '7' } });
    expect(intent.client_secret).toMatch(new RegExp(`^${intent.id}_secret_`));
    const confirmed = await stripe.paymentIntents.confirm(intent.id, { payment_method: 'pm_card_visa' });
    expect(confirmed).toMatchObject({ status: 'succeeded', amount_received: 1999 });

    const threeDs = await stripe.paymentIntents.create({ amount: 500, currency: 'eur', payment_method: 'pm_card_authenticationRequired', confirm: true });
    expect(threeDs.status).toBe('requires_action');
    fake.resources.setIntentStatus(threeDs.id, 'succeeded');
    expect(await stripe.paymentIntents.retrieve(threeDs.id)).toMatchObject({ status: 'succeeded', amount_received: 500 });

    await expect(stripe.paymentIntents.create({ amount: 500, currency: 'eur', payment_method: 'pm_card_chargeDeclined', confirm: true })).rejects.toMatchObject({
      type: 'StripeCardError',
      statusCode: 402,
      code: 'card_declined',
    });
    await expect(stripe.paymentIntents.create({ amount: 100, currency: 'usd', application_fee_amount: 101 })).rejects.toMatchObject({ statusCode: 400 });
  });

  it('creates setup intents, prices and subscriptions with application_fee_percent', async () => {
    const customer = await stripe.customers.create({ email: 'sub@example.test' });
    const setup = await stripe.setupIntents.create({ customer: customer.id, usage: 'off_session', allowed_payment_method_types: ['card'] });
    expect(setup).toMatchObject({ object: 'setup_intent', status: 'requires_payment_method' });
    expect(await stripe.setupIntents.confirm(setup.id, { payment_method: 'pm_card_visa' })).toMatchObject({ status: 'succeeded', payment_method: 'pm_card_visa' });
    const product = await stripe.products.create({ name: 'Monthly' });
    const price = await stripe.prices.create({ product: product.id, unit_amount: 999, currency: 'usd', recurring: { interval: 'month', interval_count: 1 } });
    expect(price).toMatchObject({ type: 'recurring', recurring: { interval: 'month', interval_count: 1 } });
    const subscription = await stripe.subscriptions.create({
      customer: customer.id,
      items: [{ price: price.id }],
      default_payment_method: 'pm_card_visa',
      application_fee_percent: 2,
      expand: ['latest_invoice.confirmation_secret'],
    });
    expect(subscription).toMatchObject({ status: 'active', application_fee_percent: 2 });
    expect(fake.requestsTo('POST', '/v1/subscriptions')[0].body).toMatchObject({ items: [{ price: price.id }], application_fee_percent: '2' });
    const invoice = subscription.latest_invoice as Stripe.Invoice;
    expect(invoice).toMatchObject({ status: 'paid', parent: { subscription_details: { subscription: subscription.id } } });
    // The invoice's payments are only included on request (or listed), as on the real API.
    expect(invoice).not.toHaveProperty('payments');
    const withPayments = await stripe.invoices.retrieve(invoice.id, { expand: ['payments'] });
    const intentId = withPayments.payments!.data[0].payment.payment_intent as string;
    // The fee percent of the subscription is charged with the invoice's payment (the invoice has no fee field).
    expect(await stripe.paymentIntents.retrieve(intentId)).toMatchObject({ status: 'succeeded', amount: 999, application_fee_amount: 20 });
    expect(invoice.confirmation_secret?.client_secret).toMatch(new RegExp(`^${intentId}_secret_`));
  });

  describe('add_invoice_items (one-off items on the first invoice only)', () => {
    const monthly = async (currency = 'eur', unitAmount = 999) => {
      const customer = await stripe.customers.create({ email: `setup-${currency}@example.test` });
      const product = await stripe.products.create({ name: 'Club' });
      const price = await stripe.prices.create({ product: product.id, unit_amount: unitAmount, currency, recurring: { interval: 'month', interval_count: 1 } });
      return { customer: customer.id, product: product.id, price: price.id };
    };
    const lineAmounts = (invoice: Stripe.Invoice) => invoice.lines.data.map((line) => [line.parent?.type, line.amount]);

    it('adds price_data items to the first invoice: lines, totals, payment and fee cover them; renewals carry the items only', async () => {
      const { customer, product, price } = await monthly();
      const subscription = await stripe.subscriptions.create({
        customer,
        items: [{ price }],
        add_invoice_items: [{ price_data: { currency: 'eur', product, unit_amount: 500 } }],
        default_payment_method: 'pm_card_visa',
        application_fee_percent: 2,
        expand: ['latest_invoice'],
      });
      expect(fake.requestsTo('POST', '/v1/subscriptions')[0].body).toMatchObject({ add_invoice_items: [{ price_data: { currency: 'eur', product, unit_amount: '500' } }] });
      expect(subscription.status).toBe('active');
      const first = subscription.latest_invoice as Stripe.Invoice;
      expect(first).toMatchObject({ billing_reason: 'subscription_create', status: 'paid', amount_due: 1499, amount_paid: 1499, amount_remaining: 0, subtotal: 1499, total: 1499 });
      expect(first).not.toHaveProperty('application_fee_amount');
      expect(lineAmounts(first)).toEqual([
        ['subscription_item_details', 999],
        ['invoice_item_details', 500],
      ]);
      const setupLine = first.lines.data[1];
      expect(setupLine.pricing?.price_details).toMatchObject({ product });
      expect(setupLine.parent?.invoice_item_details).toMatchObject({ invoice_item: expect.stringMatching(/^ii_/), subscription: subscription.id });
      const inlinePrice = await stripe.prices.retrieve(setupLine.pricing!.price_details!.price as string);
      expect(inlinePrice).toMatchObject({ type: 'one_time', unit_amount: 500, currency: 'eur', product, active: false });
      const { data: payments } = await stripe.invoicePayments.list({ invoice: first.id, expand: ['data.payment.payment_intent'] });
      expect(payments).toHaveLength(1);
      expect(payments[0]).toMatchObject({ status: 'paid', is_default: true, amount_paid: 1499, invoice: first.id });
      expect(payments[0].payment.payment_intent).toMatchObject({ amount: 1499, amount_received: 1499, status: 'succeeded', application_fee_amount: 30 });

      const renewal = fake.resources.renewSubscription(subscription.id) as unknown as Stripe.Invoice;
      expect(renewal).toMatchObject({ billing_reason: 'subscription_cycle', status: 'paid', amount_due: 999, amount_paid: 999, total: 999 });
      const [renewalPayment] = (await stripe.invoicePayments.list({ invoice: renewal.id, status: 'paid', expand: ['data.payment.payment_intent'] })).data;
      expect(renewalPayment.payment.payment_intent).toMatchObject({ amount: 999, application_fee_amount: 20 });
      expect(lineAmounts(renewal)).toEqual([['subscription_item_details', 999]]);
      expect((await stripe.invoices.retrieve(renewal.id)).parent?.subscription_details?.subscription).toBe(subscription.id);
      expect(await stripe.subscriptions.retrieve(subscription.id)).toMatchObject({ status: 'active', latest_invoice: renewal.id });
    });

    it('takes a one-time price id too, with a quantity', async () => {
      const { customer, product, price } = await monthly('usd', 1000);
      const fee = await stripe.prices.create({ product, unit_amount: 250, currency: 'usd' });
      const subscription = await stripe.subscriptions.create({
        customer,
        items: [{ price }],
        add_invoice_items: [{ price: fee.id, quantity: 2 }],
        default_payment_method: 'pm_card_visa',
        expand: ['latest_invoice'],
      });
      const first = subscription.latest_invoice as Stripe.Invoice;
      expect(first).toMatchObject({ amount_paid: 1500, total: 1500 });
      const [payment] = (await stripe.invoicePayments.list({ invoice: first.id, expand: ['data.payment.payment_intent'] })).data;
      expect(payment.payment.payment_intent).toMatchObject({ amount: 1500, application_fee_amount: null });
      expect(first.lines.data[1]).toMatchObject({ amount: 500, quantity: 2, pricing: { price_details: { price: fee.id, product } } });
    });

    it('charges a trial subscription the one-off items at once; without them nothing is due', async () => {
      const { customer, product, price } = await monthly();
      const trial = await stripe.subscriptions.create({
        customer,
        items: [{ price }],
        add_invoice_items: [{ price_data: { currency: 'eur', product, unit_amount: 300 } }],
        default_payment_method: 'pm_card_visa',
        trial_period_days: 7,
        expand: ['latest_invoice'],
      });
      expect(trial.status).toBe('trialing');
      expect(trial.latest_invoice).toMatchObject({ amount_paid: 300, total: 300 });
      const plain = await stripe.subscriptions.create({ customer, items: [{ price }], trial_period_days: 7, expand: ['latest_invoice'] });
      expect(plain.status).toBe('trialing');
      expect(plain.latest_invoice).toMatchObject({ amount_due: 0, amount_paid: 0, status: 'paid' });
    });

    it('leaves the first invoice open for its whole total when the payment needs the customer', async () => {
      const { customer, product, price } = await monthly();
      const subscription = await stripe.subscriptions.create({
        customer,
        items: [{ price }],
        add_invoice_items: [{ price_data: { currency: 'eur', product, unit_amount: 500 } }],
        default_payment_method: 'pm_card_authenticationRequired',
        expand: ['latest_invoice'],
      });
      expect(subscription.status).toBe('incomplete');
      expect(subscription.latest_invoice).toMatchObject({ status: 'open', amount_due: 1499, amount_paid: 0, amount_remaining: 1499 });
    });

    it('refuses items in another currency, recurring prices, missing fields and unknown keys', async () => {
      const { customer, product, price } = await monthly();
      const recurring = await stripe.prices.create({ product, unit_amount: 100, currency: 'eur', recurring: { interval: 'month' } });
      const attempts: Array<[Stripe.SubscriptionCreateParams.AddInvoiceItem, string]> = [
        [{ price_data: { currency: 'usd', product, unit_amount: 500 } }, 'add_invoice_items[0][price_data][currency]'],
        [{ price: recurring.id }, 'add_invoice_items[0][price]'],
        [{ price_data: { currency: 'eur', product: 'prod_missing', unit_amount: 500 } }, 'add_invoice_items[0][price_data][product]'],
        [{ price_data: { currency: 'eur', product } } as Stripe.SubscriptionCreateParams.AddInvoiceItem, 'add_invoice_items[0][price_data][unit_amount]'],
        [{ quantity: 1 }, 'add_invoice_items[0]'],
        [{ price_data: { currency: 'eur', product, unit_amount: 500, recurring: { interval: 'month' } } } as unknown as Stripe.SubscriptionCreateParams.AddInvoiceItem, 'add_invoice_items[0][price_data][recurring]'],
      ];
      for (const [item, param] of attempts) {
        await expect(stripe.subscriptions.create({ customer, items: [{ price }], add_invoice_items: [item], default_payment_method: 'pm_card_visa' })).rejects.toMatchObject({
          type: 'StripeInvalidRequestError',
          param,
        });
      }
      expect(fake.resources.list('subscription').filter((subscription) => subscription.customer === customer)).toHaveLength(0);
    });
  });

  it('keeps a webhook endpoint secret and api_version across updates, and refuses api_version on update', async () => {
    const created = await stripe.webhookEndpoints.create({
      url: 'https://shop.example/hook',
      enabled_events: ['payment_intent.succeeded'],
      api_version: '2024-06-20',
      metadata: { checkout_managed: 'true' },
    });
    expect(created.secret).toMatch(/^whsec_/);
    const updated = await stripe.webhookEndpoints.update(created.id, { enabled_events: ['payment_intent.succeeded', 'invoice.paid'] });
    expect(updated).toMatchObject({ id: created.id, api_version: '2024-06-20', enabled_events: ['payment_intent.succeeded', 'invoice.paid'] });
    expect(updated.secret).toBeUndefined();
    expect(fake.resources.secrets.get(created.id)).toBe(created.secret);
    await expect(
      stripe.webhookEndpoints.update(created.id, { api_version: '2026-10-28.endive' } as unknown as Stripe.WebhookEndpointUpdateParams),
    ).rejects.toMatchObject({ statusCode: 400, code: 'parameter_unknown' });
    expect((await stripe.webhookEndpoints.list()).data.map((e) => e.id)).toContain(created.id);
    expect(await stripe.webhookEndpoints.del(created.id)).toMatchObject({ deleted: true });
    await expect(stripe.webhookEndpoints.retrieve(created.id)).rejects.toMatchObject({ statusCode: 404 });
  });

  it('injects failures that the SDK sees as gateway errors', async () => {
    fake.fail({ method: 'POST', path: '/v1/customers', status: 500, shouldRetry: false });
    await expect(stripe.customers.create({ email: 'x@example.test' })).rejects.toMatchObject({ type: 'StripeAPIError', statusCode: 500 });
    await expect(stripe.customers.create({ email: 'x@example.test' })).resolves.toMatchObject({ object: 'customer' });
  });

  it.each([
    [502, {}],
    [500, { message: 'upstream timed out' }],
    [200, {}],
  ])('answers %i %j as it is; the SDK raises nothing and hands it on as the object (why every answer is parsed)', async (status, body) => {
    fake.fail({ method: 'POST', path: '/v1/payment_intents', status, body, shouldRetry: false });
    const answer = await stripe.paymentIntents.create({ amount: 1000, currency: 'usd' });
    expect({ ...answer }).toEqual(body);
    expect(answer.lastResponse.statusCode).toBe(status);
    expect(fake.requestsTo('POST', '/v1/payment_intents').at(-1)!.status).toBe(status);
  });

  it('exchanges an OAuth code once, in the gateway OAuth format, through the SDK', async () => {
    const grant = fake.issueOAuthCode({ livemode: true });
    const token = await stripe.oauth.token({ grant_type: 'authorization_code', code: grant.code });
    expect(token).toMatchObject({ stripe_user_id: grant.accountId, stripe_publishable_key: grant.publishableKey, access_token: grant.accessToken, livemode: true });
    expect(grant.accessToken).toMatch(/^sk_live_/);
    await expect(stripe.oauth.token({ grant_type: 'authorization_code', code: grant.code })).rejects.toMatchObject({ type: 'StripeInvalidGrantError' });
  });

  describe('sign-event', () => {
    const secret = 'whsec_specSecretForSigning';

    it('produces the header the SDK itself generates and verifies', () => {
      const payload = buildEvent('payment_intent.succeeded', { id: 'pi_1', object: 'payment_intent' });
      const timestamp = 1_760_000_000;
      const ours = signPayload(payload, secret, timestamp);
      expect(ours).toBe(Stripe.webhooks.generateTestHeaderString({ payload, secret, timestamp }));
      const event = Stripe.webhooks.constructEvent(payload, ours, secret, 300, undefined, timestamp * 1000 + 5000);
      expect(event.type).toBe('payment_intent.succeeded');
    });

    it('is refused by the SDK for another secret or a changed body', () => {
      const payload = buildEvent('invoice.paid', { id: 'in_1' });
      const header = signPayload(payload, secret);
      expect(() => Stripe.webhooks.constructEvent(payload, header, 'whsec_other')).toThrow();
      expect(() => Stripe.webhooks.constructEvent(`${payload} `, header, secret)).toThrow();
      expect(Stripe.webhooks.constructEvent(payload, header, secret).type).toBe('invoice.paid');
    });
  });
});
