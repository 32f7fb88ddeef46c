import fc from 'fast-check';
import { freePlanFeeAmount, gatewayAFees } from './fee-policy.js';

describe('gateway-A fee policy', () => {
  it.each([
    [0, 0],
    [24, 0],
    [25, 1],
    [74, 1],
    [75, 2],
    [100, 2],
    [1000, 20],
    [1999, 40],
    [9999, 200],
    [123456789, 2469136],
  ])('2%% of %i minor units is %i (half up)', (amount, fee) => {
    expect(freePlanFeeAmount(amount)).toBe(fee);
  });

  it('equals the exact decimal 2% rounded half up, for any amount', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 99_999_999_999 }), (amount) => {
        const hundredths = BigInt(amount) * 2n; // fee in 1/100 minor units
        const expected = Number((hundredths + 50n) / 100n);
        expect(freePlanFeeAmount(amount)).toBe(expected);
      }),
    );
  });

  it('refuses non-integer or negative amounts', () => {
    expect(() => freePlanFeeAmount(19.99)).toThrow(RangeError);
    expect(() => freePlanFeeAmount(-1)).toThrow(RangeError);
  });

  it('charges the free plan and not the Pro plan', () => {
    expect(gatewayAFees('free').applicationFeeAmount(1000)).toBe(20);
    expect(gatewayAFees('free').applicationFeePercent).toBe(2);
    expect(gatewayAFees('pro').applicationFeeAmount(1000)).toBeNull();
    expect(gatewayAFees('pro').applicationFeePercent).toBeNull();
  });
});
