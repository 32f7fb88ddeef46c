export { RATE_LIMIT_NAMES, RateLimit, type RateLimitName, type RateLimitSelector } from './rate-limit.decorator.js';
export { RateLimitGuard } from './rate-limit.guard.js';
export { RateLimitModule } from './rate-limit.module.js';
