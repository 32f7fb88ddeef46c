import type { GatewayBCapture, GatewayBOrder } from '../client/gateway-b-wire.js';
import { captureDifferences, captureOutcome, type ExpectedOrder, orderDifferences, orderUnderway, sameMoney } from './order-contract.js';

const expected: ExpectedOrder = { orderId: 'ORDER1', paymentId: 42, amount: 1999, currency: 'USD', invoiceId: 'checkout-inst-42' };

const capture = (fields: Partial<GatewayBCapture> = {}): GatewayBCapture => ({
  id: 'CAP1',
  status: 'COMPLETED',
  amount: { currency_code: 'USD', value: '19.99' },
  custom_id: '42',
  invoice_id: 'checkout-inst-42',
  ...fields,
});

const order = (fields: Partial<GatewayBOrder> = {}, captures?: GatewayBCapture[]): GatewayBOrder => ({
  id: 'ORDER1',
  status: captures ? 'COMPLETED' : 'CREATED',
  intent: 'CAPTURE',
  purchase_units: [
    { amount: { currency_code: 'USD', value: '19.99' }, custom_id: '42', invoice_id: 'checkout-inst-42', ...(captures ? { payments: { captures } } : {}) },
  ],
  links: [],
  ...fields,
});

describe('gateway B order contract', () => {
  it('compares money as minor units, not as strings', () => {
    expect(sameMoney({ currency_code: 'USD', value: '19.99' }, 1999, 'USD')).toBe(true);
    expect(sameMoney({ currency_code: 'USD', value: '19.990' }, 1999, 'usd')).toBe(true);
    expect(sameMoney({ currency_code: 'USD', value: '19.98' }, 1999, 'USD')).toBe(false);
    expect(sameMoney({ currency_code: 'EUR', value: '19.99' }, 1999, 'USD')).toBe(false);
    expect(sameMoney({ currency_code: 'JPY', value: '500' }, 500, 'JPY')).toBe(true);
    // PayPal writes HUF in whole units; the money module keeps two decimals for it.
    expect(sameMoney({ currency_code: 'HUF', value: '1500' }, 150000, 'HUF')).toBe(true);
    expect(sameMoney({ currency_code: 'USD', value: 'x' }, 1999, 'USD')).toBe(false);
    expect(sameMoney(undefined, 1999, 'USD')).toBe(false);
  });

  it('accepts the order made for the record and names each field that differs', () => {
    expect(orderDifferences(order(), expected)).toEqual([]);
    expect(orderDifferences(order({ id: 'OTHER' }), expected)).toEqual(['order_id']);
    expect(orderDifferences(order({ intent: 'AUTHORIZE' }), expected)).toEqual(['intent']);
    const unit = order().purchase_units[0];
    expect(orderDifferences(order({ purchase_units: [{ ...unit, amount: { currency_code: 'USD', value: '1.00' } }] }), expected)).toEqual(['amount']);
    expect(orderDifferences(order({ purchase_units: [{ ...unit, amount: { currency_code: 'EUR', value: '19.99' } }] }), expected)).toEqual(['currency']);
    expect(orderDifferences(order({ purchase_units: [{ ...unit, custom_id: '43' }] }), expected)).toEqual(['custom_id']);
    expect(orderDifferences(order({ purchase_units: [{ ...unit, invoice_id: 'checkout-other-42' }] }), expected)).toEqual(['invoice_id']);
    expect(orderDifferences(order({ purchase_units: [{ amount: unit.amount }] }), expected)).toEqual(['custom_id', 'invoice_id']);
    expect(orderDifferences(order({ purchase_units: [unit, unit] }), expected)).toEqual(['purchase_units']);
    expect(orderDifferences(order({ purchase_units: [] }), expected)).toEqual(['purchase_units']);
  });

  it('checks a capture against the record before it may move it', () => {
    expect(captureDifferences(order({}, [capture()]), capture(), expected)).toEqual([]);
    expect(captureDifferences(order({}, [capture({ amount: { currency_code: 'USD', value: '1.00' } })]), capture({ amount: { currency_code: 'USD', value: '1.00' } }), expected)).toEqual([
      'amount',
    ]);
    expect(captureDifferences(order({}, [capture()]), capture({ amount: { currency_code: 'EUR', value: '19.99' } }), expected)).toEqual(['currency']);
    expect(captureDifferences(order({}, [capture()]), capture({ custom_id: undefined }), expected)).toEqual(['custom_id']);
    expect(captureDifferences(order({}, [capture()]), capture({ invoice_id: 'checkout-other-42' }), expected)).toEqual(['invoice_id']);
    expect(captureDifferences(order({}, [capture()]), capture({ status: 'REFUNDED' }), expected)).toEqual(['status']);
    expect(captureDifferences(order({ id: 'OTHER' }, [capture()]), capture(), expected)).toEqual(['order_id']);
    expect(captureDifferences(order(), undefined, expected)).toEqual(['capture']);
    expect(captureDifferences(order({}, [capture(), capture({ id: 'CAP2' })]), capture(), expected)).toEqual(['captures']);
  });

  it('maps capture statuses to record statuses', () => {
    expect(captureOutcome(capture())).toBe('completed');
    expect(captureOutcome(capture({ status: 'PENDING' }))).toBe('processing');
    expect(captureOutcome(capture({ status: 'DECLINED' }))).toBe('failed');
    expect(captureOutcome(capture({ status: 'FAILED' }))).toBe('failed');
    expect(captureOutcome(capture({ status: 'PARTIALLY_REFUNDED' }))).toBeNull();
  });

  it('says an order is underway once approved or holding a completed or pending capture', () => {
    expect(orderUnderway(order())).toBe(false);
    expect(orderUnderway(order({ status: 'PAYER_ACTION_REQUIRED' }))).toBe(false);
    expect(orderUnderway(order({ status: 'APPROVED' }))).toBe(true);
    expect(orderUnderway(order({}, [capture()]))).toBe(true);
    expect(orderUnderway(order({}, [capture({ status: 'PENDING' })]))).toBe(true);
    expect(orderUnderway(order({}, [capture({ status: 'DECLINED' })]))).toBe(false);
  });
});
