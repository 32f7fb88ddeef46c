import { Injectable } from '@nestjs/common';
import { GatewayError, GatewayUnavailableError } from '../../../common/errors/index.js';
import { PaymentLedgerService } from '../../payments/index.js';
import { GatewayBCredentialsError, GatewayBError } from './gateway-b-errors.js';

/**
 * A gateway-B failure as the caller sees it (docs/decisions.md §2, never the provider's prose): no answer
 * → 503 `checkout_gateway_unavailable` (as gateway A: nothing changed locally, the same request may
 * be sent again; create and capture carry a `PayPal-Request-Id`, so a repeat cannot act twice); refused credentials → 502 saying so; any other refusal or
 * a malformed answer → 502 `checkout_gateway_error`. Anything that is not a GatewayBError is
 * returned unchanged.
 */
export function toGatewayBFailure(error: unknown): unknown {
  if (!(error instanceof GatewayBError)) return error;
  if (error.kind === 'unreachable') return new GatewayUnavailableError();
  if (error instanceof GatewayBCredentialsError) return new GatewayError('The payment provider refused the gateway B credentials of this mode.');
  return new GatewayError();
}

export interface FailedGatewayBCall {
  /** Stable log event name, e.g. `order_failed` */
  event: string;
  /** What was attempted, starting a sentence: `Creating the gateway B order` */
  what: string;
  /** Who asked, for the log: `checkout:gateway_b` */
  source: string;
  context?: Record<string, unknown>;
}

/**
 * The one answer to a failed gateway-B call made for a payment: the failure goes to the payment's
 * log (the client's message: operation, HTTP status, PayPal's error name, issue codes and
 * debug id, never provider prose or echoed values) and the caller gets the error to throw.
 */
@Injectable()
export class GatewayBFailures {
  constructor(private readonly ledger: PaymentLedgerService) {}

  async record(paymentId: number, error: unknown, call: FailedGatewayBCall): Promise<unknown> {
    if (!(error instanceof GatewayBError)) return error;
    await this.ledger.log({
      paymentId,
      level: 'error',
      event: call.event,
      message: `${call.what} failed: ${error.message}.`,
      context: { source: call.source, kind: error.kind, operation: error.operation, outcome_unknown: error.outcomeUnknown, ...call.context },
    });
    return toGatewayBFailure(error);
  }
}
