import { Entity } from 'typeorm';
import { CreatedAtColumn, DatetimeColumn, IdColumn, IntegerColumn, TextColumn, UpdatedAtColumn, VarcharColumn } from '../../database/index.js';

/**
 * `pending`: due at `next_attempt_at` (claimed by a worker while `claim_expires_at` is ahead);
 * `sent`: done; `failed`: gave up after the last attempt (raises a dashboard notification).
 */
export type OutboxStatus = 'pending' | 'sent' | 'failed';

/** One piece of work due after a commit (migration 1764116330000). */
@Entity({ name: 'checkout_outbox' })
export class OutboxItemEntity {
  @IdColumn()
  id: number;

  /** Which handler does it (registered by the module that owns the work). */
  @VarcharColumn('topic', 60)
  topic: string;

  /** Unique within the topic: writing the same work twice stores it once. */
  @VarcharColumn('item_key', 150)
  key: string;

  /** JSON, the handler's own. */
  @TextColumn('payload')
  payload: string;

  @VarcharColumn('status', 16)
  status: OutboxStatus;

  /** Attempts made so far (finished ones, successful or not). */
  @IntegerColumn('attempts', { default: 0 })
  attempts: number;

  /** JSON array of the steps done (e.g. the emails already sent), so a retry does not repeat them. */
  @VarcharColumn('progress', 255, { nullable: true })
  progress: string | null;

  @DatetimeColumn('next_attempt_at')
  nextAttemptAt: Date;

  /** The worker doing it right now, until `claim_expires_at` (a crashed worker's claim lapses). */
  @VarcharColumn('claimed_by', 64, { nullable: true })
  claimedBy: string | null;

  @DatetimeColumn('claim_expires_at', { nullable: true })
  claimExpiresAt: Date | null;

  /** Why the last attempt failed (no payload data, no secret). */
  @VarcharColumn('last_error', 255, { nullable: true })
  lastError: string | null;

  @CreatedAtColumn()
  createdAt: Date;

  @UpdatedAtColumn()
  updatedAt: Date;

  /** When it was sent or given up on. */
  @DatetimeColumn('finished_at', { nullable: true })
  finishedAt: Date | null;
}
