import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';

/** The Redis of the shared-limit tests (README: REDIS_URL to point elsewhere). */
export const TEST_REDIS_URL = process.env.REDIS_URL || 'redis://127.0.0.1:6379';

/**
 * Keys of one test under a prefix of their own. Test files run in parallel workers, and other
 * checkouts may run the suite against the same Redis: counters of one test must never meet
 * another's. `url` is a REDIS_URL whose client (ioredis reads `keyPrefix` from the URL) writes
 * every key under `prefix`; `keys()` lists them, `clear()` deletes them.
 */
export interface RedisNamespace {
  prefix: string;
  url: string;
  keys(): Promise<string[]>;
  clear(): Promise<void>;
}

export function redisNamespace(name: string): RedisNamespace {
  const prefix = `checkout-test:${name}:${randomUUID()}:`;
  const url = new URL(TEST_REDIS_URL);
  url.searchParams.set('keyPrefix', prefix);
  const withClient = async <T>(work: (redis: Redis) => Promise<T>): Promise<T> => {
    const redis = new Redis(TEST_REDIS_URL);
    try {
      return await work(redis);
    } finally {
      redis.disconnect();
    }
  };
  const keys = () => withClient((redis) => redis.keys(`${prefix}*`));
  return {
    prefix,
    url: url.toString(),
    keys,
    clear: () =>
      withClient(async (redis) => {
        const found = await redis.keys(`${prefix}*`);
        if (found.length) await redis.del(...found);
      }),
  };
}
