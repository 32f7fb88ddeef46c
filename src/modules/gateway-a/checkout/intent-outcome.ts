import type { PaymentStatus } from '../../payments/index.js';

/** Where a record goes for a gateway-A intent's status, and whether the payer still has to act. */
export interface IntentOutcome {
  status: PaymentStatus;
  requiresAction: boolean;
}

/**
 * Pure mapping of a PaymentIntent (or a not yet succeeded SetupIntent) status to the record's
 * target status. A succeeded SetupIntent belongs to a subscription record: the caller creates the
 * subscription and uses `subscriptionOutcome` instead.
 */
export function intentOutcome(intent: { object: string; status: string }): IntentOutcome {
  switch (intent.status) {
    case 'succeeded':
      return { status: 'completed', requiresAction: false };
    case 'processing':
      return { status: 'processing', requiresAction: false };
    // Automatic capture: an authorised intent is money on its way, not a payer task.
    case 'requires_capture':
      return { status: 'processing', requiresAction: false };
    case 'canceled':
      return { status: 'canceled', requiresAction: false };
    // requires_payment_method / requires_confirmation / requires_action: the payer has to act.
    default:
      return { status: 'pending', requiresAction: true };
  }
}

/** A subscription's status as its first payment's status: active (or trialing) completes it. */
export function subscriptionOutcome(status: string): IntentOutcome {
  switch (status) {
    case 'active':
    case 'trialing':
      return { status: 'completed', requiresAction: false };
    case 'incomplete_expired':
    case 'canceled':
      return { status: 'canceled', requiresAction: false };
    // incomplete, past_due, unpaid, paused: awaiting the first invoice's payment.
    default:
      return { status: 'processing', requiresAction: false };
  }
}
