import type { Redis } from 'ioredis';
import { type RedisConnection, RedisUnavailableError } from '../redis/index.js';
import { FixedWindowCounter } from './fixed-window-counter.js';

/** Clients tracked in memory at most; see FixedWindowCounter for the eviction. */
const MAX_TRACKED_CLIENTS = 10_000;

/**
 * Failures per client in a fixed window (opened by the first failure, never extended), for a limit
 * that must not stop genuine traffic when Redis is away. Counts live in Redis when REDIS_URL is set
 * (every instance shares them, `{REDIS_KEY_PREFIX}<name>:<client>`), and in this process's bounded
 * memory when it is not, or while Redis cannot answer: then each instance counts on its own (the
 * limit is per instance for that time) instead of refusing. That is the opposite of the payment
 * and login limits, which fail closed; it suits a limit whose only job is to stop a flood of
 * requests that are bound to fail, where refusing would also refuse the genuine ones.
 */
export class FailureCounter {
  private readonly memory: FixedWindowCounter;

  constructor(
    /** The key's prefix in Redis and memory, e.g. `webhook-verify-failures`. */
    private readonly name: string,
    readonly limit: number,
    private readonly windowMs: number,
    private readonly redis: RedisConnection,
    now: () => number = Date.now,
  ) {
    this.memory = new FixedWindowCounter(windowMs, MAX_TRACKED_CLIENTS, now);
  }

  /** Seconds until `client` may try again, or 0 while it is under the limit. */
  async retryAfterSeconds(client: string): Promise<number> {
    const key = this.key(client);
    const shared = await this.shared((redis) => Promise.all([redis.get(key), redis.pttl(key)]));
    if (shared) {
      const [count, ttl] = shared;
      return Number(count ?? 0) >= this.limit ? Math.ceil(Math.max(ttl, 1000) / 1000) : 0;
    }
    return this.memory.count(key) >= this.limit ? Math.max(1, Math.ceil(this.memory.msUntilReset(key) / 1000)) : 0;
  }

  /** Counts one failure of `client`. */
  async record(client: string): Promise<void> {
    const key = this.key(client);
    const counted = await this.shared(async (redis) => {
      // The first failure opens the window; later ones only count inside it.
      await redis.multi().incr(key).pexpire(key, this.windowMs, 'NX').exec();
      return true;
    });
    if (!counted) this.memory.hit(key);
  }

  /** The commands' result, or undefined when Redis is not configured or cannot answer now. */
  private async shared<T>(commands: (redis: Redis) => Promise<T>): Promise<T | undefined> {
    if (!this.redis.configured) return undefined;
    try {
      return await this.redis.run(commands);
    } catch (error) {
      if (error instanceof RedisUnavailableError) return undefined;
      throw error;
    }
  }

  private key(client: string): string {
    return `${this.name}:${client}`;
  }
}
