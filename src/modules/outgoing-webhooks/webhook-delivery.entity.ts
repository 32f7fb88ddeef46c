import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

/** `pending`: being tried (or waiting for its next attempt); `succeeded`: a 2xx answer; `failed`: given up. */
export type WebhookDeliveryStatus = 'pending' | 'succeeded' | 'failed';

/** One event sent to one endpoint, with its last attempt (migration 1764116930000). A resend is a new delivery. */
@Entity({ name: 'checkout_webhook_deliveries' })
export class WebhookDeliveryEntity {
  @PrimaryGeneratedColumn({ name: 'id' })
  id: number;

  @Column({ name: 'endpoint_id', type: 'integer' })
  endpointId: number;

  @Column({ name: 'event_id', type: 'integer' })
  eventId: number;

  @Column({ name: 'event_type', type: 'varchar', length: 60 })
  eventType: string;

  @Column({ name: 'status', type: 'varchar', length: 16 })
  status: WebhookDeliveryStatus;

  @Column({ name: 'attempts', type: 'integer', default: 0 })
  attempts: number;

  @Column({ name: 'first_attempt_at', type: 'datetime', precision: 3, nullable: true })
  firstAttemptAt: Date | null;

  @Column({ name: 'last_attempt_at', type: 'datetime', precision: 3, nullable: true })
  lastAttemptAt: Date | null;

  /** The HTTP status of the last answer; null when none came (refused address, timeout, connection error). */
  @Column({ name: 'status_code', type: 'integer', nullable: true })
  statusCode: number | null;

  @Column({ name: 'duration_ms', type: 'integer', nullable: true })
  durationMs: number | null;

  /** The first 1 KB of the last answer's body. */
  @Column({ name: 'response_excerpt', type: 'text', nullable: true })
  responseExcerpt: string | null;

  @Column({ name: 'error', type: 'varchar', length: 255, nullable: true })
  error: string | null;

  @Column({ name: 'created_at', type: 'datetime', precision: 3 })
  createdAt: Date;
}
