import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

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
  @PrimaryGeneratedColumn({ name: 'id' })
  id: number;

  /** `gateway_a` or `gateway_b` */
  @Column({ name: 'provider', type: 'varchar', length: 20 })
  provider: string;

  @Column({ name: 'event_id', type: 'varchar', length: 191 })
  eventId: string;

  /** Up to WEBHOOK_EVENT_TYPE_MAX_LENGTH (migration 1764116310000). */
  @Column({ name: 'event_type', type: 'varchar', length: WEBHOOK_EVENT_TYPE_MAX_LENGTH })
  eventType: string;

  /** The callback's `{mode}`; null for section B's `/webhook/receive`, which has none (migration 1764116200000). */
  @Column({ name: 'mode', type: 'varchar', length: 4, nullable: true })
  mode: string | null;

  @Column({ name: 'status', type: 'varchar', length: 20 })
  status: WebhookEventStatus;

  @Column({ name: 'payment_id', type: 'integer', nullable: true })
  paymentId: number | null;

  @Column({ name: 'received_at', type: 'datetime', precision: 3 })
  receivedAt: Date;

  @Column({ name: 'processed_at', type: 'datetime', precision: 3, nullable: true })
  processedAt: Date | null;

  /** The delivery applying it right now (`processing`). */
  @Column({ name: 'claimed_by', type: 'varchar', length: 64, nullable: true })
  claimedBy: string | null;

  /** After this a crashed delivery's claim lapses and a redelivery may apply the event. */
  @Column({ name: 'claim_expires_at', type: 'datetime', precision: 3, nullable: true })
  claimExpiresAt: Date | null;

  /** Why it was ignored or rejected, or why the last attempt failed (no payload data, no secret). */
  @Column({ name: 'reason', type: 'varchar', length: 255, nullable: true })
  reason: string | null;
}
