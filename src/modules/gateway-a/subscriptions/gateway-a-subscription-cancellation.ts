import { Injectable } from '@nestjs/common';
import { ConflictError, GatewayError } from '../../../common/errors/index.js';
import type { HeldSubscription, SubscriptionCancellation } from '../../gateways/index.js';
import { PaymentLedgerService } from '../../payments/index.js';
import { type GatewayASubscription, parseSubscription } from '../client/gateway-a-answers.js';
import { type GatewayAAccount, GatewayAClientFactory } from '../client/gateway-a-client.factory.js';
import { GatewayAFailures } from '../client/gateway-a-failures.js';
import { InstallationScope } from '../client/installation-scope.js';
import { SubscriptionStateRepository } from '../webhook/subscription-state.repository.js';

const GATEWAY = 'gateway_a';
/** Statuses a subscription never leaves (nothing left to cancel). */
const ENDED = new Set(['canceled', 'incomplete_expired']);

/** 409 `checkout_invalid_state` (docs/decisions.md §2). */
class SubscriptionNotCancelableError extends ConflictError {
  constructor(message: string) {
    super('checkout_invalid_state', message);
  }
}

/**
 * Cancels a gateway-A subscription for the admin: `DELETE /v1/subscriptions/{id}` now, or
 * `POST /v1/subscriptions/{id}` with `cancel_at_period_end=true`, with the secret key of the
 * payment's own mode (a test subscription stays cancelable after going live). The subscription is
 * read first, so a second request is refused from the provider's answer rather than sent again.
 * A canceled status is stored as the subscription's latest state (a final one): an older
 * `customer.subscription.updated` delivered later cannot make it active again.
 */
@Injectable()
export class GatewayASubscriptionCancellation implements SubscriptionCancellation {
  constructor(
    private readonly clients: GatewayAClientFactory,
    private readonly failures: GatewayAFailures,
    private readonly scope: InstallationScope,
    private readonly ledger: PaymentLedgerService,
    private readonly states: SubscriptionStateRepository,
  ) {}

  async cancel(held: HeldSubscription, atPeriodEnd: boolean, actor: string): Promise<void> {
    const account = await this.clients.forMode(held.mode);
    const subscriptionId = held.provider_subscription_ref;
    // Only this installation's subscription of this payment (docs/decisions.md §14).
    const expected = { id: subscriptionId, metadata: this.scope.metadata({ checkout_payment_id: String(held.id) }) };
    const current = await this.call(held.id, 'Reading the subscription', () => account.client.subscriptions.retrieve(subscriptionId), 'subscriptions.retrieve', actor, expected);
    if (ENDED.has(current.status)) {
      await this.store(held.id, current, actor);
      throw new SubscriptionNotCancelableError('This subscription is already canceled.');
    }
    if (atPeriodEnd && current.cancel_at_period_end) throw new SubscriptionNotCancelableError('This subscription is already set to cancel at the end of its period.');
    const changed = atPeriodEnd
      ? await this.call(held.id, 'Scheduling the cancellation', () => this.scheduleAtPeriodEnd(account, subscriptionId), 'subscriptions.update', actor, expected)
      : await this.call(held.id, 'Canceling the subscription', () => account.client.subscriptions.cancel(subscriptionId), 'subscriptions.cancel', actor, expected);
    if (!atPeriodEnd && !ENDED.has(changed.status)) {
      // The provider answered without canceling it: nothing stored, the admin sees a gateway error.
      await this.ledger.log({
        paymentId: held.id,
        level: 'error',
        event: 'subscription_cancel_failed',
        message: `Canceling the subscription failed: the gateway answered status ${changed.status}.`,
        context: { source: actor, subscription: subscriptionId },
      });
      throw new GatewayError();
    }
    await this.store(held.id, changed, actor);
    await this.ledger.log({
      paymentId: held.id,
      level: 'info',
      event: atPeriodEnd ? 'subscription_cancel_scheduled' : 'subscription_canceled',
      message: atPeriodEnd ? 'The subscription will be canceled at the end of its current period.' : 'The subscription was canceled.',
      context: { source: actor, subscription: subscriptionId, status: changed.status },
    });
  }

  /** Setting the flag is idempotent by itself: no idempotency key, so a later schedule (after one undone at the provider) is sent again. */
  private scheduleAtPeriodEnd(account: GatewayAAccount, subscriptionId: string): Promise<unknown> {
    return account.client.subscriptions.update(subscriptionId, { cancel_at_period_end: true });
  }

  private async call(
    paymentId: number,
    what: string,
    request: () => Promise<unknown>,
    operation: string,
    actor: string,
    expected: { id: string; metadata: Record<string, string> },
  ): Promise<GatewayASubscription> {
    try {
      return parseSubscription(await request(), operation, expected);
    } catch (error) {
      throw await this.failures.record(paymentId, error, { event: 'subscription_cancel_failed', what, source: actor });
    }
  }

  /** The provider's status and scheduled end, stored with the payment; a final status also as the subscription's latest state. */
  private async store(paymentId: number, subscription: GatewayASubscription, actor: string): Promise<void> {
    const final = ENDED.has(subscription.status);
    const schedule = subscriptionSchedule(subscription);
    const patch = { subscriptionStatus: subscription.status, subscriptionCancelAtPeriodEnd: schedule.atPeriodEnd, subscriptionCancelsAt: schedule.cancelsAt };
    await this.ledger.recordProviderDetailsIf(paymentId, patch, actor, async (manager, payment) => {
      if (!final) return payment.subscription_status !== subscription.status || payment.subscription_cancel_at_period_end !== schedule.atPeriodEnd || payment.subscription_cancels_at !== (schedule.cancelsAt?.toISOString() ?? null);
      return this.states.claimIfCurrent(manager, {
        gateway: GATEWAY,
        subscriptionRef: subscription.id,
        paymentId,
        status: subscription.status,
        eventId: `cancel:${subscription.id}`,
        eventCreatedAt: new Date(),
      });
    });
  }
}

/** The end a subscription answer schedules: none once it ended (its status says so). */
export function subscriptionSchedule(subscription: Pick<GatewayASubscription, 'status' | 'cancel_at_period_end' | 'cancel_at'>): { atPeriodEnd: boolean; cancelsAt: Date | null } {
  if (ENDED.has(subscription.status)) return { atPeriodEnd: false, cancelsAt: null };
  return { atPeriodEnd: subscription.cancel_at_period_end, cancelsAt: subscription.cancel_at === null ? null : new Date(subscription.cancel_at * 1000) };
}
