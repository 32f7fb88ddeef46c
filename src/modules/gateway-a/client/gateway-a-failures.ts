import { Injectable } from '@nestjs/common';
import { PaymentLedgerService } from '../../payments/index.js';
import { MalformedGatewayAAnswer } from './gateway-a-answers.js';
import { describeGatewayFailure, isGatewayFailure, toGatewayError } from './gateway-a-errors.js';

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
 * log (status, type and code only: provider text may echo request data; for a malformed answer the
 * call, its status and the field that failed) and the caller gets the error to throw, 502
 * `checkout_gateway_error` for a refusal or a malformed answer, 503 when the gateway did not answer,
 * and anything else unchanged.
 */
@Injectable()
export class GatewayAFailures {
  constructor(private readonly ledger: PaymentLedgerService) {}

  async record(paymentId: number, error: unknown, call: FailedCall): Promise<unknown> {
    if (!isGatewayFailure(error)) return error;
    await this.ledger.log({
      paymentId,
      level: 'error',
      event: call.event,
      message: `${call.what} failed: ${describeGatewayFailure(error)}.`,
      context: {
        source: call.source,
        ...(error instanceof MalformedGatewayAAnswer ? { kind: 'malformed_answer', operation: error.operation, http_status: error.httpStatus ?? null } : {}),
        ...call.context,
      },
    });
    return toGatewayError(error);
  }
}
