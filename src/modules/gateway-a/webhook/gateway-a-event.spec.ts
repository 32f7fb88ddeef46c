import { invoiceSubscription, metadataPaymentId, parseGatewayAEvent } from './gateway-a-event.js';

const envelope = (overrides: Record<string, unknown> = {}) =>
  Buffer.from(JSON.stringify({ id: 'evt_1', object: 'event', type: 'payment_intent.succeeded', created: 1764115200, livemode: false, data: { object: { id: 'pi_1' } }, ...overrides }));

describe('parseGatewayAEvent', () => {
  it('reads id, type, created, livemode and data.object from the raw bytes', () => {
    expect(parseGatewayAEvent(envelope())).toEqual({
      ok: true,
      event: { id: 'evt_1', type: 'payment_intent.succeeded', created: 1764115200, livemode: false, object: { id: 'pi_1' } },
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
