import { Inject, Injectable } from '@nestjs/common';
import type { Redis } from 'ioredis';
import { REDIS_CLIENT } from '../../common/redis/index.js';
import { APP_CONFIG, type AppConfig } from '../../config/app-config.js';

/**
 * Counts failed Basic-auth attempts per client IP in a fixed window (RATE_LIMIT_FAILED_LOGIN per
 * RATE_LIMIT_FAILED_LOGIN_WINDOW_SECONDS). Once the count is reached every attempt from that IP is
 * refused before the password is checked, so guessing stops for the rest of the window.
 * Counts live in Redis when REDIS_URL is set (shared by instances), otherwise in memory.
 *
 * A password check is only started while the failures so far plus the checks still running for
 * that IP stay under the limit; further attempts wait for a running check to finish. Otherwise a
 * burst of parallel guesses would all pass the count before the first failure was recorded.
 */
@Injectable()
export class FailedLoginLimiter {
  private readonly memory = new Map<string, { count: number; expiresAt: number }>();
  /** Password checks running in this process, per IP, and the attempts waiting for one to end. */
  private readonly running = new Map<string, { count: number; waiters: Array<() => void> }>();
  private readonly limit: number;
  private readonly windowMs: number;

  constructor(
    @Inject(APP_CONFIG) config: AppConfig,
    @Inject(REDIS_CLIENT) private readonly redis: Redis | null,
  ) {
    this.limit = config.rateLimits.failedLogin.limit;
    this.windowMs = config.rateLimits.failedLogin.ttl;
  }

  /**
   * Claims a password check for `ip`: 0 when the caller may check the password (and must call
   * `release` afterwards), otherwise the seconds until the IP may try again.
   */
  async acquire(ip: string): Promise<number> {
    for (;;) {
      // In memory there is no await between reading the counts and claiming a check, so two
      // concurrent attempts cannot both take the last one.
      const failures = this.redis ? Number((await this.redis.get(this.key(ip))) ?? 0) : (this.liveEntry(this.key(ip))?.count ?? 0);
      if (failures >= this.limit) {
        const retryAfter = await this.retryAfterSeconds(ip);
        if (retryAfter > 0) return retryAfter;
        continue; // the window ended meanwhile
      }
      const running = this.running.get(ip) ?? { count: 0, waiters: [] };
      this.running.set(ip, running);
      if (failures + running.count < this.limit) {
        running.count += 1;
        return 0;
      }
      await new Promise<void>((resolve) => running.waiters.push(resolve));
    }
  }

  /** Ends a check claimed by `acquire` (after `recordFailure` when the password was wrong). */
  release(ip: string): void {
    const running = this.running.get(ip);
    if (!running) return;
    running.count -= 1;
    const waiters = running.waiters.splice(0);
    if (running.count <= 0 && waiters.length === 0) this.running.delete(ip);
    for (const wake of waiters) wake();
  }

  /** Seconds until the IP may try again, or 0 when it is not blocked. */
  async retryAfterSeconds(ip: string): Promise<number> {
    const key = this.key(ip);
    if (this.redis) {
      const [count, ttl] = await Promise.all([this.redis.get(key), this.redis.pttl(key)]);
      return Number(count ?? 0) >= this.limit ? Math.ceil(Math.max(ttl, 1000) / 1000) : 0;
    }
    const entry = this.liveEntry(key);
    return entry && entry.count >= this.limit ? Math.ceil((entry.expiresAt - Date.now()) / 1000) : 0;
  }

  async recordFailure(ip: string): Promise<void> {
    const key = this.key(ip);
    if (this.redis) {
      // The first failure opens the window; later ones only count inside it.
      await this.redis.multi().incr(key).pexpire(key, this.windowMs, 'NX').exec();
      return;
    }
    const entry = this.liveEntry(key);
    if (entry) entry.count += 1;
    else this.memory.set(key, { count: 1, expiresAt: Date.now() + this.windowMs });
  }

  private liveEntry(key: string): { count: number; expiresAt: number } | undefined {
    const entry = this.memory.get(key);
    if (entry && entry.expiresAt <= Date.now()) {
      this.memory.delete(key);
      return undefined;
    }
    return entry;
  }

  private key(ip: string): string {
    return `checkout:failed-login:${ip}`;
  }
}
