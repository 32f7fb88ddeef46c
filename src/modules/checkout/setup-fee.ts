import type { PaymentForm } from '../forms/index.js';
import type { PaymentRecord } from '../payments/index.js';

export type SetupFee = { ok: true; amount: number } | { ok: false; reason: string };

/**
 * The one-off setup fee (minor units; 0 for none) to add to the first invoice of a subscription
 * record. The record keeps the recurring amount only, so the fee is read from the form price the
 * record names, when the subscription is created. That price must still be the record's price
 * (same currency and frequency): a fee in another currency's minor units, or of another price,
 * must never be charged.
 */
export function setupFeeOf(form: Pick<PaymentForm, 'settings'> | null, payment: Pick<PaymentRecord, 'plan_index' | 'price_index' | 'currency' | 'frequency'>): SetupFee {
  if (!form) return { ok: false, reason: 'its payment form no longer exists' };
  const price = payment.plan_index === null || payment.price_index === null ? undefined : form.settings.plans?.[payment.plan_index]?.prices?.[payment.price_index];
  if (!price) return { ok: false, reason: 'its form price no longer exists' };
  if (price.currency.toUpperCase() !== payment.currency.toUpperCase() || price.frequency !== payment.frequency) {
    return { ok: false, reason: 'its form price changed currency or frequency since the payment details were sent' };
  }
  return { ok: true, amount: price.setup_amount ?? 0 };
}
