import { type BeforeApplicationShutdown, Inject, Injectable, Logger, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { AsyncResource } from 'node:async_hooks';
import { hostname } from 'node:os';
import { Clock } from '../../common/clock/index.js';
import { isDatabaseDown } from '../../common/errors/index.js';
import { ShutdownState } from '../../common/shutdown/index.js';
import { APP_CONFIG, type AppConfig } from '../../config/index.js';
import { type OutboxDelivery, type OutboxHandler, PermanentOutboxError, retryDelayMs } from './outbox-handler.js';
import type { OutboxItemEntity } from './outbox-item.entity.js';
import { OutboxRepository } from './outbox.repository.js';
import { Outbox } from './outbox.service.js';

/** Items read per query of a pass. */
const BATCH = 20;
/** Shutdown waits this long for the attempt in flight; after it the item's claim lapses and it is done again. */
export const OUTBOX_SHUTDOWN_WAIT_MS = 10_000;
/** Sent items are kept this long (their payload may hold personal data), then deleted by the sweep. */
const SENT_RETENTION_MS = 30 * 24 * 3600_000;
const PURGE_EVERY_MS = 3600_000;
/** First and longest wait between two tries of storing an outcome while the database cannot serve. */
const STORE_RETRY_FIRST_MS = 250;
const STORE_RETRY_MAX_MS = 5_000;

/**
 * Does the outbox's items on every instance: at boot, when a transaction that wrote one commits
 * here, and every OUTBOX_POLL_SECONDS (retries that came due, items written elsewhere, claims a
 * dead worker left). One item at a time per instance: claim it (a conditional UPDATE, so one
 * worker across instances holds it; the claim is renewed while the attempt runs and lapses after
 * OUTBOX_LEASE_SECONDS when its worker died), hand it to its topic's handler, then store the
 * outcome (sent; a retry after an exponential backoff; failed after OUTBOX_MAX_ATTEMPTS).
 */
@Injectable()
export class OutboxWorker implements OnApplicationBootstrap, OnModuleDestroy, BeforeApplicationShutdown {
  private readonly logger = new Logger('Outbox');
  readonly owner = `${hostname().slice(0, 40)}:${process.pid}:${randomUUID().slice(0, 8)}`;
  private readonly handlers = new Map<string, OutboxHandler<never>>();
  private started = false;
  private stopping = false;
  private timer?: NodeJS.Timeout;
  /** The pass waiting to start (later wake-ups join it) and the end of the last one queued. */
  private queued: Promise<number> | null = null;
  private tail: Promise<unknown> = Promise.resolve();
  private lastPurge = 0;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly items: OutboxRepository,
    private readonly outbox: Outbox,
    private readonly clock: Clock,
    shutdown: ShutdownState,
  ) {
    // Bound to this (root) async context: a wake-up from inside a committing transaction must not
    // carry that transaction's context into the pass.
    outbox.onCommittedWrite(AsyncResource.bind(() => this.wake()));
    // From the signal on: no new claim (items written by requests still in flight stay due for the
    // next instance or boot); the attempt in flight is waited for in beforeApplicationShutdown.
    shutdown.onShutdown(() => this.stopClaiming());
  }

  /** Registers the handler of a topic (its owner's `onModuleInit`). */
  register<P>(handler: OutboxHandler<P>): void {
    if (this.handlers.has(handler.topic)) throw new Error(`An outbox handler for ${handler.topic} is already registered`);
    this.handlers.set(handler.topic, handler as OutboxHandler<never>);
  }

  /** The boot resumes what is still due (items written before a crash, retries, lapsed claims). */
  onApplicationBootstrap(): void {
    this.started = true;
    this.wake();
    this.schedulePoll();
  }

  /** No new claims from here on. */
  onModuleDestroy(): void {
    this.stopClaiming();
  }

  private stopClaiming(): void {
    this.stopping = true;
    clearTimeout(this.timer);
  }

  /** Waits for the attempt in flight (bounded) before the database pool closes. */
  async beforeApplicationShutdown(): Promise<void> {
    this.stopping = true;
    let timeout: NodeJS.Timeout | undefined;
    const waited = await Promise.race([
      this.tail.then(() => true),
      new Promise<false>((resolve) => (timeout = setTimeout(() => resolve(false), OUTBOX_SHUTDOWN_WAIT_MS))),
    ]);
    clearTimeout(timeout);
    if (!waited) this.logger.warn({ wait_ms: OUTBOX_SHUTDOWN_WAIT_MS }, 'outbox attempt still running at shutdown; its claim will lapse and it will be done again');
  }

  /**
   * Runs passes until nothing is due now (items retried later are not waited for), after the
   * pass in flight. For tests and the CLI: what `settled()` was for the in-memory sender.
   */
  async drain(): Promise<void> {
    while (!this.stopping) {
      if ((await this.pass()) === 0) return;
    }
  }

  /** Starts a pass soon (joins one that is queued and not started yet). */
  private wake(): void {
    if (!this.started || this.stopping) return;
    this.pass().catch((error: unknown) => this.logger.error({ err: errorText(error) }, 'outbox pass failed'));
  }

  /** Queues a pass after the current one; resolves with the number of items it attempted. */
  private pass(): Promise<number> {
    if (this.queued) return this.queued;
    const run = this.tail.then(() => {
      this.queued = null;
      return this.runPass();
    });
    this.queued = run;
    this.tail = run.catch(() => undefined);
    return run;
  }

  private schedulePoll(): void {
    if (this.stopping) return;
    this.timer = setTimeout(() => {
      this.wake();
      this.schedulePoll();
    }, this.config.outbox.pollSeconds * 1000);
    this.timer.unref();
  }

  private async runPass(): Promise<number> {
    await this.purgeSometimes();
    let attempted = 0;
    const topics = [...this.handlers.keys()];
    while (!this.stopping) {
      const due = await this.items.findDue(topics, this.clock.now(), BATCH);
      let claimed = 0;
      for (const id of due) {
        if (this.stopping) break;
        const now = this.clock.now();
        const item = await this.items.claim(id, this.owner, now, this.leaseEnd(now));
        if (!item) continue; // another worker has it
        claimed++;
        await this.attempt(item);
      }
      attempted += claimed;
      // Nothing left, or everything due is another worker's right now.
      if (due.length < BATCH || claimed === 0) break;
    }
    return attempted;
  }

  private async attempt(item: OutboxItemEntity): Promise<void> {
    const handler = this.handlers.get(item.topic)!;
    let running = true;
    const heartbeat = setInterval(() => void this.renew(item, () => running), (this.config.outbox.leaseSeconds * 1000) / 3);
    heartbeat.unref();
    let delivery: OutboxDelivery<never> | null = null;
    let failure: unknown = null;
    try {
      delivery = this.delivery(item, handler.maxAttempts ?? this.config.outbox.maxAttempts);
      await handler.handle(delivery);
    } catch (error) {
      // An unreadable item (no delivery) can never succeed.
      failure = delivery ? error : new PermanentOutboxError(`unreadable item: ${errorText(error)}`);
    } finally {
      running = false;
      clearInterval(heartbeat);
    }
    const now = this.clock.now();
    if (failure === null) {
      if (!(await this.store(item, () => this.items.markSent(item.id, this.owner, now)))) this.lostClaim(item, 'sent');
      return;
    }
    const reason = errorText(failure);
    const { retryBaseSeconds, retryMaxSeconds } = this.config.outbox;
    const maxAttempts = handler.maxAttempts ?? this.config.outbox.maxAttempts;
    const final = failure instanceof PermanentOutboxError || item.attempts >= maxAttempts;
    const nextAttemptAt = final ? null : new Date(now.getTime() + retryDelayMs(item.attempts, retryBaseSeconds, retryMaxSeconds));
    const stored = await this.store(item, () =>
      nextAttemptAt ? this.items.retryAt(item.id, this.owner, nextAttemptAt, reason, now) : this.items.markFailed(item.id, this.owner, reason, now),
    );
    if (!stored) return this.lostClaim(item, 'failed attempt');
    const fields = { outbox_id: item.id, topic: item.topic, attempt: item.attempts, max_attempts: maxAttempts, reason };
    if (nextAttemptAt) this.logger.warn({ ...fields, next_attempt_at: nextAttemptAt.toISOString() }, 'outbox attempt failed; retrying later');
    else this.logger.error(fields, 'outbox item failed');
    if (!delivery || !handler.attemptFailed) return;
    try {
      await handler.attemptFailed(delivery, { reason, nextAttemptAt });
    } catch (error) {
      this.logger.warn({ outbox_id: item.id, err: errorText(error) }, 'outbox failure hook failed');
    }
  }

  private delivery(item: OutboxItemEntity, maxAttempts: number): OutboxDelivery<never> {
    const progress: string[] = item.progress ? (JSON.parse(item.progress) as string[]) : [];
    return {
      id: item.id,
      topic: item.topic,
      key: item.key,
      payload: JSON.parse(item.payload) as never,
      attempt: item.attempts,
      maxAttempts,
      progress,
      stepDone: async (step: string) => {
        if (!progress.includes(step)) progress.push(step);
        if (!(await this.store(item, () => this.items.saveProgress(item.id, this.owner, progress, this.clock.now())))) this.lostClaim(item, 'progress');
      },
    };
  }

  /**
   * Stores what an attempt did (a step done, sent, a retry, failed). The email or call it records
   * has already happened, so an outcome lost to a database that cannot serve right now (a Galera
   * node cut off from the cluster or rejoining: 1047 / 1180, a lost connection) would have the
   * next claim do it again: the write is tried again, waiting 250 ms doubling to 5 s, for up to
   * one lease (OUTBOX_LEASE_SECONDS; no other worker claims the item before it lapses, and every
   * write is conditional on this worker's claim, so a late one changes nothing). Any other error,
   * and the last one, is thrown as before; shutdown stops the waiting.
   */
  private async store<T>(item: OutboxItemEntity, write: () => Promise<T>): Promise<T> {
    const giveUpAt = Date.now() + this.config.outbox.leaseSeconds * 1000;
    let delay = STORE_RETRY_FIRST_MS;
    for (let tries = 1; ; tries += 1) {
      try {
        return await write();
      } catch (error) {
        if (!isDatabaseDown(error) || this.stopping || Date.now() + delay > giveUpAt) throw error;
        if (tries === 1) this.logger.warn({ outbox_id: item.id, topic: item.topic, err: errorText(error) }, 'outbox outcome not stored: the database cannot serve; trying again');
        await new Promise((resolve) => setTimeout(resolve, delay));
        delay = Math.min(delay * 2, STORE_RETRY_MAX_MS);
      }
    }
  }

  /** Extends the claim while the attempt runs (a renewal that lands after the outcome was stored changes nothing). */
  private async renew(item: OutboxItemEntity, running: () => boolean): Promise<void> {
    try {
      const renewed = await this.items.renew(item.id, this.owner, this.leaseEnd(this.clock.now()));
      if (!renewed && running()) this.lostClaim(item, 'renewal');
    } catch (error) {
      this.logger.warn({ outbox_id: item.id, err: errorText(error) }, 'outbox claim not renewed');
    }
  }

  /** Another worker took the item after our claim lapsed (a stall longer than the lease): it may be done twice. */
  private lostClaim(item: OutboxItemEntity, stage: string): void {
    this.logger.warn({ outbox_id: item.id, topic: item.topic, stage }, 'outbox claim lost before the outcome was stored');
  }

  private leaseEnd(now: Date): Date {
    return new Date(now.getTime() + this.config.outbox.leaseSeconds * 1000);
  }

  private async purgeSometimes(): Promise<void> {
    const now = this.clock.now().getTime();
    if (now - this.lastPurge < PURGE_EVERY_MS) return;
    this.lastPurge = now;
    const purged = await this.items.purgeSent(new Date(now - SENT_RETENTION_MS));
    if (purged > 0) this.logger.log({ purged }, 'sent outbox items deleted');
  }
}

function errorText(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).slice(0, 255);
}
