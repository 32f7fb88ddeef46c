import { currencyRule, MoneyFormatError, toDecimalString, toMinorUnits } from '../../../common/money/index.js';
import type { GatewayBMoney } from './gateway-b-wire.js';

/**
 * Gateway B's currencies (PayPal REST currency codes). PayPal refuses any decimals for HUF, JPY
 * and TWD, and more than two for the rest.
 */
export const GATEWAY_B_CURRENCIES: readonly string[] = [
  'AUD', 'BRL', 'CAD', 'CNY', 'CZK', 'DKK', 'EUR', 'HKD', 'HUF', 'ILS', 'JPY', 'MYR', 'MXN', 'TWD',
  'NZD', 'NOK', 'PHP', 'PLN', 'GBP', 'SGD', 'SEK', 'CHF', 'THB', 'USD',
];
export const GATEWAY_B_WHOLE_UNIT_CURRENCIES: readonly string[] = ['HUF', 'JPY', 'TWD'];

export function isGatewayBCurrency(currency: string): boolean {
  return typeof currency === 'string' && GATEWAY_B_CURRENCIES.includes(currency.toUpperCase());
}

/**
 * A stored amount (integer minor units, the money module's exponent) as PayPal's `amount`.
 *
 * The decimal string comes from `toDecimalString`. The money module follows gateway A's
 * exponents, which agree with PayPal except for HUF and TWD: two decimals there (gateway A
 * charges them so), none at PayPal. For those the string must end in `.00`, which is dropped
 * (150000 HUF minor units → `"1500"`); an amount with fillér/cents cannot be sent to PayPal and
 * is refused here (MoneyFormatError) rather than rounded. Unsupported currencies and amounts
 * that are not positive are refused too.
 */
export function toGatewayBAmount(minor: number, currency: string): GatewayBMoney {
  const code = currencyRule(currency).code;
  if (!GATEWAY_B_CURRENCIES.includes(code)) throw new MoneyFormatError(`${code} is not a gateway B currency`);
  if (!Number.isSafeInteger(minor) || minor <= 0) throw new MoneyFormatError('gateway B amounts must be a positive number of minor units');
  let value = toDecimalString(minor, code);
  if (GATEWAY_B_WHOLE_UNIT_CURRENCIES.includes(code) && value.includes('.')) {
    const [whole, fraction] = value.split('.');
    if (/[^0]/.test(fraction)) throw new MoneyFormatError(`${code} amounts must be whole units for gateway B`);
    value = whole;
  }
  return { currency_code: code, value };
}

/** PayPal's `amount` as integer minor units of the money module (`"1500"` HUF → 150000). */
export function fromGatewayBAmount(amount: GatewayBMoney): { minor: number; currency: string } {
  const code = currencyRule(amount.currency_code).code;
  return { minor: toMinorUnits(amount.value, code), currency: code };
}
