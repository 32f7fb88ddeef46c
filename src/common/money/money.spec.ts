import fc from 'fast-check';
import { CURRENCY_CODES, ISO_4217_EXPONENTS } from './currencies.js';
import { currencyRule, formatMoney, fromMinorUnits, isValidMinorAmount, MoneyFormatError, THREE_DECIMAL_CURRENCIES, toDecimalString, toMinorUnits, ZERO_DECIMAL_CURRENCIES } from './money.js';

const currency = fc.constantFrom(...CURRENCY_CODES);
/** A chargeable amount of a currency: a multiple of its step, up to 10^12 steps. */
const chargeable = currency.chain((code) =>
  fc.record({ code: fc.constant(code), minor: fc.integer({ min: 0, max: 2 ** 31 - 1 }).map((n) => n * currencyRule(code).step) }),
);

describe('currency rules', () => {
  it.each([
    ['USD', 2, 1],
    ['EUR', 2, 1],
    ['JPY', 0, 1],
    ['KRW', 0, 1],
    ['VND', 0, 1],
    ['MGA', 0, 1], // ISO says 2, the gateway says zero-decimal
    ['UGX', 0, 1],
    ['BHD', 3, 10],
    ['KWD', 3, 10],
    ['ISK', 2, 100], // ISO says 0, the gateway keeps two decimals of whole krónur
    ['HUF', 2, 1],
    ['TWD', 2, 1],
    ['IQD', 3, 1], // three-decimal in ISO, not a gateway three-decimal currency
  ])('%s has exponent %i and step %i', (code, exponent, step) => {
    expect(currencyRule(code)).toEqual(expect.objectContaining({ code, exponent, step }));
  });

  it('accepts lower-case codes and refuses unknown ones', () => {
    expect(currencyRule('usd').code).toBe('USD');
    expect(() => currencyRule('XXX')).toThrow(MoneyFormatError);
    expect(() => currencyRule('')).toThrow(MoneyFormatError);
  });

  it('uses the ISO exponent for every currency outside the gateway lists', () => {
    for (const code of CURRENCY_CODES) {
      if (ZERO_DECIMAL_CURRENCIES.includes(code) || THREE_DECIMAL_CURRENCIES.includes(code) || code === 'ISK') continue;
      expect(currencyRule(code).exponent).toBe(ISO_4217_EXPONENTS[code]);
    }
  });
});

describe('toMinorUnits', () => {
  it.each([
    ['19.99', 'USD', 1999],
    [19.99, 'USD', 1999],
    [0.29, 'USD', 29], // 0.29 * 100 is 28.999999999999996 in floating point
    [1.005, 'IQD', 1005], // 1.005 * 1000 is 1004.9999999999999 in floating point
    ['1.1', 'USD', 110],
    ['10', 'USD', 1000],
    ['19.990', 'USD', 1999],
    ['500', 'JPY', 500],
    ['5', 'ISK', 500],
    ['5.00', 'ISK', 500],
    ['1.250', 'BHD', 1250],
    ['0', 'EUR', 0],
    ['-4.5', 'EUR', -450],
  ])('%p %s → %i', (amount, code, minor) => {
    expect(toMinorUnits(amount, code)).toBe(minor);
  });

  it.each([
    ['19.999', 'USD'],
    ['1.5', 'JPY'],
    ['5.5', 'ISK'],
    ['1.255', 'KWD'],
    ['1e3', 'USD'],
    [1e21, 'USD'],
    [Number.NaN, 'USD'],
    [Number.POSITIVE_INFINITY, 'USD'],
    ['', 'USD'],
    ['.5', 'USD'],
    ['5.', 'USD'],
    [' 5', 'USD'],
    ['1,5', 'EUR'],
    ['0x10', 'USD'],
    ['99999999999999999', 'USD'],
  ])('refuses %p %s', (amount, code) => {
    expect(() => toMinorUnits(amount, code)).toThrow(MoneyFormatError);
  });

  it('round-trips every chargeable amount of every currency through its decimal string', () => {
    fc.assert(
      fc.property(chargeable, ({ code, minor }) => {
        expect(toMinorUnits(toDecimalString(minor, code), code)).toBe(minor);
      }),
      { numRuns: 2000 },
    );
  });

  it('round-trips through the major-unit number (section B amounts)', () => {
    fc.assert(
      fc.property(chargeable, ({ code, minor }) => {
        expect(toMinorUnits(fromMinorUnits(minor, code), code)).toBe(minor);
      }),
      { numRuns: 2000 },
    );
  });

  it('reads whole.fraction digits exactly, as integer arithmetic would', () => {
    fc.assert(
      fc.property(currency, fc.nat({ max: 10_000_000 }), fc.nat({ max: 999 }), (code, whole, fraction) => {
        const { exponent, step } = currencyRule(code);
        const scale = 10 ** exponent;
        const frac = fraction % scale;
        const expected = whole * scale + frac;
        const text = exponent === 0 ? String(whole) : `${whole}.${String(frac).padStart(exponent, '0')}`;
        if (expected % step === 0) expect(toMinorUnits(text, code)).toBe(expected);
        else expect(() => toMinorUnits(text, code)).toThrow(MoneyFormatError);
      }),
      { numRuns: 2000 },
    );
  });

  it('never rounds: one digit more than the exponent is refused unless it is zero', () => {
    fc.assert(
      fc.property(currency, fc.nat({ max: 100000 }), fc.integer({ min: 1, max: 9 }), (code, whole, extra) => {
        const { exponent } = currencyRule(code);
        const text = `${whole}.${'0'.repeat(exponent)}${extra}`;
        expect(() => toMinorUnits(text, code)).toThrow(MoneyFormatError);
      }),
    );
  });
});

