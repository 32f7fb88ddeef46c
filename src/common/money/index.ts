export { CURRENCY_CODES, ISO_4217_EXPONENTS, isCurrencyCode } from './currencies.js';
export {
  type CurrencyRule,
  currencyRule,
  formatMoney,
  fromMinorUnits,
  isValidMinorAmount,
  MoneyFormatError,
  THREE_DECIMAL_CURRENCIES,
  toDecimalString,
  toMinorUnits,
  WHOLE_UNIT_PAYOUT_CURRENCIES,
  WHOLE_UNITS_IN_TWO_DECIMALS,
  ZERO_DECIMAL_CURRENCIES,
} from './money.js';
