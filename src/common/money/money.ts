import { ISO_4217_EXPONENTS, isCurrencyCode } from './currencies.js';

/**
 * Money is an integer of minor units plus an ISO 4217 code (docs/decisions.md §4). The minor unit is the
 * one gateway A (the card gateway) expects in its `amount` fields, which differs from ISO 4217 for
 * a few currencies; every other currency keeps its ISO exponent.
 */

/** Gateway A's zero-decimal currencies: the amount is in whole units (500 JPY is `500`). */
export const ZERO_DECIMAL_CURRENCIES: readonly string[] = [
  'BIF', 'CLP', 'DJF', 'GNF', 'JPY', 'KMF', 'KRW', 'MGA', 'PYG', 'RWF', 'UGX', 'VND', 'VUV', 'XAF', 'XOF', 'XPF',
];

/** Gateway A's three-decimal currencies: the last digit of the amount must be 0 (5.124 KWD is refused). */
export const THREE_DECIMAL_CURRENCIES: readonly string[] = ['BHD', 'JOD', 'KWD', 'OMR', 'TND'];

/**
 * Gateway A's special cases. ISK is effectively zero-decimal but stays two-decimal in the API for
 * backwards compatibility, so the amount must be a multiple of 100 (5 ISK is `500`). HUF and TWD
 * are charged with two decimals; only their payouts are whole units, which does not concern charges.
 * UGX is in the zero-decimal list above (its ISO exponent is 0 as well).
 */
export const WHOLE_UNITS_IN_TWO_DECIMALS: readonly string[] = ['ISK'];
export const WHOLE_UNIT_PAYOUT_CURRENCIES: readonly string[] = ['HUF', 'TWD'];

export interface CurrencyRule {
  code: string;
  /** Digits after the decimal point that one minor unit stands for. */
  exponent: number;
  /** Minor-unit amounts must be a multiple of this (10 for three-decimal, 100 for ISK). */
  step: number;
  /** Fraction digits shown to people. */
  displayDigits: number;
}

export class MoneyFormatError extends RangeError {
  constructor(message: string) {
    super(message);
    this.name = 'MoneyFormatError';
  }
}

const RULES = new Map<string, CurrencyRule>(
  Object.keys(ISO_4217_EXPONENTS).map((code) => [code, buildRule(code)]),
);

function buildRule(code: string): CurrencyRule {
  if (ZERO_DECIMAL_CURRENCIES.includes(code)) return { code, exponent: 0, step: 1, displayDigits: 0 };
  if (THREE_DECIMAL_CURRENCIES.includes(code)) return { code, exponent: 3, step: 10, displayDigits: 3 };
  if (WHOLE_UNITS_IN_TWO_DECIMALS.includes(code)) return { code, exponent: 2, step: 100, displayDigits: 0 };
  const exponent = ISO_4217_EXPONENTS[code];
  return { code, exponent, step: 1, displayDigits: exponent };
}

/** The rule of a supported currency (case-insensitive code); throws for an unknown code. */
export function currencyRule(currency: string): CurrencyRule {
  const code = typeof currency === 'string' ? currency.toUpperCase() : '';
  if (!isCurrencyCode(code)) throw new MoneyFormatError(`${String(currency)} is not a supported currency`);
  return RULES.get(code)!;
}

/** True for a safe integer that the currency can charge (a multiple of its step). */
export function isValidMinorAmount(minor: number, currency: string): boolean {
  return Number.isSafeInteger(minor) && minor % currencyRule(currency).step === 0;
}

const DECIMAL = /^(-)?(\d+)(?:\.(\d+))?$/;

/**
 * Exact decimal → minor units: `toMinorUnits('19.99', 'USD')` is 1999, never 1998 as
 * `19.99 * 100` would truncate. A number is read through its shortest round-trip decimal form
 * (String(19.99) is '19.99'). More decimal places than the currency has, unless they are zeros,
 * and amounts that break the currency's step are refused rather than rounded.
 */
export function toMinorUnits(amount: string | number, currency: string): number {
  const rule = currencyRule(currency);
  let text: string;
  if (typeof amount === 'number') {
    if (!Number.isFinite(amount)) throw new MoneyFormatError('amount must be a finite number');
    text = String(amount);
  } else if (typeof amount === 'string') {
    text = amount;
  } else {
    throw new MoneyFormatError('amount must be a decimal number');
  }
  const match = DECIMAL.exec(text);
  if (!match) throw new MoneyFormatError('amount must be a plain decimal number such as 19.99');
  const [, sign, whole, fraction = ''] = match;
  const significant = fraction.replace(/0+$/, '');
  if (significant.length > rule.exponent) {
    throw new MoneyFormatError(`amount has more decimal places than ${rule.code} allows (${rule.exponent})`);
  }
  const digits = BigInt(whole) * 10n ** BigInt(rule.exponent) + BigInt(significant.padEnd(rule.exponent, '0') || '0');
  if (digits > BigInt(Number.MAX_SAFE_INTEGER)) throw new MoneyFormatError('amount is too large');
  const minor = Number(digits) * (sign && digits !== 0n ? -1 : 1);
  if (minor % rule.step !== 0) throw new MoneyFormatError(stepMessage(rule));
  return minor;
}

/** Minor units → the exact decimal string in the currency's exponent (1999 USD → '19.99'). */
export function toDecimalString(minor: number, currency: string): string {
  const rule = currencyRule(currency);
  if (!Number.isSafeInteger(minor)) throw new MoneyFormatError('minor units must be a safe integer');
  const digits = Math.abs(minor).toString();
  const sign = minor < 0 ? '-' : '';
  if (rule.exponent === 0) return sign + digits;
  const padded = digits.padStart(rule.exponent + 1, '0');
  return `${sign}${padded.slice(0, -rule.exponent)}.${padded.slice(-rule.exponent)}`;
}

/** Minor units → major units as a number (1999 USD → 19.99), e.g. for section B's `amount`. */
export function fromMinorUnits(minor: number, currency: string): number {
  return Number(toDecimalString(minor, currency));
}

/** Display form for people, e.g. `$19.99`, `¥500`, `ISK 5`, `KWD 1.500` (en-US). */
export function formatMoney(minor: number, currency: string, locale = 'en-US'): string {
  const rule = currencyRule(currency);
  const formatter = new Intl.NumberFormat(locale, {
    style: 'currency',
    currency: rule.code,
    minimumFractionDigits: rule.displayDigits,
    maximumFractionDigits: rule.displayDigits,
  });
  // Intl formats a decimal string exactly; a float could round the last digit of large amounts.
  return formatter.format(toDecimalString(minor, rule.code) as unknown as number);
}

function stepMessage(rule: CurrencyRule): string {
  return `${rule.code} amounts must be a multiple of ${toDecimalString(rule.step, rule.code)}`;
}
