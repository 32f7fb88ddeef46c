import { Inject, Injectable } from '@nestjs/common';
import { FixedWindowCounter } from '../../common/rate-limit/index.js';
import { RedisConnection } from '../../common/redis/index.js';
import { APP_CONFIG, type AppConfig } from '../../config/index.js';

/** Clients tracked in memory at most (about 1.5 MB); see FixedWindowCounter for the eviction. */
export const MAX_TRACKED_CLIENTS = 10_000;

/**
 * Counts failed Basic-auth attempts per client in a fixed window (RATE_LIMIT_FAILED_LOGIN per
 * RATE_LIMIT_FAILED_LOGIN_WINDOW_SECONDS). Once the count is reached every attempt from that client
 * is refused before the password is checked, so guessing stops for the rest of the window.
 * The client is `clientKey(req.ip)`, the key of the payment rate limits (IPv6 per /64, IPv4-mapped
 * IPv6 as IPv4). Counts live in Redis when REDIS_URL is set (shared by instances), otherwise in a
 * bounded in-memory store. While Redis is unreachable the limiter fails closed: a login attempt is
 * answered 503 `checkout_unavailable` (RedisUnavailableError) before any password is checked,
 * because a per-process count would quietly multiply the limit by the number of instances.
 *
 * A password check is only started while the failures so far plus the checks still running for
 * that client stay under the limit; further attempts wait for a running check to finish. Otherwise a
 * burst of parallel guesses would all pass the count before the first failure was recorded.
 */
@Injectable()
export class FailedLoginLimiter {
  private readonly memory: FixedWindowCounter;
  /** Password checks running in this process, per client, and the attempts waiting for one to end. */
  private readonly running = new Map<string, { count: number; waiters: Array<() => void> }>();
  private readonly limit: number;
  private readonly windowMs: number;

  constructor(
    @Inject(APP_CONFIG) config: AppConfig,
    private readonly redis: RedisConnection,
  ) {
    this.limit = config.rateLimits.failedLogin.limit;
    this.windowMs = config.rateLimits.failedLogin.ttl;
    this.memory = new FixedWindowCounter(this.windowMs, MAX_TRACKED_CLIENTS);
  }

  /**
   * Claims a password check for `client`: 0 when the caller may check the password (and must call
   * `release` afterwards), otherwise the seconds until the client may try again.
   */
  async acquire(client: string): Promise<number> {
    for (;;) {
      // In memory there is no await between reading the counts and claiming a check, so two
      // concurrent attempts cannot both take the last one.
      const key = this.key(client);
      const failures = this.redis.configured ? Number((await this.redis.run((redis) => redis.get(key))) ?? 0) : this.memory.count(key);
      if (failures >= this.limit) {
        const retryAfter = await this.retryAfterSeconds(client);
        if (retryAfter > 0) return retryAfter;
        continue; // the window ended meanwhile
      }
      const running = this.running.get(client) ?? { count: 0, waiters: [] };
      this.running.set(client, running);
      if (failures + running.count < this.limit) {
        running.count += 1;
        return 0;
      }
      await new Promise<void>((resolve) => running.waiters.push(resolve));
    }
  }

  /** Ends a check claimed by `acquire` (after `recordFailure` when the password was wrong). */
  release(client: string): void {
    const running = this.running.get(client);
    if (!running) return;
    running.count -= 1;
    const waiters = running.waiters.splice(0);
    if (running.count <= 0 && waiters.length === 0) this.running.delete(client);
    for (const wake of waiters) wake();
  }

  /** Seconds until the client may try again, or 0 when it is not blocked. */
  async retryAfterSeconds(client: string): Promise<number> {
    const key = this.key(client);
    if (this.redis.configured) {
      const [count, ttl] = await this.redis.run((redis) => Promise.all([redis.get(key), redis.pttl(key)]));
      return Number(count ?? 0) >= this.limit ? Math.ceil(Math.max(ttl, 1000) / 1000) : 0;
    }
    return this.memory.count(key) >= this.limit ? Math.ceil(this.memory.msUntilReset(key) / 1000) : 0;
  }

  async recordFailure(client: string): Promise<void> {
    const key = this.key(client);
    if (this.redis.configured) {
      // The first failure opens the window; later ones only count inside it.
      await this.redis.run((redis) => redis.multi().incr(key).pexpire(key, this.windowMs, 'NX').exec());
      return;
    }
    this.memory.hit(key);
  }

  /** Clients with a live in-memory count (bounded by MAX_TRACKED_CLIENTS). */
  get trackedClients(): number {
    return this.memory.size;
  }

  private key(client: string): string {
    return `checkout:failed-login:${client}`;
  }
}
