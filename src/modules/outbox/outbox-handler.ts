/**
 * What a module that owns some after-commit work gives the outbox worker: the topic of its items
 * and how to do one. The worker names no feature; each owner registers its handler (in its
 * `onModuleInit`) and writes its items through `Outbox.add` inside its own transaction.
 */
export interface OutboxHandler<P = unknown> {
  readonly topic: string;
  /** Attempts before an item fails, when the topic needs its own (OUTBOX_MAX_ATTEMPTS otherwise). */
  readonly maxAttempts?: number;
  /**
   * Does the work of one item. Resolving marks it sent; throwing schedules a retry with backoff
   * (a `PermanentOutboxError` fails it at once). Delivery is at least once: a crash after the work
   * and before the mark repeats it, so the work carries an identity the receiver can recognise.
   */
  handle(delivery: OutboxDelivery<P>): Promise<void>;
  /** Told of each failed attempt, after it is stored: `nextAttemptAt` null when it was the last. */
  attemptFailed?(delivery: OutboxDelivery<P>, failure: OutboxFailure): Promise<void>;
}

export interface OutboxFailure {
  /** The stored reason (no payload data, no secret). */
  reason: string;
  nextAttemptAt: Date | null;
}

/** One attempt at one item, as a handler sees it. */
export interface OutboxDelivery<P = unknown> {
  readonly id: number;
  readonly topic: string;
  readonly key: string;
  readonly payload: P;
  /** 1 for the first attempt. */
  readonly attempt: number;
  readonly maxAttempts: number;
  /** Steps an earlier attempt finished (see `stepDone`). */
  readonly progress: readonly string[];
  /** Records a finished step (one email of several), so a retry does not repeat it. */
  stepDone(step: string): Promise<void>;
}

/** A failure no retry can fix (e.g. the receiver refused the request itself): the item fails at once. */
export class PermanentOutboxError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PermanentOutboxError';
  }
}

/**
 * The wait before attempt `attempt + 1` after `attempt` failed: `base * 2^(attempt - 1)`, at most
 * `max` (seconds in, milliseconds out).
 */
export function retryDelayMs(attempt: number, baseSeconds: number, maxSeconds: number): number {
  const seconds = Math.min(baseSeconds * 2 ** Math.max(0, attempt - 1), maxSeconds);
  return seconds * 1000;
}
