import {
  MalformedGatewayAAnswer,
  parseAccount,
  parseCustomer,
  parseDeletedWebhookEndpoint,
  parseOAuthGrant,
  parsePaymentIntent,
  parsePrice,
  parseProduct,
  parseSetupIntent,
  parseSubscription,
  parseWebhookEndpoint,
  parseWebhookEndpointList,
} from './gateway-a-answers.js';

const metadata = { checkout_installation_id: 'inst1', checkout_payment_id: '42' };

const paymentIntent = (patch: Record<string, unknown> = {}) => ({
  id: 'pi_3Mt0aB',
  object: 'payment_intent',
  amount: 1000,
  amount_received: 0,
  currency: 'usd',
  customer: 'cus_Nff',
  latest_charge: null,
  setup_future_usage: null,
  client_secret: 'pi_3Mt0aB_secret_YrKJ',
  metadata,
  status: 'requires_payment_method',
  livemode: false,
  ...patch,
});

const setupIntent = (patch: Record<string, unknown> = {}) => ({
  id: 'seti_1Abc',
  object: 'setup_intent',
  customer: 'cus_Nff',
  payment_method: null,
  client_secret: 'seti_1Abc_secret_Qw12',
  metadata: { ...metadata, checkout_purpose: 'subscription' },
  status: 'requires_payment_method',
  usage: 'off_session',
  ...patch,
});

const endpoint = (patch: Record<string, unknown> = {}) => ({
  id: 'we_1Xyz',
  object: 'webhook_endpoint',
  url: 'https://site.example/wp-json/checkout/v1/webhook/gateway-a-callback/test',
  enabled_events: ['invoice.paid'],
  status: 'enabled',
  livemode: false,
  metadata: { checkout_managed: 'true' },
  ...patch,
});

/** An answer as the SDK hands it over: the raw response (and its status) hangs on it, not enumerable. */
function withStatus<T extends object>(answer: T, statusCode: number): T {
  Object.defineProperty(answer, 'lastResponse', { value: { statusCode }, enumerable: false });
  return answer;
}

function malformed(run: () => unknown): MalformedGatewayAAnswer {
  try {
    run();
  } catch (error) {
    if (error instanceof MalformedGatewayAAnswer) return error;
    throw error;
  }
  throw new Error('expected a MalformedGatewayAAnswer');
}

