import { Injectable } from '@nestjs/common';
import { ConflictError, GatewayError, GatewayUnavailableError } from '../../../common/errors/index.js';
import { MoneyFormatError } from '../../../common/money/index.js';
import { type GatewayRefunds, type ProviderRefund, ProviderRefundConflict, type ProviderRefundRequest, type RefundRefusal, type RefundTarget } from '../../gateways/index.js';
import { GatewayBClientFactory } from '../client/gateway-b-client.factory.js';
import { GatewayBError, GatewayBRefusedError } from '../client/gateway-b-errors.js';
import { GatewayBFailures } from '../client/gateway-b-failures.js';
import { fromGatewayBAmount, GATEWAY_B_WHOLE_UNIT_CURRENCIES, toGatewayBAmount } from '../client/gateway-b-money.js';
import { GatewayBScope } from '../client/gateway-b-scope.js';
import type { GatewayBRefund } from '../client/gateway-b-wire.js';

/** PayPal refunds a capture for 180 days after it. */
export const GATEWAY_B_REFUND_DAYS = 180;

/** PayPal's issues that mean the capture changed there meanwhile: re-read its refunds, answer 409. */
const CHANGED_MEANWHILE = ['CAPTURE_FULLY_REFUNDED', 'REFUND_AMOUNT_EXCEEDED'];

/** Our message per PayPal issue (its own text is never shown). */
const REFUSAL_MESSAGES: Readonly<Record<string, string>> = {
  REFUND_NOT_ALLOWED: 'Gateway B does not allow refunding this capture.',
  PARTIAL_REFUND_NOT_ALLOWED: 'Gateway B does not allow a partial refund of this capture: refund all of it.',
  MAX_NUMBER_OF_REFUNDS_EXCEEDED: 'Gateway B allows no more refunds of this capture.',
  CAPTURE_DISPUTED_PARTIAL_REFUND_NOT_ALLOWED: 'The capture is disputed at gateway B: only a full refund is possible.',
  REFUND_CAPTURE_CURRENCY_MISMATCH: 'Gateway B refused the refund: its currency differs from the capture.',
  INSUFFICIENT_FUNDS: 'Gateway B refused the refund: the account balance is too low to cover it.',
  REFUND_FAILED_INSUFFICIENT_FUNDS: 'Gateway B refused the refund: the account balance is too low to cover it.',
  PENDING_CAPTURE: 'Gateway B cannot refund the capture while it is pending.',
};

/**
 * Refunds through PayPal's `POST /v2/payments/captures/{capture_id}/refund` with a
 * `PayPal-Request-Id` per refund row, with the client (credentials and base URL) of the payment's
 * own mode. Amounts of HUF, JPY and TWD must be whole units; a capture older than 180 days is past
 * PayPal's limit (409 before any call).
 */
@Injectable()
export class GatewayBRefunds implements GatewayRefunds {
  constructor(
    private readonly clients: GatewayBClientFactory,
    private readonly scope: GatewayBScope,
    private readonly failures: GatewayBFailures,
  ) {}

  refusal(target: RefundTarget, amount: number, now: Date): RefundRefusal | null {
    if (!target.provider_capture_ref) return { kind: 'state', message: 'No gateway B capture took money for this payment: there is nothing to refund there.' };
    if (now.getTime() - Date.parse(target.created_at) > GATEWAY_B_REFUND_DAYS * 86_400_000) {
      return { kind: 'state', message: `Gateway B refunds a payment for ${GATEWAY_B_REFUND_DAYS} days; this one is older.` };
    }
    try {
      toGatewayBAmount(amount, target.currency);
    } catch (error) {
      if (error instanceof MoneyFormatError) return { kind: 'amount', message: `amount is not an amount gateway B can refund in ${target.currency} (${GATEWAY_B_WHOLE_UNIT_CURRENCIES.includes(target.currency) ? 'whole units only' : 'too many decimals'})` };
      throw error;
    }
    return null;
  }

  async refund(request: ProviderRefundRequest): Promise<ProviderRefund> {
    const { target } = request;
    const client = await this.clients.forMode(target.mode);
    // A full refund of what is left is still sent with its amount: the reservation was for exactly that.
    try {
      const refund = await client.refundCapture(target.provider_capture_ref!, {
        requestId: this.scope.refundRequestId(request.refundId),
        amount: toGatewayBAmount(request.amount, target.currency),
        customId: this.scope.refundCustomId(request.refundId),
      });
      return this.read(refund, request.amount, target.currency);
    } catch (error) {
      if (error instanceof GatewayBRefusedError) {
        const changed = CHANGED_MEANWHILE.find((code) => error.hasIssue(code));
        if (changed) throw new ProviderRefundConflict(changed);
      }
      const failure = await this.failures.record(target.payment_id, error, { event: 'refund_failed', what: 'Refunding the gateway B capture', source: 'admin:refund', context: { refund_id: request.refundId } });
      // The refund may have happened (no answer, a 5xx): not a refusal; the request id makes a repeat safe.
      if (error instanceof GatewayBError && error.outcomeUnknown) throw new GatewayUnavailableError();
      if (error instanceof GatewayBRefusedError) {
        if (error.hasIssue('REFUND_TIME_LIMIT_EXCEEDED')) throw new ConflictError('checkout_invalid_state', `Gateway B refunds a payment for ${GATEWAY_B_REFUND_DAYS} days; this one is older.`);
        const known = error.issues.find((issue) => REFUSAL_MESSAGES[issue.issue]);
        if (known) throw new GatewayError(REFUSAL_MESSAGES[known.issue]);
      }
      throw failure;
    }
  }

  async list(target: RefundTarget): Promise<ProviderRefund[]> {
    if (!target.provider_payment_ref) return [];
    const client = await this.clients.forMode(target.mode);
    const order = await client.getOrder(target.provider_payment_ref);
    return order.purchase_units.flatMap((unit) => unit.payments?.refunds ?? []).map((refund) => this.read(refund, null, target.currency));
  }

  /** A PayPal refund in our words; without its own amount it is the one asked for, in the capture's currency (the payment's). */
  private read(refund: GatewayBRefund, requested: number | null, currency: string): ProviderRefund {
    const prefix = `checkout-${this.scope.installationId}-refund-`;
    const ours = refund.custom_id?.startsWith(prefix) ? refund.custom_id.slice(prefix.length) : null;
    const amount = refund.amount ? fromGatewayBAmount(refund.amount) : { minor: requested ?? 0, currency };
    return {
      providerRefundId: refund.id,
      status: refundStatus(refund.status),
      amount: amount.minor,
      currency: amount.currency.toUpperCase(),
      reason: null,
      applicationFeeRefunded: null,
      ownRefundId: ours !== null && /^[1-9]\d{0,9}$/.test(ours) ? Number(ours) : null,
      failureCode: refund.status === 'FAILED' ? (refund.status_details?.reason ?? 'FAILED') : null,
    };
  }
}

function refundStatus(status: string): ProviderRefund['status'] {
  if (status === 'COMPLETED') return 'succeeded';
  if (status === 'FAILED') return 'failed';
  if (status === 'CANCELLED') return 'canceled';
  return 'pending';
}
