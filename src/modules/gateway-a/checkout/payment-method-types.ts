import { InvalidParamsError } from '../../../common/errors/index.js';
import type { CheckoutPlan } from '../../../config/index.js';

/** The part of a PaymentIntent / SetupIntent create that says which payment methods the payer may use. */
export interface MethodChoice {
  allowed_payment_method_types?: string[];
  automatic_payment_methods?: { enabled: true };
  payment_method_options?: {
    us_bank_account?: { verification_method: 'instant'; financial_connections: { permissions: Array<'payment_method'> } };
  };
}

/** Form methods that are card payments at the gateway (device wallets tokenise a card). */
const CARD_METHODS = ['ccard', 'device_wallet_1', 'device_wallet_2'];

/**
 * Bank debit (`sepa`, Pro only) uses the gateway's bank rail for the currency: EUR → SEPA Direct
 * Debit (the payer enters an IBAN and accepts the mandate in the payment element); USD → US bank
 * account (ACH) linked through the gateway's bank-linking flow (Financial Connections, instant
 * verification, permission to create the payment method). Other currencies have no bank rail.
 */
function bankDebitChoice(currency: string): MethodChoice {
  switch (currency.toUpperCase()) {
    case 'EUR':
      return { allowed_payment_method_types: ['sepa_debit'] };
    case 'USD':
      return {
        allowed_payment_method_types: ['us_bank_account'],
        payment_method_options: { us_bank_account: { verification_method: 'instant', financial_connections: { permissions: ['payment_method'] } } },
      };
    default:
      throw new InvalidParamsError({ payment_method: `bank debit (sepa) is available for EUR and USD payments, not ${currency.toUpperCase()}` });
  }
}

/**
 * The payment method types of an intent for the record's form method. Throws (400 naming
 * `payment_method`) before any gateway call when the plan or currency does not allow the method.
 */
export function methodChoice(method: string, currency: string, plan: CheckoutPlan): MethodChoice {
  if (method === 'sepa') {
    if (plan !== 'pro') throw new InvalidParamsError({ payment_method: 'bank debit (sepa) needs the Pro plan; the free plan takes cards and wallets' });
    return bankDebitChoice(currency);
  }
  if (CARD_METHODS.includes(method)) return { allowed_payment_method_types: ['card'] };
  // Regional wallets: whatever the merchant enabled for the currency in the gateway's dashboard.
  return { automatic_payment_methods: { enabled: true } };
}
