import { Injectable } from '@nestjs/common';
import type { AuthenticatedUser } from '../../common/auth/index.js';
import { NotFoundError } from '../../common/errors/index.js';
import { GatewayRegistry } from '../gateways/index.js';
import { IdentityService } from '../identity/index.js';
import { InvalidPaymentStateError, type PaymentRecord, PaymentQueriesService } from '../payments/index.js';
import type { AdminPaymentAnswerDto } from './subscription-cancel.dto.js';

/** Statuses after which a subscription has nothing left to cancel. */
const ENDED_SUBSCRIPTION = new Set(['canceled', 'incomplete_expired']);

/**
 * Cancels the provider subscription a payment belongs to (its first payment, or the one a renewal
 * names), through the gateway's `subscriptionCancellation` capability. The rules that need no
 * provider call are checked here first; the gateway re-reads the subscription before it changes it.
 */
@Injectable()
export class SubscriptionCancelService {
  constructor(
    private readonly queries: PaymentQueriesService,
    private readonly registry: GatewayRegistry,
    private readonly identity: IdentityService,
  ) {}

  async cancel(paymentId: number, atPeriodEnd: boolean, user: AuthenticatedUser): Promise<AdminPaymentAnswerDto> {
    const payment = await this.queries.findById(paymentId);
    if (!payment) throw new NotFoundError('Payment');
    const first = payment.parent_payment_id === null ? payment : await this.queries.findById(payment.parent_payment_id);
    const cancellation = first ? this.registry.get(first.gateway).subscriptionCancellation : undefined;
    const subscriptionRef = first?.provider_subscription_ref ?? null;
    if (!first || first.frequency === 'one-time' || !subscriptionRef || !cancellation) {
      throw new InvalidPaymentStateError('This payment is not part of a subscription that can be canceled here.');
    }
    if (isEnded(first)) throw new InvalidPaymentStateError('This subscription is already canceled.');
    if (atPeriodEnd && first.subscription_cancel_at_period_end) {
      const on = first.subscription_cancels_at ? ` on ${first.subscription_cancels_at.slice(0, 10)}` : '';
      throw new InvalidPaymentStateError(`This subscription is already set to cancel at the end of its period${on}; cancel it now to end it at once.`);
    }
    await cancellation.cancel({ id: first.id, mode: first.mode, provider_subscription_ref: subscriptionRef }, atPeriodEnd, `admin:${user.login}`);
    return { payment: await this.queries.adminDetail(paymentId, this.identity.displayNames) };
  }
}

function isEnded(payment: PaymentRecord): boolean {
  return payment.subscription_status !== null && ENDED_SUBSCRIPTION.has(payment.subscription_status);
}
