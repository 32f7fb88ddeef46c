import { InvalidParamsError } from '../../../common/errors/index.js';
import type { CheckoutPlan } from '../../../config/index.js';
import type { DriverMethodOptions } from '../../gateways/index.js';

/** The part of a PaymentIntent / SetupIntent create that says which payment methods the payer may use. */
export interface MethodChoice {
  allowed_payment_method_types?: string[];
  automatic_payment_methods?: { enabled: true };
  excluded_payment_method_types?: string[];
  payment_method_options?: {
    us_bank_account?: { verification_method: 'instant'; financial_connections: { permissions: Array<'payment_method'> } };
  };
}

/**
 * Form methods that are card payments at the gateway, and the gateway's payment method types
 * each allows. The card method also takes Link (the gateway's saved-card autofill, its own
 * payment method type); device wallets tokenise a card, so at the gateway they are `card`:
 * `device_wallet_1` is Apple Pay, `device_wallet_2` Google Pay, told apart in the payment
 * element only (its `wallets` option), never by the intent.
 */
const CARD_METHOD_TYPES: Readonly<Record<string, readonly string[]>> = {
  ccard: ['card', 'link'],
  device_wallet_1: ['card'],
  device_wallet_2: ['card'],
};
const REGIONAL_WALLETS = ['regional_wallet_1', 'regional_wallet_2'];
/**
 * What a regional wallet's intent excludes from the merchant's enabled methods: the types that
 * belong to other form methods (cards and the card-backed wallets, bank debit), so a payer who
 * chose a regional wallet cannot pay it by card. (`link` cannot be excluded at the gateway.)
 */
const NOT_REGIONAL_TYPES = ['card', 'sepa_debit', 'us_bank_account'];

/** How the PaymentIntents of form payments are captured (at once) and what their SetupIntents are for (later charges without the payer). */
export const INTENT_CAPTURE_METHOD = 'automatic';
export const SETUP_INTENT_USAGE = 'off_session';

/** The form methods the hosted page's payment element pays with (bank debit needs a currency rule and the Pro plan: not on the page). */
export const PAYMENT_ELEMENT_METHODS: readonly string[] = [...Object.keys(CARD_METHOD_TYPES), ...REGIONAL_WALLETS];

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

/** Cards, device wallets and regional wallets: the same for every currency and plan. */
function walletOrCardChoice(method: string): MethodChoice {
  const types = CARD_METHOD_TYPES[method];
  if (types) return { allowed_payment_method_types: [...types] };
  // Regional wallets: whatever the merchant enabled for the currency in the gateway's dashboard, except other methods' types.
  return { automatic_payment_methods: { enabled: true }, excluded_payment_method_types: [...NOT_REGIONAL_TYPES] };
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
  return walletOrCardChoice(method);
}

/**
 * What the hosted page mounts the payment element with for a form method, in deferred-intent
 * mode (the amount, currency and mode come from the chosen price). Built from the very
 * `MethodChoice` the intent route sends, because the gateway refuses to confirm an intent whose
 * parameters differ from the element's: `allowed_payment_method_types` ↔ `paymentMethodTypes`,
 * automatic methods ↔ no `paymentMethodTypes` (and `excluded_payment_method_types` ↔
 * `excludedPaymentMethodTypes`), `capture_method: automatic` ↔ `captureMethod` (a one-time
 * price's PaymentIntent), `usage: off_session` ↔ `setupFutureUsage` (a recurring price's
 * SetupIntent). The page never asks to save a method on a one-time price, so neither side sets
 * `setup_future_usage` there.
 */
export function paymentElementOptions(method: string): DriverMethodOptions {
  const choice = walletOrCardChoice(method);
  const elements: Record<string, unknown> = choice.allowed_payment_method_types
    ? { paymentMethodTypes: choice.allowed_payment_method_types }
    : { excludedPaymentMethodTypes: choice.excluded_payment_method_types };
  return {
    elements,
    modes: { payment: { captureMethod: INTENT_CAPTURE_METHOD }, setup: { setupFutureUsage: SETUP_INTENT_USAGE } },
    element: { wallets: { applePay: method === 'device_wallet_1' ? 'auto' : 'never', googlePay: method === 'device_wallet_2' ? 'auto' : 'never' } },
    leaves_page: REGIONAL_WALLETS.includes(method),
  };
}
