import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

/** `running`: the first request holds the key until `expires_at` (its lease); `completed`: it succeeded. */
export type IdempotencyState = 'running' | 'completed';

/**
 * One `Idempotency-Key` of one client on one route (migration 1764116400000). Holds no secret and
 * no personal data: the client is an HMAC of the rate limiter's client key, the request a SHA-256
 * of its canonical body, the result the ids of what it created.
 */
@Entity({ name: 'checkout_idempotency_keys' })
export class IdempotencyKeyEntity {
  @PrimaryGeneratedColumn({ name: 'id' })
  id: number;

  /** hex HMAC-SHA256 (key "idempotency-client") of the client key (IPv4, or the IPv6 /64) */
  @Column({ name: 'client_hash', type: 'varchar', length: 64 })
  clientHash: string;

  /** The operation, e.g. `payment/sync-details` */
  @Column({ name: 'route', type: 'varchar', length: 64 })
  route: string;

  @Column({ name: 'idempotency_key', type: 'varchar', length: 255 })
  idempotencyKey: string;

  /** hex SHA-256 of the canonical request body */
  @Column({ name: 'request_hash', type: 'varchar', length: 64 })
  requestHash: string;

  @Column({ name: 'state', type: 'varchar', length: 10 })
  state: IdempotencyState;

  /** The claim of the request running it (null once completed): only that request completes or releases it. */
  @Column({ name: 'lease_token', type: 'varchar', length: 36, nullable: true })
  leaseToken: string | null;

  /** JSON of the result's ids (`{"payment_id":12}`), set on completion. */
  @Column({ name: 'result', type: 'varchar', length: 255, nullable: true })
  result: string | null;

  @Column({ name: 'created_at', type: 'datetime', precision: 3 })
  createdAt: Date;

  /** Running: the end of the lease. Completed: 24 hours after the first request. Past it the key is free. */
  @Column({ name: 'expires_at', type: 'datetime', precision: 3 })
  expiresAt: Date;
}
