import { DomainError, GatewayError, GatewayUnavailableError } from '../../../common/errors/index.js';
import type { GatewayMode } from '../../gateways/index.js';
import { MalformedGatewayAAnswer } from './gateway-a-answers.js';
import { isStripeError } from './stripe-sdk.js';

/** 409 `checkout_paused`: the mode's webhook contract is not verified (docs/decisions.md §2, §7). */
export class CheckoutPausedError extends DomainError {
  constructor(mode: GatewayMode) {
    super('checkout_paused', 409, `Gateway A checkout is paused in ${mode} mode until its webhook configuration is verified.`, { mode });
  }
}

/**
 * A short, safe description of a failed gateway call for logs and stored status: status, type
 * and code only, or for an answer that is not the object asked for, the call, its status and the
 * field that failed. Provider messages are not kept (they may echo request data).
 */
export function describeGatewayFailure(error: unknown): string {
  if (error instanceof MalformedGatewayAAnswer) return error.message;
  if (isStripeError(error, 'StripeError')) {
    if (error.type === 'StripeConnectionError') return 'gateway unreachable';
    const parts = [error.statusCode ? `HTTP ${error.statusCode}` : 'no status', error.type];
    if (error.code) parts.push(error.code);
    return `gateway refused the request (${parts.join(', ')})`;
  }
  return 'unexpected failure';
}

export function gatewayStatusOf(error: unknown): number | undefined {
  return isStripeError(error, 'StripeError') ? error.statusCode : undefined;
}

/** True for every failure of a gateway call: a refusal the SDK raised or an answer that is not what was asked for. */
export function isGatewayFailure(error: unknown): boolean {
  return isStripeError(error, 'StripeError') || error instanceof MalformedGatewayAAnswer;
}

/** True when the gateway never answered (network error or timeout): nothing is known to have happened there. */
export function isGatewayUnreachable(error: unknown): boolean {
  return isStripeError(error, 'StripeConnectionError') || (isStripeError(error, 'StripeError') && error.type === 'StripeConnectionError');
}

/**
 * A gateway failure as the client sees it, without provider text: 503 `checkout_gateway_unavailable`
 * when the gateway did not answer (in time), 502 `checkout_gateway_error` when it answered with a
 * failure or nonsense (a `MalformedGatewayAAnswer` included).
 */
export function toGatewayError(error: unknown): DomainError {
  if (error instanceof DomainError) return error;
  if (isGatewayUnreachable(error)) return new GatewayUnavailableError();
  return new GatewayError();
}
