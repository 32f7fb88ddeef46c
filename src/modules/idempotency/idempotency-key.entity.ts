import { Entity } from 'typeorm';
import { CreatedAtColumn, DatetimeColumn, IdColumn, VarcharColumn } from '../../database/index.js';

/** `running`: the first request holds the key until `expires_at` (its lease); `completed`: it succeeded. */
export type IdempotencyState = 'running' | 'completed';

/**
 * One `Idempotency-Key` of one client on one route (migration 1764116400000). Holds no secret and
 * no personal data: the client is an HMAC of the rate limiter's client key, the request a SHA-256
 * of its canonical body, the result the ids of what it created.
 */
@Entity({ name: 'checkout_idempotency_keys' })
export class IdempotencyKeyEntity {
  @IdColumn()
  id: number;

  /** hex HMAC-SHA256 (key "idempotency-client") of the client key (IPv4, or the IPv6 /64) */
  @VarcharColumn('client_hash', 64)
  clientHash: string;

  /** The operation, e.g. `payment/sync-details` */
  @VarcharColumn('route', 64)
  route: string;

  @VarcharColumn('idempotency_key', 255)
  idempotencyKey: string;

  /** hex SHA-256 of the canonical request body */
  @VarcharColumn('request_hash', 64)
  requestHash: string;

  @VarcharColumn('state', 10)
  state: IdempotencyState;

  /** The claim of the request running it (null once completed): only that request completes or releases it. */
  @VarcharColumn('lease_token', 36, { nullable: true })
  leaseToken: string | null;

  /** JSON of the result's ids (`{"payment_id":12}`), set on completion. */
  @VarcharColumn('result', 255, { nullable: true })
  result: string | null;

  @CreatedAtColumn()
  createdAt: Date;

  /** Running: the end of the lease. Completed: 24 hours after the first request. Past it the key is free. */
  @DatetimeColumn('expires_at')
  expiresAt: Date;
}
