import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

/**
 * `pending`: due at `next_attempt_at` (claimed by a worker while `claim_expires_at` is ahead);
 * `sent`: done; `failed`: gave up after the last attempt (raises a dashboard notification).
 */
export type OutboxStatus = 'pending' | 'sent' | 'failed';

/** One piece of work due after a commit (migration 1764116330000). */
@Entity({ name: 'checkout_outbox' })
export class OutboxItemEntity {
  @PrimaryGeneratedColumn({ name: 'id' })
  id: number;

  /** Which handler does it (registered by the module that owns the work). */
  @Column({ name: 'topic', type: 'varchar', length: 60 })
  topic: string;

  /** Unique within the topic: writing the same work twice stores it once. */
  @Column({ name: 'item_key', type: 'varchar', length: 150 })
  key: string;

  /** JSON, the handler's own. */
  @Column({ name: 'payload', type: 'text' })
  payload: string;

  @Column({ name: 'status', type: 'varchar', length: 16 })
  status: OutboxStatus;

  /** Attempts made so far (finished ones, successful or not). */
  @Column({ name: 'attempts', type: 'integer', default: 0 })
  attempts: number;

  /** JSON array of the steps done (e.g. the emails already sent), so a retry does not repeat them. */
  @Column({ name: 'progress', type: 'varchar', length: 255, nullable: true })
  progress: string | null;

  @Column({ name: 'next_attempt_at', type: 'datetime', precision: 3 })
  nextAttemptAt: Date;

  /** The worker doing it right now, until `claim_expires_at` (a crashed worker's claim lapses). */
  @Column({ name: 'claimed_by', type: 'varchar', length: 64, nullable: true })
  claimedBy: string | null;

  @Column({ name: 'claim_expires_at', type: 'datetime', precision: 3, nullable: true })
  claimExpiresAt: Date | null;

  /** Why the last attempt failed (no payload data, no secret). */
  @Column({ name: 'last_error', type: 'varchar', length: 255, nullable: true })
  lastError: string | null;

  @Column({ name: 'created_at', type: 'datetime', precision: 3 })
  createdAt: Date;

  @Column({ name: 'updated_at', type: 'datetime', precision: 3 })
  updatedAt: Date;

  /** When it was sent or given up on. */
  @Column({ name: 'finished_at', type: 'datetime', precision: 3, nullable: true })
  finishedAt: Date | null;
}
