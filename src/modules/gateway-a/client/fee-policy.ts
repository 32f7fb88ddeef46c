import type { CheckoutPlan } from '../../../config/index.js';

/** docs/decisions.md §7: the free plan's application fee is 2 % of each gateway-A payment; Pro pays none. */
export const FREE_PLAN_FEE_PERCENT = 2;

/**
 * 2 % of `amount` (integer minor units), rounded half up to the minor unit, in integer
 * arithmetic so that no float ever touches money: 1999 → 40 (39.98), 25 → 1 (0.5), 24 → 0.
 */
export function freePlanFeeAmount(amount: number): number {
  if (!Number.isSafeInteger(amount) || amount < 0) throw new RangeError('amount must be a non-negative integer of minor units');
  return Math.floor((amount * FREE_PLAN_FEE_PERCENT + 50) / 100);
}

/** What a gateway-A call must carry for the plan: `application_fee_amount` / `application_fee_percent`. */
export interface GatewayAFees {
  /** For a one-time payment intent of `amount`; null on Pro (send no fee). */
  applicationFeeAmount(amount: number): number | null;
  /** For a subscription; null on Pro. */
  applicationFeePercent: number | null;
}

export function gatewayAFees(plan: CheckoutPlan): GatewayAFees {
  return plan === 'free'
    ? { applicationFeeAmount: freePlanFeeAmount, applicationFeePercent: FREE_PLAN_FEE_PERCENT }
    : { applicationFeeAmount: () => null, applicationFeePercent: null };
}
