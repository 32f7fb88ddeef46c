import { ThrottlerStorageRedisService } from '@nest-lab/throttler-storage-redis';
import { Module } from '@nestjs/common';
import { ThrottlerModule } from '@nestjs/throttler';
import type { Redis } from 'ioredis';
import { APP_CONFIG, type AppConfig } from '../../config/app-config.js';
import { REDIS_CLIENT } from '../redis/index.js';
import { RateLimitGuard } from './rate-limit.guard.js';

/**
 * The throttler with the limits of decisions §6. Counters live in memory, or in Redis when
 * REDIS_URL is set so that every instance shares them (the shared client of RedisModule).
 */
@Module({
  imports: [
    ThrottlerModule.forRootAsync({
      inject: [APP_CONFIG, REDIS_CLIENT],
      useFactory: (config: AppConfig, redis: Redis | null) => ({
        throttlers: [
          { name: 'new_payment', ...config.rateLimits.newPayment },
          { name: 'public_payment', ...config.rateLimits.publicPayment },
        ],
        // RateLimitedError sets Retry-After; the throttler's per-name headers would only add noise.
        setHeaders: false,
        storage: redis ? new ThrottlerStorageRedisService(redis) : undefined,
      }),
    }),
  ],
  providers: [RateLimitGuard],
  exports: [RateLimitGuard],
})
export class RateLimitModule {}
