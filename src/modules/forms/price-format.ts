import { ISO_4217_EXPONENTS } from '../../common/money/index.js';
import type { FormPrice, Frequency } from './form-settings.js';

/** How often a price recurs, as a payer reads it after the amount ("$9.99 / month"). */
export const FREQUENCY_LABELS: Readonly<Record<Frequency, string>> = {
  'one-time': 'one time',
  d_1: 'day',
  w_1: 'week',
  m_1: 'month',
  m_3: '3 months',
  m_6: '6 months',
  y_1: 'year',
  y_3: '3 years',
};

/** Minor-unit exponent of a currency (ISO 4217); unknown codes are treated as two-decimal. */
export function currencyExponent(currency: string): number {
  return Object.prototype.hasOwnProperty.call(ISO_4217_EXPONENTS, currency) ? ISO_4217_EXPONENTS[currency] : 2;
}

/**
 * Exact decimal string of an integer minor-unit amount (1999 USD -> "19.99", 1000 JPY -> "1000",
 * 1500 KWD -> "1.500"). String arithmetic, so no float ever touches the amount.
 */
export function minorToDecimalString(amount: number, currency: string): string {
  if (!Number.isSafeInteger(amount)) throw new RangeError('amount must be an integer of minor units');
  const exponent = currencyExponent(currency);
  const digits = Math.abs(amount).toString().padStart(exponent + 1, '0');
  const whole = exponent === 0 ? digits : digits.slice(0, -exponent);
  const fraction = exponent === 0 ? '' : `.${digits.slice(-exponent)}`;
  return `${amount < 0 ? '-' : ''}${whole}${fraction}`;
}

const formatters = new Map<string, Intl.NumberFormat>();

/** "$1,000.00", "¥1,000", "KWD 1.500": the currency's own number of decimals, in `locale`. */
export function formatMinorAmount(amount: number, currency: string, locale = 'en-US'): string {
  const exponent = currencyExponent(currency);
  const key = `${locale}|${currency}`;
  let formatter = formatters.get(key);
  if (!formatter) {
    formatter = new Intl.NumberFormat(locale, { style: 'currency', currency, minimumFractionDigits: exponent, maximumFractionDigits: exponent });
    formatters.set(key, formatter);
  }
  // Intl formats a decimal string exactly (no binary float in between).
  return formatter.format(minorToDecimalString(amount, currency) as unknown as number);
}

/** A price as the payer reads it: "$10.00", "$9.99 / month + $5.00 setup fee", "Any amount from $1.00 to $10,000.00". */
export function describePrice(price: FormPrice, locale = 'en-US'): string {
  const money = (value: number) => formatMinorAmount(value, price.currency, locale);
  const base = price.custom_amount
    ? `Any amount from ${money(price.custom_amount.min)} to ${money(price.custom_amount.max)}`
    : money(price.amount);
  const every = price.frequency === 'one-time' ? '' : ` / ${FREQUENCY_LABELS[price.frequency]}`;
  const setup = price.setup_amount ? ` + ${money(price.setup_amount)} setup fee` : '';
  return `${base}${every}${setup}`;
}
