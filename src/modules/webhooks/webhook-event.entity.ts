import { Entity } from 'typeorm';
import { DatetimeColumn, IdColumn, IntegerColumn, VarcharColumn } from '../../database/index.js';

/**
 * `received`: stored, not (or not successfully) applied yet: a redelivery applies it;
 * `processing`: claimed by one delivery that is applying it right now (until `claim_expires_at`);
 * `processed` / `ignored` / `rejected`: finished, with the reason of an ignore or a rejection.
 */
export type WebhookEventStatus = 'received' | 'processing' | 'processed' | 'ignored' | 'rejected';
export type WebhookEventOutcome = Extract<WebhookEventStatus, 'processed' | 'ignored' | 'rejected'>;

/**
 * The longest event type the store holds. A parser may accept up to this; providers set no bound on
 * their event names (PayPal's reference gives none), so the column is wide rather than the parsers narrow.
 */
export const WEBHOOK_EVENT_TYPE_MAX_LENGTH = 255;

/** One provider event, stored once per (provider, event id). No payload: it may carry personal data. */
@Entity({ name: 'checkout_webhook_events' })
export class WebhookEventEntity {
  @IdColumn()
  id: number;

  /** `gateway_a` or `gateway_b` */
  @VarcharColumn('provider', 20)
  provider: string;

  @VarcharColumn('event_id', 191)
  eventId: string;

  /** Up to WEBHOOK_EVENT_TYPE_MAX_LENGTH (migration 1764116310000). */
  @VarcharColumn('event_type', WEBHOOK_EVENT_TYPE_MAX_LENGTH)
  eventType: string;

  /** The callback's `{mode}`; null for section B's `/webhook/receive`, which has none (migration 1764116200000). */
  @VarcharColumn('mode', 4, { nullable: true })
  mode: string | null;

  @VarcharColumn('status', 20)
  status: WebhookEventStatus;

  @IntegerColumn('payment_id', { nullable: true })
  paymentId: number | null;

  @DatetimeColumn('received_at')
  receivedAt: Date;

  @DatetimeColumn('processed_at', { nullable: true })
  processedAt: Date | null;

  /** The delivery applying it right now (`processing`). */
  @VarcharColumn('claimed_by', 64, { nullable: true })
  claimedBy: string | null;

  /** After this a crashed delivery's claim lapses and a redelivery may apply the event. */
  @DatetimeColumn('claim_expires_at', { nullable: true })
  claimExpiresAt: Date | null;

  /** Why it was ignored or rejected, or why the last attempt failed (no payload data, no secret). */
  @VarcharColumn('reason', 255, { nullable: true })
  reason: string | null;
}
