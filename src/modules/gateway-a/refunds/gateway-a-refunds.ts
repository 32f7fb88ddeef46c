import { Inject, Injectable } from '@nestjs/common';
import type Stripe from 'stripe';
import { GatewayError, GatewayUnavailableError } from '../../../common/errors/index.js';
import { isValidMinorAmount } from '../../../common/money/index.js';
import { APP_CONFIG, type AppConfig } from '../../../config/index.js';
import { type GatewayRefunds, type ProviderRefund, ProviderRefundConflict, type ProviderRefundRequest, type RefundRefusal, type RefundTarget } from '../../gateways/index.js';
import { GatewayAClientFactory } from '../client/gateway-a-client.factory.js';
import { gatewayStatusOf } from '../client/gateway-a-errors.js';
import { GatewayAFailures } from '../client/gateway-a-failures.js';
import { InstallationScope } from '../client/installation-scope.js';
import { isStripeError } from '../client/stripe-sdk.js';
import { parseList, parseRefund, REFUND_METADATA_KEY, refundItem } from '../aftermath/gateway-a-aftermath-answers.js';
import { MalformedGatewayAAnswer } from '../client/gateway-a-answers.js';

/** Gateway A's refusals that mean the payment changed there meanwhile: re-read its refunds, answer 409. */
const CHANGED_MEANWHILE = ['charge_already_refunded', 'amount_too_large'];

/** Our message per gateway-A refusal code (the provider's own text is never shown). */
const REFUSAL_MESSAGES: Readonly<Record<string, string>> = {
  charge_disputed: 'Gateway A refused the refund: the payment is disputed there.',
  balance_insufficient: 'Gateway A refused the refund: the account balance is too low to cover it.',
  insufficient_funds: 'Gateway A refused the refund: the account balance is too low to cover it.',
  refund_disputed_payment: 'Gateway A refused the refund: the payment is disputed there.',
  charge_expired_for_capture: 'Gateway A refused the refund: the payment is too old to be refunded.',
};

/**
 * Refunds through gateway A's Refunds API on the PaymentIntent that took the money (a
 * subscription invoice's intent for a subscription payment or renewal), with the client of the
 * payment's own mode (a test payment stays refundable after going live). On the free plan the
 * platform's application fee is refunded with it (`refund_application_fee`), in proportion as the
 * gateway does; the fee returned is kept on our refund row.
 */
@Injectable()
export class GatewayARefunds implements GatewayRefunds {
  private readonly freePlan: boolean;

  constructor(
    @Inject(APP_CONFIG) config: AppConfig,
    private readonly clients: GatewayAClientFactory,
    private readonly scope: InstallationScope,
    private readonly failures: GatewayAFailures,
  ) {
    this.freePlan = config.plan === 'free';
  }

  refusal(target: RefundTarget, amount: number): RefundRefusal | null {
    if (!intentOf(target)) return { kind: 'state', message: 'No gateway A PaymentIntent took money for this payment: there is nothing to refund there.' };
    if (!isValidMinorAmount(amount, target.currency)) return { kind: 'amount', message: `amount is not an amount gateway A can refund in ${target.currency} (it must be a multiple of the currency's smallest step)` };
    return null;
  }

  async refund(request: ProviderRefundRequest): Promise<ProviderRefund> {
    const { target } = request;
    const account = await this.clients.forMode(target.mode);
    const withFee = this.freePlan && (target.application_fee_amount ?? 0) > 0;
    const params: Stripe.RefundCreateParams = {
      payment_intent: intentOf(target)!,
      amount: request.amount,
      metadata: this.scope.metadata({ [REFUND_METADATA_KEY]: String(request.refundId), checkout_payment_id: String(target.payment_id) }),
      ...(request.reason ? { reason: request.reason } : {}),
      ...(withFee ? { refund_application_fee: true } : {}),
    };
    let answer: unknown;
    try {
      answer = await account.client.refunds.create(params, { idempotencyKey: this.scope.keys.refund(request.refundId) });
    } catch (error) {
      const code = isStripeError(error, 'StripeError') ? error.code : undefined;
      if (code && CHANGED_MEANWHILE.includes(code)) throw new ProviderRefundConflict(code);
      const failure = await this.failures.record(target.payment_id, error, { event: 'refund_failed', what: 'Refunding the payment', source: 'admin:refund', context: { refund_id: request.refundId } });
      // A 5xx may have refunded (the idempotency key makes a repeat safe): not a refusal, the refund stays pending.
      if ((gatewayStatusOf(error) ?? 0) >= 500) throw new GatewayUnavailableError();
      if (failure instanceof GatewayError && code && REFUSAL_MESSAGES[code]) throw new GatewayError(REFUSAL_MESSAGES[code]);
      throw failure;
    }
    try {
      return this.withFee(parseRefund(answer, 'refunds.create', this.scope.id), target, withFee);
    } catch (error) {
      // The gateway made the refund but its answer cannot be read: the outcome is unknown here, the refund stays pending for the reconcile.
      if (error instanceof MalformedGatewayAAnswer) {
        await this.failures.record(target.payment_id, error, { event: 'refund_failed', what: 'Reading the refund gateway A made', source: 'admin:refund', context: { refund_id: request.refundId } });
        throw new GatewayUnavailableError();
      }
      throw error;
    }
  }

  async list(target: RefundTarget): Promise<ProviderRefund[]> {
    const intent = intentOf(target);
    if (!intent) return [];
    const account = await this.clients.forMode(target.mode);
    const withFee = this.freePlan && (target.application_fee_amount ?? 0) > 0;
    const found: ProviderRefund[] = [];
    let next: string | undefined;
    do {
      const page = parseList(await account.client.refunds.list({ payment_intent: intent, limit: 100, ...(next ? { starting_after: next } : {}) }), 'refunds.list', refundItem(this.scope.id));
      found.push(...page.items.filter((refund) => refund.paymentIntent === intent).map((refund) => this.withFee(refund, target, withFee)));
      next = page.hasMore ? page.items.at(-1)?.providerRefundId : undefined;
    } while (next);
    return found;
  }

  /** The fee returned with one of our refunds asked with `refund_application_fee`, in proportion as the gateway does. */
  private withFee(refund: ProviderRefund, target: RefundTarget, withFee: boolean): ProviderRefund {
    if (!withFee || refund.ownRefundId === null || target.amount_received <= 0) return refund;
    return { ...refund, applicationFeeRefunded: Math.floor(((target.application_fee_amount ?? 0) * refund.amount) / target.amount_received) };
  }
}

/** The PaymentIntent that took the money: the invoice's for a subscription, else the payment's own. */
function intentOf(target: RefundTarget): string | null {
  if (target.provider_charge_ref?.startsWith('pi_')) return target.provider_charge_ref;
  return target.provider_payment_ref?.startsWith('pi_') ? target.provider_payment_ref : null;
}
