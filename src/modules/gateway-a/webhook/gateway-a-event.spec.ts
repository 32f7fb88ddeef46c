import { failureReason, invoiceSubscription, metadataPaymentId, parseGatewayAEvent, readObject } from './gateway-a-event.js';

const envelope = (overrides: Record<string, unknown> = {}) =>
  Buffer.from(JSON.stringify({ id: 'evt_1', object: 'event', type: 'payment_intent.succeeded', created: 1764115200, livemode: false, data: { object: { id: 'pi_1' } }, ...overrides }));

describe('parseGatewayAEvent', () => {
  it('reads id, type, created, livemode and data.object (typed by the event type) from the raw bytes', () => {
    expect(parseGatewayAEvent(envelope())).toEqual({
      ok: true,
      event: {
        id: 'evt_1',
        type: 'payment_intent.succeeded',
        created: 1764115200,
        livemode: false,
        object: {
          object: 'payment_intent',
          id: 'pi_1',
          amount: null,
          currency: null,
          amountReceived: null,
          customer: null,
          metadata: { installationId: null, paymentId: null },
          lastError: null,
        },
      },
    });
  });

  it.each([
    ['not JSON', Buffer.from('{"id":')],
    ['an array', Buffer.from('[]')],
    ['no id', envelope({ id: undefined })],
    ['an empty id', envelope({ id: '' })],
    ['an id with spaces', envelope({ id: 'evt 1' })],
    ['an id longer than the store column', envelope({ id: `evt_${'x'.repeat(188)}` })],
    ['a numeric type', envelope({ type: 5 })],
    ['a type over 100 characters', envelope({ type: 'x'.repeat(101) })],
    ['created as a string', envelope({ created: '1764115200' })],
    ['a fractional created', envelope({ created: 1.5 })],
    ['livemode as a string', envelope({ livemode: 'false' })],
    ['no data', envelope({ data: undefined })],
    ['data.object as a list', envelope({ data: { object: [] } })],
  ])('refuses %s', (_name, body) => {
    expect(parseGatewayAEvent(body)).toEqual({ ok: false, reason: expect.any(String) });
  });
});

describe('metadataPaymentId', () => {
  it.each([
    [{ checkout_payment_id: '42' }, 42],
    [{ checkout_payment_id: '2147483647' }, 2147483647],
    [{ checkout_payment_id: '2147483648' }, null],
    [{ checkout_payment_id: '042' }, null],
    [{ checkout_payment_id: '0' }, null],
    [{ checkout_payment_id: 42 }, null],
    [{ checkout_payment_id: '4 2' }, null],
    [{}, null],
    [null, null],
    ['42', null],
  ])('%j → %p', (metadata, expected) => {
    expect(metadataPaymentId(metadata)).toBe(expected);
  });
});

describe('invoiceSubscription', () => {
  it('follows parent.subscription_details (API 2026-10-28), also when expanded', () => {
    const metadata = { checkout_payment_id: '7' };
    expect(invoiceSubscription({ parent: { type: 'subscription_details', subscription_details: { subscription: 'sub_1', metadata } } })).toEqual({
      subscriptionRef: 'sub_1',
      metadata,
    });
    expect(invoiceSubscription({ parent: { subscription_details: { subscription: { id: 'sub_2', object: 'subscription' } } } }).subscriptionRef).toBe('sub_2');
  });

  it('finds none on an invoice outside subscriptions', () => {
    expect(invoiceSubscription({ parent: null }).subscriptionRef).toBeNull();
    expect(invoiceSubscription({}).subscriptionRef).toBeNull();
  });
});

