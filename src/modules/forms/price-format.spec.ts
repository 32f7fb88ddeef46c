import fc from 'fast-check';
import { describePrice, formatMinorAmount, minorToDecimalString } from './price-format.js';

describe('minorToDecimalString', () => {
  it.each([
    [1999, 'USD', '19.99'],
    [5, 'USD', '0.05'],
    [0, 'USD', '0.00'],
    [-250, 'EUR', '-2.50'],
    [1000, 'JPY', '1000'],
    [1500, 'KWD', '1.500'],
    [7, 'BHD', '0.007'],
    [123, 'XXX', '1.23'],
  ])('%i %s -> %s', (amount, currency, expected) => {
    expect(minorToDecimalString(amount, currency)).toBe(expected);
  });

  it('round-trips every amount exactly', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 99_999_999 }), fc.constantFrom('USD', 'JPY', 'KWD'), (amount, currency) => {
        expect(Number(minorToDecimalString(amount, currency).replace('.', ''))).toBe(amount);
      }),
    );
  });

  it('refuses a non-integer amount', () => {
    expect(() => minorToDecimalString(19.99, 'USD')).toThrow(RangeError);
  });
});

describe('formatMinorAmount', () => {
  it('uses the currency exponent for the decimals', () => {
    expect(formatMinorAmount(100000, 'USD')).toBe('$1,000.00');
    expect(formatMinorAmount(1000, 'JPY')).toBe('¥1,000');
    expect(formatMinorAmount(1500, 'KWD')).toMatch(/^KWD\s1\.500$/);
    expect(formatMinorAmount(1999, 'EUR', 'de-DE')).toMatch(/^19,99\s€$/);
  });

  it('does not lose precision on large amounts', () => {
    expect(formatMinorAmount(99_999_999, 'USD')).toBe('$999,999.99');
  });
});

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
