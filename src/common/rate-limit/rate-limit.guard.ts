import { type ExecutionContext, Injectable } from '@nestjs/common';
import { ThrottlerGuard, type ThrottlerLimitDetail, type ThrottlerRequest } from '@nestjs/throttler';
import type { Request } from 'express';
import { ROUTE_AUTH, type RouteAuth } from '../auth/index.js';
import { RateLimitedError } from '../errors/index.js';
import { clientKey } from './client-key.js';
import { RATE_LIMIT, type RateLimitName, type RateLimitSelector } from './rate-limit.decorator.js';

const REQUESTED = Symbol('checkout:rate-limits');

/**
 * The throttler as an opt-in guard: only the named limits a route asks for are counted, keyed by
 * `clientKey(req.ip)` (Express honours TRUST_PROXY through 'trust proxy'; IPv6 per /64, the
 * same key as the failed-login limiter). A route declared
 * `@PaymentReferenceRoute()` counts against `public_payment` unless it names its own limits.
 * Exceeding a limit is 429 `checkout_rate_limited` with Retry-After.
 */
@Injectable()
export class RateLimitGuard extends ThrottlerGuard {
  protected override async shouldSkip(context: ExecutionContext): Promise<boolean> {
    return this.requested(context).length === 0;
  }

  protected override async handleRequest(request: ThrottlerRequest): Promise<boolean> {
    if (!this.requested(request.context).includes(request.throttler.name as RateLimitName)) return true;
    return super.handleRequest(request);
  }

  /** The client key shared with the failed-login limiter. */
  protected override async getTracker(request: Record<string, unknown>): Promise<string> {
    return clientKey((request as unknown as Request).ip);
  }

  /** One counter per limit and client, shared by every route that uses the limit. */
  protected override generateKey(_context: ExecutionContext, tracker: string, name: string): string {
    return `checkout:rate-limit:${name}:${tracker}`;
  }

  protected override async throwThrottlingException(_context: ExecutionContext, detail: ThrottlerLimitDetail): Promise<void> {
    throw new RateLimitedError(detail.timeToBlockExpire || detail.timeToExpire);
  }

  /** The limits that apply to this request, resolved once per request. */
  private requested(context: ExecutionContext): RateLimitName[] {
    const request = context.switchToHttp().getRequest<Request & { [REQUESTED]?: RateLimitName[] }>();
    if (request[REQUESTED]) return request[REQUESTED];
    const targets = [context.getHandler(), context.getClass()];
    let selectors = this.reflector.getAllAndOverride<RateLimitSelector[] | undefined>(RATE_LIMIT, targets);
    if (!selectors) {
      const auth = this.reflector.getAllAndOverride<RouteAuth | undefined>(ROUTE_AUTH, targets);
      selectors = auth?.kind === 'payment_reference' ? ['public_payment'] : [];
    }
    const names = selectors
      .map((selector) => (typeof selector === 'function' ? selector(request) : selector))
      .filter((name): name is RateLimitName => name !== null);
    request[REQUESTED] = names;
    return names;
  }
}
