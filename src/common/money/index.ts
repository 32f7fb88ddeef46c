export { CURRENCY_CODES, ISO_4217_EXPONENTS, isCurrencyCode } from './currencies.js';
