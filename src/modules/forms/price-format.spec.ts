import { describePrice } from './price-format.js';

describe('describePrice', () => {
  it('describes one-time, recurring, setup and customer-entered prices', () => {
    expect(describePrice({ amount: 1000, currency: 'USD', frequency: 'one-time' })).toBe('$10.00');
    expect(describePrice({ amount: 999, currency: 'USD', frequency: 'm_1', setup_amount: 500 })).toBe('$9.99 / month + $5.00 setup fee');
    expect(describePrice({ amount: 9999, currency: 'USD', frequency: 'y_3' })).toBe('$99.99 / 3 years');
    expect(describePrice({ amount: 2500, currency: 'USD', frequency: 'one-time', custom_amount: { min: 100, max: 1000000 } })).toBe(
      'Any amount from $1.00 to $10,000.00',
    );
  });
});
