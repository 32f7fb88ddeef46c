import { Module } from '@nestjs/common';
import { ThrottlerModule } from '@nestjs/throttler';
import { APP_CONFIG, type AppConfig } from '../../config/index.js';
import { RedisConnection } from '../redis/index.js';
import { FailClosedRedisThrottlerStorage } from './redis-throttler-storage.js';
import { RateLimitGuard } from './rate-limit.guard.js';

/**
 * The throttler with the limits of docs/decisions.md §6. Counters live in memory, or in Redis when
 * REDIS_URL is set so that every instance shares them (the shared connection of RedisModule;
 * while it is down, limited routes answer 503).
 */
@Module({
  imports: [
    ThrottlerModule.forRootAsync({
      inject: [APP_CONFIG, RedisConnection],
      useFactory: (config: AppConfig, redis: RedisConnection) => ({
        throttlers: [
          { name: 'new_payment', ...config.rateLimits.newPayment },
          { name: 'public_payment', ...config.rateLimits.publicPayment },
          { name: 'account_recovery', ...config.rateLimits.accountRecovery },
        ],
        // RateLimitedError sets Retry-After; the throttler's per-name headers would only add noise.
        setHeaders: false,
        storage: redis.configured ? new FailClosedRedisThrottlerStorage(redis) : undefined,
      }),
    }),
  ],
  providers: [RateLimitGuard],
  exports: [RateLimitGuard],
})
export class RateLimitModule {}
