import { Inject, Injectable, Logger, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import type { Redis, RedisOptions } from 'ioredis';
import { APP_CONFIG, type AppConfig } from '../../config/index.js';
import { UnavailableError } from '../errors/index.js';

/** What a caller is told while Redis is unreachable: try again after a few seconds. */
export const REDIS_RETRY_AFTER_SECONDS = 5;

/** How long the boot waits for a first connection before it carries on degraded. */
const BOOT_WAIT_MS = 3000;

/**
 * Client options for a dependency that must fail fast: while Redis is unreachable a command fails
 * at once (no offline queue) instead of waiting ~1.4 s for retries, a command on a connection that
 * stopped answering fails after a second (and the connection is dropped and re-made), and the
 * client keeps reconnecting in the background, at most a second apart, for as long as it takes.
 */
export const REDIS_CLIENT_OPTIONS: RedisOptions = {
  enableOfflineQueue: false,
  maxRetriesPerRequest: 1,
  connectTimeout: 2000,
  commandTimeout: 1000,
  socketTimeout: 1000,
  retryStrategy: (attempt: number) => Math.min(100 * attempt, 1000),
};

/** Redis error replies that mean "not now" rather than a bug: answer 503, do not mark the connection down. */
const TRANSIENT_REPLY = /^(LOADING|BUSY|MASTERDOWN|READONLY|OOM|TRYAGAIN|CLUSTERDOWN)\b/;

/** 503 `checkout_unavailable` with Retry-After: a limit whose counters live in Redis cannot be checked. */
export class RedisUnavailableError extends UnavailableError {
  constructor() {
    super('The service is temporarily unavailable. Please try again shortly.', REDIS_RETRY_AFTER_SECONDS);
  }
}

/**
 * The shared Redis connection (REDIS_URL), or none. Keys are written under REDIS_KEY_PREFIX: callers
 * name keys without it (`failed-login:…`). Every use goes through `run`, which refuses at
 * once with RedisUnavailableError while the connection is not ready and turns any connection
 * failure into one, so callers answer 503 quickly instead of 500 late. The client's error events
 * are handled here: the connection state is logged once per change (unreachable / reachable
 * again), never per reconnect attempt or request, and without the URL (it may hold a password).
 */
@Injectable()
export class RedisConnection implements OnModuleInit, OnApplicationShutdown {
  readonly client: Redis | null;
  private readonly logger = new Logger('Redis');
  /** The last state logged: null until the first connection attempt settles. */
  private reported: 'up' | 'down' | null = null;

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    // Every key this service sends lives under REDIS_KEY_PREFIX (ioredis prefixes the keys of every
    // command, scripts' KEYS included), so services sharing one Redis never share a counter.
    // ioredis is loaded only when REDIS_URL is set: without it the module would cost boot time and memory for nothing.
    this.client = config.redisUrl ? new (ioredis().Redis)(config.redisUrl, { ...REDIS_CLIENT_OPTIONS, keyPrefix: config.redisKeyPrefix }) : null;
    this.client?.on('ready', () => this.markUp());
    this.client?.on('error', (error: Error) => this.markDown(error));
    this.client?.on('close', () => this.markDown());
  }

  get configured(): boolean {
    return this.client !== null;
  }

  /** Whether commands can be sent now. */
  get ready(): boolean {
    return this.client?.status === 'ready';
  }

  /** Waits (briefly) for the first connection, so the first requests after boot find it ready. */
  async onModuleInit(): Promise<void> {
    const client = this.client;
    if (!client || client.status === 'ready') return;
    await new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        client.off('ready', done);
        client.off('error', done);
        resolve();
      };
      const timer = setTimeout(done, BOOT_WAIT_MS);
      client.once('ready', done);
      client.once('error', done);
    });
  }

  /** Runs Redis commands; RedisUnavailableError when Redis cannot answer them now. */
  async run<T>(commands: (redis: Redis) => Promise<T>): Promise<T> {
    if (!this.client || this.client.status !== 'ready') throw new RedisUnavailableError();
    try {
      const result = await commands(this.client);
      if (this.reported === 'down') this.markUp();
      return result;
    } catch (error) {
      const message = (error as Error | undefined)?.message ?? '';
      if ((error as Error | undefined)?.name === 'ReplyError') {
        if (TRANSIENT_REPLY.test(message)) throw new RedisUnavailableError();
        throw error;
      }
      this.markDown(error as Error);
      throw new RedisUnavailableError();
    }
  }

  /** Readiness: the connection is ready and answers PING (within the command timeout). */
  async ping(): Promise<boolean> {
    try {
      return (await this.run((redis) => redis.ping())) === 'PONG';
    } catch {
      return false;
    }
  }

  async onApplicationShutdown(): Promise<void> {
    const client = this.client;
    if (!client || client.status === 'end') return;
    this.reported = null; // a deliberate close is not an outage
    client.removeAllListeners('close');
    if (client.status === 'ready') await client.quit().catch(() => client.disconnect());
    else client.disconnect();
  }

  private markUp(): void {
    if (this.reported === 'up') return;
    const recovered = this.reported === 'down';
    this.reported = 'up';
    if (recovered) this.logger.log('Redis is reachable again; rate limits and failed-login counts are served from it.');
  }

  private markDown(error?: Error): void {
    if (this.reported === 'down' || (this.reported === null && !error)) return;
    this.reported = 'down';
    const err = error ? { code: (error as { code?: string }).code, message: error.message } : undefined;
    this.logger.warn(
      { err },
      'Redis is unreachable: routes with a rate limit and admin logins answer 503 checkout_unavailable until it is back (reconnecting in the background); gateway-B webhook failure counts are kept per instance meanwhile.',
    );
  }
}

function ioredis(): typeof import('ioredis') {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded only with REDIS_URL (see the constructor)
  return require('ioredis') as typeof import('ioredis');
}
