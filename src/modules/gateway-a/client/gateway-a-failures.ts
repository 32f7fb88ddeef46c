import { Injectable } from '@nestjs/common';
import { PaymentLedgerService } from '../../payments/index.js';
import { describeGatewayFailure, toGatewayError } from './gateway-a-errors.js';
import { isStripeError } from './stripe-sdk.js';

export interface FailedCall {
  /** Stable log event name, e.g. `intent_failed` */
  event: string;
  /** What was attempted, starting a sentence: `Creating the subscription` */
  what: string;
  /** Who asked, for the log: `checkout:gateway_a` */
  source: string;
  context?: Record<string, unknown>;
}

/**
 * The one answer to a failed gateway-A call made for a payment: the failure goes to the payment's
 * log (status, type and code only: provider text may echo request data) and the caller gets the
 * error to throw, 502 `checkout_gateway_error` for a gateway failure and anything else unchanged.
 */
@Injectable()
export class GatewayAFailures {
  constructor(private readonly ledger: PaymentLedgerService) {}

  async record(paymentId: number, error: unknown, call: FailedCall): Promise<unknown> {
    if (!isStripeError(error, 'StripeError')) return error;
    await this.ledger.log({
      paymentId,
      level: 'error',
      event: call.event,
      message: `${call.what} failed: ${describeGatewayFailure(error)}.`,
      context: { source: call.source, ...call.context },
    });
    return toGatewayError(error);
  }
}