describe('readObject', () => {
  const metadata = { checkout_installation_id: 'inst_1', checkout_payment_id: '7' };

  it('reads a payment intent once: amounts, upper-case currency, customer (also expanded), metadata and its last error', () => {
    const intent = {
      id: 'pi_1',
      amount: 1000,
      amount_received: 900,
      currency: 'usd',
      customer: { id: 'cus_1' },
      metadata,
      last_payment_error: { type: 'card_error', code: 'card_declined', decline_code: 'insufficient_funds', message: 'Your card has insufficient funds.' },
    };
    expect(readObject('payment_intent.payment_failed', intent)).toEqual({
      object: 'payment_intent',
      id: 'pi_1',
      amount: 1000,
      currency: 'USD',
      amountReceived: 900,
      customer: 'cus_1',
      metadata: { installationId: 'inst_1', paymentId: 7 },
      lastError: { code: 'card_declined', decline_code: 'insufficient_funds', message: 'Your card has insufficient funds.' },
    });
  });

  it('reads fields of another type as absent (the action decides what that means)', () => {
    expect(readObject('payment_intent.succeeded', { id: 5, amount: '1000', currency: 840, metadata: 'x' })).toMatchObject({
      id: null,
      amount: null,
      currency: null,
      metadata: { installationId: null, paymentId: null },
    });
  });

  it('reads an invoice with its subscription and that subscription\'s metadata', () => {
    const invoice = { id: 'in_1', amount_paid: 1500, amount_due: 1500, currency: 'eur', billing_reason: 'subscription_cycle', parent: { subscription_details: { subscription: 'sub_1', metadata } } };
    expect(readObject('invoice.paid', invoice)).toEqual({
      object: 'invoice',
      id: 'in_1',
      amountPaid: 1500,
      amountDue: 1500,
      currency: 'EUR',
      billingReason: 'subscription_cycle',
      subscriptionRef: 'sub_1',
      metadata: { installationId: 'inst_1', paymentId: 7 },
      attemptCount: null,
      nextPaymentAttempt: null,
    });
  });

  it("reads a failed invoice's attempt count and next attempt", () => {
    const invoice = { id: 'in_2', amount_due: 900, currency: 'usd', attempt_count: 2, next_payment_attempt: 1767225600, parent: { subscription_details: { subscription: 'sub_1', metadata } } };
    expect(readObject('invoice.payment_failed', invoice)).toMatchObject({ attemptCount: 2, nextPaymentAttempt: 1767225600 });
    expect(readObject('invoice.payment_failed', { ...invoice, attempt_count: '2', next_payment_attempt: null })).toMatchObject({ attemptCount: null, nextPaymentAttempt: null });
  });

  it('reads setup intents, subscriptions, and nothing more of other types', () => {
    expect(readObject('setup_intent.setup_failed', { id: 'seti_1', customer: 'cus_1', last_setup_error: { type: 'invalid_request_error' } })).toEqual({
      object: 'setup_intent',
      id: 'seti_1',
      customer: 'cus_1',
      metadata: { installationId: null, paymentId: null },
      lastError: { code: 'invalid_request_error', decline_code: null, message: null },
    });
    expect(readObject('customer.subscription.updated', { id: 'sub_1', status: 'active', metadata })).toEqual({
      object: 'subscription',
      id: 'sub_1',
      status: 'active',
      metadata: { installationId: 'inst_1', paymentId: 7 },
      cancelAtPeriodEnd: false,
      cancelAt: null,
    });
    expect(readObject('customer.subscription.updated', { id: 'sub_1', status: 'active', metadata, cancel_at_period_end: true, cancel_at: 1798761600 })).toMatchObject({ cancelAtPeriodEnd: true, cancelAt: 1798761600 });
    expect(readObject('charge.refunded', { id: 'ch_1', amount: 5 })).toEqual({ object: 'other', id: 'ch_1' });
  });
});

describe('failureReason', () => {
  it('is null without an error object or any code', () => {
    expect(failureReason(null)).toBeNull();
    expect(failureReason('card_declined')).toBeNull();
    expect(failureReason({ message: 'no code' })).toBeNull();
  });

  it('bounds the texts it keeps', () => {
    const reason = failureReason({ type: 'card_error', code: 'c'.repeat(300), message: 'm'.repeat(900) });
    expect(reason?.code).toHaveLength(100);
    expect(reason?.message).toHaveLength(500);
    expect(reason?.decline_code).toBeNull();
  });
});
