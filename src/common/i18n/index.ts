export {
  CONSOLE_LOCALES,
  type ConsoleLocale,
  isConsoleLocale,
  isPayerLocale,
  PAYER_LOCALES,
  type PayerLocale,
  primaryLanguage,
  SOURCE_LOCALE,
} from './locales.js';
export { negotiateLocale, parseAcceptLanguage } from './negotiate.js';
export { type Catalog, catalogProblems } from './catalog-check.js';
