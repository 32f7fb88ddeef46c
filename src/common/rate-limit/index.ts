export { RATE_LIMIT_NAMES, RateLimit, type RateLimitName, type RateLimitSelector } from './rate-limit.decorator.js';
export { RateLimitGuard } from './rate-limit.guard.js';
export { RateLimitModule } from './rate-limit.module.js';
export { clientKey } from './client-key.js';
export { FixedWindowCounter } from './fixed-window-counter.js';
export { FailureCounter } from './failure-counter.js';
