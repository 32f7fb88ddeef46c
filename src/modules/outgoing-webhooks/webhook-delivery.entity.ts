import { Entity } from 'typeorm';
import { CreatedAtColumn, DatetimeColumn, IdColumn, IntegerColumn, TextColumn, VarcharColumn } from '../../database/index.js';

/** `pending`: being tried (or waiting for its next attempt); `succeeded`: a 2xx answer; `failed`: given up. */
export type WebhookDeliveryStatus = 'pending' | 'succeeded' | 'failed';

/** One event sent to one endpoint, with its last attempt (migration 1764116930000). A resend is a new delivery. */
@Entity({ name: 'checkout_webhook_deliveries' })
export class WebhookDeliveryEntity {
  @IdColumn()
  id: number;

  @IntegerColumn('endpoint_id')
  endpointId: number;

  @IntegerColumn('event_id')
  eventId: number;

  @VarcharColumn('event_type', 60)
  eventType: string;

  @VarcharColumn('status', 16)
  status: WebhookDeliveryStatus;

  @IntegerColumn('attempts', { default: 0 })
  attempts: number;

  @DatetimeColumn('first_attempt_at', { nullable: true })
  firstAttemptAt: Date | null;

  @DatetimeColumn('last_attempt_at', { nullable: true })
  lastAttemptAt: Date | null;

  /** The HTTP status of the last answer; null when none came (refused address, timeout, connection error). */
  @IntegerColumn('status_code', { nullable: true })
  statusCode: number | null;

  @IntegerColumn('duration_ms', { nullable: true })
  durationMs: number | null;

  /** The first 1 KB of the last answer's body. */
  @TextColumn('response_excerpt', { nullable: true })
  responseExcerpt: string | null;

  @VarcharColumn('error', 255, { nullable: true })
  error: string | null;

  @CreatedAtColumn()
  createdAt: Date;
}
