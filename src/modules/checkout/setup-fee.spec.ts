import type { FormPrice } from '../forms/index.js';
import { setupFeeOf } from './setup-fee.js';

describe('setupFeeOf', () => {
  const form = (...prices: FormPrice[]) => ({ settings: { plans: [{ title: 'Plan', prices }] } }) as unknown as Parameters<typeof setupFeeOf>[0];
  const record = { plan_index: 0, price_index: 0, currency: 'EUR', frequency: 'm_1' };

  it('is the form price setup_amount, or 0 without one', () => {
    expect(setupFeeOf(form({ amount: 999, currency: 'EUR', frequency: 'm_1', setup_amount: 500 }), record)).toEqual({ ok: true, amount: 500 });
    expect(setupFeeOf(form({ amount: 999, currency: 'EUR', frequency: 'm_1' }), record)).toEqual({ ok: true, amount: 0 });
    expect(setupFeeOf(form({ amount: 999, currency: 'eur', frequency: 'm_1', setup_amount: 0 }), record)).toEqual({ ok: true, amount: 0 });
  });

  it('does not depend on the recurring amount (a customer-entered or since edited amount stays the record\'s)', () => {
    expect(setupFeeOf(form({ amount: 1234, currency: 'EUR', frequency: 'm_1', setup_amount: 300 }), record)).toEqual({ ok: true, amount: 300 });
  });

  it('refuses when the form, the price, its currency or its frequency is no longer the record\'s', () => {
    expect(setupFeeOf(null, record)).toMatchObject({ ok: false });
    expect(setupFeeOf(form(), record)).toMatchObject({ ok: false });
    expect(setupFeeOf(form({ amount: 999, currency: 'EUR', frequency: 'm_1', setup_amount: 500 }), { ...record, price_index: 1 })).toMatchObject({ ok: false });
    expect(setupFeeOf(form({ amount: 999, currency: 'USD', frequency: 'm_1', setup_amount: 500 }), record)).toMatchObject({ ok: false, reason: expect.stringContaining('currency') });
    expect(setupFeeOf(form({ amount: 999, currency: 'EUR', frequency: 'y_1', setup_amount: 500 }), record)).toMatchObject({ ok: false });
    expect(setupFeeOf(form({ amount: 999, currency: 'EUR', frequency: 'm_1', setup_amount: 500 }), { ...record, plan_index: null })).toMatchObject({ ok: false });
  });
});
