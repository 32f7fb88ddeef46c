import { SetMetadata } from '@nestjs/common';
import type { Request } from 'express';

/** The named limits of docs/decisions.md §6 (values from `config.rateLimits`). */
export type RateLimitName = 'new_payment' | 'public_payment' | 'account_recovery';
export const RATE_LIMIT_NAMES: readonly RateLimitName[] = ['new_payment', 'public_payment', 'account_recovery'];

/** A fixed limit, or one picked per request (e.g. creation vs update on one route). */
export type RateLimitSelector = RateLimitName | ((request: Request) => RateLimitName | null);

export const RATE_LIMIT = 'checkout:rate-limit';

/**
 * Opts a route into the named rate limits, counted per client IP across every route that uses
 * the same name. Routes declared with `@PaymentReferenceRoute()` get `public_payment` without
 * this decorator; every other route is not throttled unless it asks.
 */
export function RateLimit(...selectors: RateLimitSelector[]): MethodDecorator & ClassDecorator {
  return SetMetadata(RATE_LIMIT, selectors);
}
