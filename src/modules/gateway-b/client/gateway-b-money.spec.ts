import fc from 'fast-check';
import { validateAmount } from '../../../../test/fakes/gateway-b/index.js';
import { currencyRule, MoneyFormatError, toDecimalString } from '../../../common/money/index.js';

const currencyExponent = (currency: string): number => currencyRule(currency).exponent;
import { fromGatewayBAmount, GATEWAY_B_CURRENCIES, GATEWAY_B_WHOLE_UNIT_CURRENCIES, toGatewayBAmount } from './gateway-b-money.js';

describe('gateway B amounts (money module → PayPal decimal strings)', () => {
  it.each([
    [1999, 'USD', '19.99'],
    [5, 'eur', '0.05'],
    [100, 'GBP', '1.00'],
    [500, 'JPY', '500'],
    [150000, 'HUF', '1500'],
    [30000, 'TWD', '300'],
  ])('%i %s → %s', (minor, currency, value) => {
    expect(toGatewayBAmount(minor, currency)).toEqual({ currency_code: currency.toUpperCase(), value });
  });

  it.each([
    [150050, 'HUF', 'whole units'],
    [1, 'TWD', 'whole units'],
    [1000, 'KWD', 'not a gateway B currency'],
    [1000, 'ISK', 'not a gateway B currency'],
    [0, 'USD', 'positive'],
    [-5, 'USD', 'positive'],
    [1.5, 'USD', 'positive'],
  ])('refuses %s %s (%s)', (minor, currency, message) => {
    expect(() => toGatewayBAmount(minor, currency)).toThrow(MoneyFormatError);
    expect(() => toGatewayBAmount(minor, currency)).toThrow(message);
  });

  it('reads PayPal amounts back into minor units', () => {
    expect(fromGatewayBAmount({ currency_code: 'USD', value: '19.99' })).toEqual({ minor: 1999, currency: 'USD' });
    expect(fromGatewayBAmount({ currency_code: 'JPY', value: '500' })).toEqual({ minor: 500, currency: 'JPY' });
    expect(fromGatewayBAmount({ currency_code: 'HUF', value: '1500' })).toEqual({ minor: 150000, currency: 'HUF' });
    expect(() => fromGatewayBAmount({ currency_code: 'USD', value: '1.001' })).toThrow(MoneyFormatError);
    expect(() => fromGatewayBAmount({ currency_code: 'XYZ', value: '1' })).toThrow(MoneyFormatError);
  });

  it('produces only what PayPal accepts (the fake\'s rules), and round-trips, for every gateway B currency', () => {
    const amount = fc.constantFrom(...GATEWAY_B_CURRENCIES).chain((currency) =>
      fc.record({
        currency: fc.constant(currency),
        minor: fc.integer({ min: 1, max: 10_000_000 }).map((n) => (GATEWAY_B_WHOLE_UNIT_CURRENCIES.includes(currency) && currencyExponent(currency) === 2 ? n * 100 : n)),
      }),
    );
    fc.assert(
      fc.property(amount, ({ currency, minor }) => {
        const money = toGatewayBAmount(minor, currency);
        expect(() => validateAmount(money, '/amount')).not.toThrow();
        expect(fromGatewayBAmount(money)).toEqual({ minor, currency });
      }),
    );
  });

  /**
   * Finding, left as it is: the money module (gateway A's exponents) gives HUF and TWD two
   * decimals; PayPal takes none. `toDecimalString` alone would send "1500.00" HUF, which PayPal
   * refuses (422 DECIMAL_PRECISION in Orders v2); `toGatewayBAmount` drops a zero fraction and refuses
   * any other. JPY agrees (exponent 0 in both).
   */
  it('pins where the money module and PayPal disagree: HUF and TWD', () => {
    const disagreeing = GATEWAY_B_CURRENCIES.filter((code) => (currencyExponent(code) === 0) !== GATEWAY_B_WHOLE_UNIT_CURRENCIES.includes(code));
    expect(disagreeing).toEqual(['HUF', 'TWD']);
    expect(toDecimalString(150000, 'HUF')).toBe('1500.00');
    expect(() => validateAmount({ currency_code: 'HUF', value: toDecimalString(150000, 'HUF') }, '/amount')).toThrow(expect.objectContaining({ status: 422 }));
    expect(currencyExponent('JPY')).toBe(0);
  });
});