describe('gateway-A answers', () => {
  describe('the faults found by the attack run: {} and {"message"} with a 5xx or a 200', () => {
    const faults: Array<[number, object]> = [
      [502, {}],
      [500, { message: 'upstream failed' }],
      [200, {}],
    ];
    const parsers: Array<[string, (answer: unknown) => unknown]> = [
      ['payment intent', (a) => parsePaymentIntent(a, 'paymentIntents.create', { clientSecret: true })],
      ['setup intent', (a) => parseSetupIntent(a, 'setupIntents.create', { clientSecret: true })],
      ['customer', (a) => parseCustomer(a, 'customers.create')],
      ['product', (a) => parseProduct(a, 'products.create')],
      ['price', (a) => parsePrice(a, 'prices.create')],
      ['subscription', (a) => parseSubscription(a, 'subscriptions.create')],
      ['webhook endpoint', (a) => parseWebhookEndpoint(a, 'webhookEndpoints.create', { secret: true })],
      ['deleted endpoint', (a) => parseDeletedWebhookEndpoint(a, 'webhookEndpoints.del', { id: 'we_1' })],
      ['endpoint list', (a) => parseWebhookEndpointList(a, 'webhookEndpoints.list')],
      ['account', (a) => parseAccount(a, 'accounts.retrieve')],
      ['OAuth grant', (a) => parseOAuthGrant(a)],
    ];
    const cases = parsers.flatMap(([name, parse]) => faults.map(([status, body]) => [name, status, body, parse] as const));

    it.each(cases)('%s: HTTP %i %j is malformed, named with its status', (_name, status, body, parse) => {
      const error = malformed(() => parse(withStatus({ ...body }, status)));
      expect(error.httpStatus).toBe(status);
      expect(error.message).toContain(`(HTTP ${status})`);
      expect(error.message).not.toContain('upstream failed');
    });
  });

  describe('payment intents', () => {
    it('copies the fields the service reads, and only those', () => {
      const parsed = parsePaymentIntent(paymentIntent({ latest_charge: { id: 'ch_9', object: 'charge', payment_intent: 'pi_3Mt0aB' }, customer: { id: 'cus_Nff', object: 'customer' }, extra: 'x' }), 'op');
      expect(parsed).toEqual({
        object: 'payment_intent',
        id: 'pi_3Mt0aB',
        status: 'requires_payment_method',
        amount: 1000,
        currency: 'usd',
        amount_received: 0,
        customer: 'cus_Nff',
        latest_charge: 'ch_9',
        card: null,
        setup_future_usage: null,
        client_secret: 'pi_3Mt0aB_secret_YrKJ',
        metadata,
      });
    });

    describe("the card of its expanded charge (latest_charge's payment_method_details.card)", () => {
      const charge = (fields: Record<string, unknown> = {}) => ({
        id: 'ch_9',
        object: 'charge',
        payment_intent: 'pi_3Mt0aB',
        payment_method_details: { type: 'card', card: { brand: 'visa', last4: '4242', exp_month: 12, exp_year: 2034, fingerprint: 'abc' } },
        ...fields,
      });

      it('reads the brand and last four digits, and nothing else of the card', () => {
        expect(parsePaymentIntent(paymentIntent({ latest_charge: charge() }), 'op').card).toEqual({ brand: 'visa', last4: '4242' });
      });

      it('has no card for a charge id (not expanded), another type of payment, or a brand or last4 of another form', () => {
        expect(parsePaymentIntent(paymentIntent({ latest_charge: 'ch_9' }), 'op').card).toBeNull();
        expect(parsePaymentIntent(paymentIntent({ latest_charge: charge({ payment_method_details: { type: 'link', link: {} } }) }), 'op').card).toBeNull();
        expect(parsePaymentIntent(paymentIntent({ latest_charge: charge({ payment_method_details: null }) }), 'op').card).toBeNull();
        expect(parsePaymentIntent(paymentIntent({ latest_charge: charge({ payment_method_details: { type: 'card', card: { brand: 'visa', last4: '4242424242424242' } } }) }), 'op').card).toBeNull();
        expect(parsePaymentIntent(paymentIntent({ latest_charge: charge({ payment_method_details: { type: 'card', card: { brand: '<b>Visa</b>', last4: '4242' } } }) }), 'op').card).toBeNull();
      });

      it("refuses a charge that is not this intent's", () => {
        expect(malformed(() => parsePaymentIntent(paymentIntent({ latest_charge: charge({ payment_intent: 'pi_other' }) }), 'op')).problem).toBe('payment_intent.latest_charge.payment_intent is not this intent');
        expect(malformed(() => parsePaymentIntent(paymentIntent({ latest_charge: charge({ object: 'refund' }) }), 'op')).problem).toBe('payment_intent.latest_charge.object is not "charge"');
      });
    });

    it('accepts exactly what the service sent back', () => {
      expect(() =>
        parsePaymentIntent(paymentIntent(), 'paymentIntents.create', { amount: 1000, currency: 'USD', customer: 'cus_Nff', metadata, clientSecret: true }),
      ).not.toThrow();
    });

    it.each([
      ['another object type', paymentIntent({ object: 'setup_intent' }), {}, 'payment_intent.object is not "payment_intent"'],
      ['an id without the pi_ prefix', paymentIntent({ id: 'seti_3Mt0aB' }), {}, 'payment_intent.id does not have the payment_intent prefix'],
      ['another id than asked for', paymentIntent(), { id: 'pi_other' }, 'payment_intent.id is not the id asked for'],
      ['no client secret where the payer needs one', paymentIntent({ client_secret: null }), { clientSecret: true }, 'payment_intent.client_secret is missing'],
      ['an empty client secret', paymentIntent({ client_secret: '' }), { clientSecret: true }, 'payment_intent.client_secret is missing'],
      ['a client secret of another intent', paymentIntent({ client_secret: 'pi_other_secret_abc' }), {}, 'payment_intent.client_secret is not a client secret of this intent'],
      ['another amount', paymentIntent({ amount: 999 }), { amount: 1000 }, 'payment_intent.amount is not the amount sent'],
      ['an amount that is not an integer', paymentIntent({ amount: '1000' }), {}, 'payment_intent.amount is not an amount'],
      ['a negative amount', paymentIntent({ amount: -1 }), {}, 'payment_intent.amount is not an amount'],
      ['another currency', paymentIntent({ currency: 'eur' }), { currency: 'usd' }, 'payment_intent.currency is not the currency sent'],
      ['a currency that is no code', paymentIntent({ currency: 'us' }), {}, 'payment_intent.currency is not a currency code'],
      ['another customer', paymentIntent({ customer: 'cus_other' }), { customer: 'cus_Nff' }, 'payment_intent.customer is not the customer sent'],
      ['a customer that is not a customer id', paymentIntent({ customer: 'acct_1' }), {}, 'payment_intent.customer is not a valid reference'],
      ['another installation in the metadata', paymentIntent({ metadata: { ...metadata, checkout_installation_id: 'other' } }), { metadata }, 'payment_intent.metadata.checkout_installation_id is not the value sent'],
      ['no payment id in the metadata', paymentIntent({ metadata: { checkout_installation_id: 'inst1' } }), { metadata }, 'payment_intent.metadata.checkout_payment_id is not the value sent'],
      ['a metadata value that is not a string', paymentIntent({ metadata: { checkout_payment_id: 42 } }), {}, 'payment_intent.metadata has a value that is not a string'],
      ['no metadata', paymentIntent({ metadata: undefined }), {}, 'payment_intent.metadata is not an object'],
      ['no status', paymentIntent({ status: '' }), {}, 'payment_intent.status is missing or not a string'],
      ['a charge reference of another kind', paymentIntent({ latest_charge: 'pi_1' }), {}, 'payment_intent.latest_charge is not a valid reference'],
    ])('refuses %s', (_what, answer, expected, problem) => {
      const error = malformed(() => parsePaymentIntent(answer, 'paymentIntents.create', expected));
      expect(error.problem).toBe(problem);
      expect(error.operation).toBe('paymentIntents.create');
      expect(error.httpStatus).toBeUndefined();
    });

    it.each([[[]], [null], ['pi_1'], [42]])('refuses %j as the answer', (answer) => {
      expect(malformed(() => parsePaymentIntent(answer, 'op')).problem).toBe('payment_intent is not an object');
    });

    it('names fields in its message, never the values the gateway sent', () => {
      const error = malformed(() => parsePaymentIntent(paymentIntent({ customer: 'cus_secretvalue', metadata: { email: 'payer@example.test' } }), 'op', { customer: 'cus_Nff', metadata: { email: 'x' } }));
      expect(error.message).not.toMatch(/secretvalue|payer@example/);
    });
  });

  describe('setup intents', () => {
    it('reads the saved payment method, test tokens included', () => {
      expect(parseSetupIntent(setupIntent({ status: 'succeeded', payment_method: 'pm_card_visa' }), 'op').payment_method).toBe('pm_card_visa');
      expect(parseSetupIntent(setupIntent({ payment_method: { id: 'pm_1Q2w', object: 'payment_method' } }), 'op').payment_method).toBe('pm_1Q2w');
    });

    it('takes absent metadata as none (the API declares it nullable)', () => {
      expect(parseSetupIntent(setupIntent({ metadata: null }), 'op').metadata).toEqual({});
    });

    it.each([
      ['a payment intent', setupIntent({ object: 'payment_intent' }), {}, 'setup_intent.object is not "setup_intent"'],
      ['a pi_ id', setupIntent({ id: 'pi_1' }), {}, 'setup_intent.id does not have the setup_intent prefix'],
      ['another purpose', setupIntent({ metadata: { ...metadata, checkout_purpose: 'other' } }), { metadata: { checkout_purpose: 'subscription' } }, 'setup_intent.metadata.checkout_purpose is not the value sent'],
      ['no client secret', setupIntent({ client_secret: undefined }), { clientSecret: true }, 'setup_intent.client_secret is missing'],
      ['a payment method that is no id', setupIntent({ payment_method: 'cus_1' }), {}, 'setup_intent.payment_method is not a valid reference'],
    ])('refuses %s', (_what, answer, expected, problem) => {
      expect(malformed(() => parseSetupIntent(answer, 'op', expected)).problem).toBe(problem);
    });
  });

  describe('catalog objects', () => {
    const sent = { checkout_installation_id: 'inst1', checkout_managed: 'true' };

    it('reads customers and products by id once their metadata is what was sent', () => {
      expect(parseCustomer({ id: 'cus_Nff', object: 'customer', metadata: sent }, 'customers.create', { metadata: sent })).toEqual({ id: 'cus_Nff' });
      expect(parseProduct({ id: 'prod_Nw', object: 'product', metadata: sent }, 'products.create', { metadata: sent })).toEqual({ id: 'prod_Nw' });
      expect(malformed(() => parseCustomer({ id: 'cus_Nff', object: 'customer', metadata: {} }, 'op', { metadata: sent })).problem).toBe(
        'customer.metadata.checkout_installation_id is not the value sent',
      );
      expect(malformed(() => parseProduct({ id: 'price_1', object: 'product', metadata: sent }, 'op')).problem).toBe('product.id does not have the product prefix');
    });

    it('checks a price against its amount, currency, product and metadata', () => {
      const price = { id: 'price_1Mo', object: 'price', unit_amount: 999, currency: 'usd', product: 'prod_Nw', metadata: sent };
      const expected = { amount: 999, currency: 'usd', product: 'prod_Nw', metadata: sent };
      expect(parsePrice(price, 'prices.create', expected)).toEqual({ id: 'price_1Mo', product: 'prod_Nw' });
      expect(malformed(() => parsePrice({ ...price, unit_amount: 998 }, 'op', expected)).problem).toBe('price.amount is not the amount sent');
      expect(malformed(() => parsePrice({ ...price, currency: 'eur' }, 'op', expected)).problem).toBe('price.currency is not the currency sent');
      expect(malformed(() => parsePrice({ ...price, product: 'prod_other' }, 'op', expected)).problem).toBe('price.product is not the product sent');
      expect(malformed(() => parsePrice({ ...price, product: null }, 'op', expected)).problem).toBe('price.product is missing');
    });

    it('reads an account id', () => {
      expect(parseAccount({ id: 'acct_1Nv0', object: 'account', type: 'standard' }, 'accounts.retrieve')).toEqual({ id: 'acct_1Nv0' });
      expect(malformed(() => parseAccount({ id: 'cus_1', object: 'account' }, 'op')).problem).toBe('account.id does not have the account prefix');
    });
  });

  describe('subscriptions', () => {
    const subscription = (patch: Record<string, unknown> = {}) => ({
      id: 'sub_1',
      object: 'subscription',
      status: 'active',
      customer: 'cus_Nff',
      metadata,
      latest_invoice: 'in_1',
      ...patch,
    });

    it('reads the subscription and, when expanded, its latest invoice', () => {
      expect(parseSubscription(subscription(), 'op', { customer: 'cus_Nff', metadata })).toEqual({ id: 'sub_1', status: 'active', customer: 'cus_Nff', metadata, cancel_at_period_end: false, cancel_at: null, latest_invoice: null });
      // A cancellation scheduled at the period's end (the admin's cancel route reads it before asking again).
      expect(parseSubscription(subscription({ cancel_at_period_end: true }), 'op').cancel_at_period_end).toBe(true);
      const expanded = parseSubscription(subscription({ latest_invoice: { id: 'in_1', object: 'invoice', billing_reason: 'subscription_create', amount_paid: 2050, currency: 'usd' } }), 'op');
      expect(expanded.latest_invoice).toEqual({ id: 'in_1', billing_reason: 'subscription_create', amount_paid: 2050, currency: 'usd' });
    });

    it.each([
      ['another customer', subscription({ customer: 'cus_other' }), { customer: 'cus_Nff' }, 'subscription.customer is not the customer sent'],
      ['no customer', subscription({ customer: null }), {}, 'subscription.customer is missing'],
      ['another payment in the metadata', subscription({ metadata: { ...metadata, checkout_payment_id: '43' } }), { metadata }, 'subscription.metadata.checkout_payment_id is not the value sent'],
      ['an invoice that is not one', subscription({ latest_invoice: { id: 'in_1', object: 'charge' } }), {}, 'subscription.latest_invoice.object is not "invoice"'],
      ['an invoice without amount', subscription({ latest_invoice: { id: 'in_1', object: 'invoice', currency: 'usd' } }), {}, 'subscription.latest_invoice.amount_paid is not an amount'],
      ['an invoice reference of another kind', subscription({ latest_invoice: 'pi_1' }), {}, 'subscription.latest_invoice is not a valid reference'],
      ['a cancel_at_period_end that is no boolean', subscription({ cancel_at_period_end: 'yes' }), {}, 'subscription.cancel_at_period_end is not a boolean'],
    ])('refuses %s', (_what, answer, expected, problem) => {
      expect(malformed(() => parseSubscription(answer, 'op', expected)).problem).toBe(problem);
    });
  });

  describe('webhook endpoints', () => {
    it('reads an endpoint and, from a create answer, its signing secret', () => {
      expect(parseWebhookEndpoint(endpoint({ secret: 'whsec_abc123' }), 'webhookEndpoints.create', { secret: true, metadata: { checkout_managed: 'true' } }).secret).toBe('whsec_abc123');
      expect(parseWebhookEndpoint(endpoint(), 'webhookEndpoints.retrieve', { id: 'we_1Xyz' })).not.toHaveProperty('secret');
    });

    it.each([
      ['no secret in a create answer', endpoint(), { secret: true }, 'webhook_endpoint.secret is missing or not a string'],
      ['a secret that is no signing secret', endpoint({ secret: 'sk_test_1' }), { secret: true }, 'webhook_endpoint.secret is not a signing secret'],
      ['another URL', endpoint(), { url: 'https://other.example/' }, 'webhook_endpoint.url is not the URL sent'],
      ['another endpoint', endpoint(), { id: 'we_other' }, 'webhook_endpoint.id is not the id asked for'],
      ['events that are not names', endpoint({ enabled_events: [1] }), {}, 'webhook_endpoint.enabled_events is not a list of event names'],
      ['no livemode', endpoint({ livemode: undefined }), {}, 'webhook_endpoint.livemode is not a boolean'],
    ])('refuses %s', (_what, answer, expected, problem) => {
      expect(malformed(() => parseWebhookEndpoint(answer, 'op', expected)).problem).toBe(problem);
    });

    it('reads a delete answer and a list', () => {
      expect(() => parseDeletedWebhookEndpoint({ id: 'we_1', object: 'webhook_endpoint', deleted: true }, 'op', { id: 'we_1' })).not.toThrow();
      expect(malformed(() => parseDeletedWebhookEndpoint({ id: 'we_1', object: 'webhook_endpoint' }, 'op', { id: 'we_1' })).problem).toBe('webhook_endpoint.deleted is not true');
      expect(parseWebhookEndpointList({ object: 'list', data: [endpoint()], has_more: false }, 'op').map((e) => e.id)).toEqual(['we_1Xyz']);
      expect(malformed(() => parseWebhookEndpointList({ object: 'list', data: [{}] }, 'op')).problem).toBe('webhook_endpoint.object is not "webhook_endpoint"');
    });
  });

  describe('the OAuth grant', () => {
    const grant = { stripe_user_id: 'acct_1Nv0', stripe_publishable_key: 'pk_test_abc', access_token: 'sk_test_def', livemode: false, token_type: 'bearer', scope: 'read_write' };

    it('reads a grant in the gateway OAuth format', () => {
      expect(parseOAuthGrant(grant)).toEqual({ accountId: 'acct_1Nv0', publishableKey: 'pk_test_abc', secretKey: 'sk_test_def', livemode: false });
    });

    it.each([
      [{ ...grant, livemode: 'false' }, 'token.livemode is not a boolean'],
      [{ ...grant, stripe_user_id: 'cus_1' }, 'token.stripe_user_id is not an account id'],
      [{ ...grant, access_token: 'pk_test_abc' }, 'token.access_token is not a secret key'],
      [{ ...grant, stripe_publishable_key: undefined }, 'token.stripe_publishable_key is missing or not a string'],
      [{ ...grant, token_type: 'mac' }, 'token.token_type is not bearer'],
    ])('refuses %j', (answer, problem) => {
      expect(malformed(() => parseOAuthGrant(answer)).problem).toBe(problem);
    });
  });
});
