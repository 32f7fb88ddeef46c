import type { ThrottlerStorageRedisService } from '@nest-lab/throttler-storage-redis';
import type { ThrottlerStorage } from '@nestjs/throttler';
import type { RedisConnection } from '../redis/index.js';

type ThrottlerStorageRecord = Awaited<ReturnType<ThrottlerStorage['increment']>>;

/**
 * The throttler's Redis storage behind RedisConnection.run: while Redis is unreachable a limited
 * route answers 503 `checkout_unavailable` with Retry-After at once (fail closed: the limit cannot
 * be checked, so the request is not served) instead of a 500 after the client's retries.
 */
export class FailClosedRedisThrottlerStorage implements ThrottlerStorage {
  private readonly storage: ThrottlerStorageRedisService;

  constructor(private readonly connection: RedisConnection) {
    // Loaded here, only with REDIS_URL: it brings ioredis with it.
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- see above
    const { ThrottlerStorageRedisService: Storage } = require('@nest-lab/throttler-storage-redis') as typeof import('@nest-lab/throttler-storage-redis');
    this.storage = new Storage(connection.client!);
  }

  increment(key: string, ttl: number, limit: number, blockDuration: number, throttlerName: string): Promise<ThrottlerStorageRecord> {
    return this.connection.run(() => this.storage.increment(key, ttl, limit, blockDuration, throttlerName));
  }
}
