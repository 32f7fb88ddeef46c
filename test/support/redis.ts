import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';

/** The Redis of the shared-limit tests (README: REDIS_URL to point elsewhere). */
export const TEST_REDIS_URL = process.env.REDIS_URL || 'redis://127.0.0.1:6379';

/**
 * Keys of one test under a prefix of their own. Test files run in parallel workers, and other
 * checkouts may run the suite against the same Redis: counters of one test must never meet
 * another's. `env` points an app at the test Redis with every key under `prefix`
 * (REDIS_KEY_PREFIX); `keys()` lists them, `clear()` deletes them.
 */
export interface RedisNamespace {
  prefix: string;
  env: { REDIS_URL: string; REDIS_KEY_PREFIX: string };
  keys(): Promise<string[]>;
  clear(): Promise<void>;
}

export function redisNamespace(name: string): RedisNamespace {
  // REDIS_KEY_PREFIX allows 64 characters.
  const prefix = `t:${name.slice(0, 20)}:${randomUUID().slice(0, 13)}:`;
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
    env: { REDIS_URL: TEST_REDIS_URL, REDIS_KEY_PREFIX: prefix },
    keys,
    clear: () =>
      withClient(async (redis) => {
        const found = await redis.keys(`${prefix}*`);
        if (found.length) await redis.del(...found);
      }),
  };
}
