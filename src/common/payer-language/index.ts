export {
  BROWSER_KEY_PREFIX,
  choosePayerLocale,
  type FormLocaleSetting,
  type MessageValues,
  payerCatalogs,
  PayerTranslator,
  payerTranslator,
} from './payer-translator.js';