describe('toDecimalString / fromMinorUnits', () => {
  it.each([
    [1999, 'USD', '19.99', 19.99],
    [5, 'USD', '0.05', 0.05],
    [500, 'JPY', '500', 500],
    [1250, 'KWD', '1.250', 1.25],
    [500, 'ISK', '5.00', 5],
    [-450, 'EUR', '-4.50', -4.5],
  ])('%i %s → %s / %d', (minor, code, text, major) => {
    expect(toDecimalString(minor, code)).toBe(text);
    expect(fromMinorUnits(minor, code)).toBe(major);
  });

  it('has exactly `exponent` fraction digits for every currency', () => {
    fc.assert(
      fc.property(chargeable, ({ code, minor }) => {
        const { exponent } = currencyRule(code);
        const text = toDecimalString(minor, code);
        expect(text.includes('.') ? text.split('.')[1].length : 0).toBe(exponent);
      }),
    );
  });

  it('refuses non-integers', () => {
    expect(() => toDecimalString(19.5, 'USD')).toThrow(MoneyFormatError);
  });
});

describe('isValidMinorAmount', () => {
  it('follows the step of the currency', () => {
    expect(isValidMinorAmount(1999, 'USD')).toBe(true);
    expect(isValidMinorAmount(1255, 'KWD')).toBe(false);
    expect(isValidMinorAmount(1250, 'KWD')).toBe(true);
    expect(isValidMinorAmount(550, 'ISK')).toBe(false);
    expect(isValidMinorAmount(1.5, 'USD')).toBe(false);
  });
});

describe('formatMoney', () => {
  it.each([
    [1999, 'USD', '$19.99'],
    [123456789, 'USD', '$1,234,567.89'],
    [500, 'JPY', '¥500'],
    [500, 'ISK', 'ISK 5'],
    [1250, 'KWD', 'KWD 1.250'],
    [1999, 'EUR', '€19.99'],
  ])('%i %s → %s', (minor, code, text) => {
    expect(formatMoney(minor, code).replace(/\u00a0/g, ' ')).toBe(text);
  });

  it('shows exactly the decimal digits of the amount for every currency', () => {
    fc.assert(
      fc.property(chargeable, ({ code, minor }) => {
        const { displayDigits, exponent } = currencyRule(code);
        const shown = formatMoney(minor, code).replace(/[^0-9]/g, '');
        const exact = toDecimalString(minor, code).replace('.', '');
        const expected = exact.slice(0, exact.length - (exponent - displayDigits));
        // Intl drops leading zeros of the whole part ('0.05' shows as 0.05, digits '005').
        expect(shown.replace(/^0+/, '')).toBe(expected.replace(/^0+/, ''));
      }),
      { numRuns: 1000 },
    );
  });

  it('formats in other locales', () => {
    expect(formatMoney(1999, 'EUR', 'de-DE').replace(/\u00a0/g, ' ')).toBe('19,99 €');
  });
});
