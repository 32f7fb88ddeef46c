import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

export type WebhookEventStatus = 'received' | 'processed' | 'ignored' | 'failed';

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

  @Column({ name: 'event_type', type: 'varchar', length: 100 })
  eventType: string;

  @Column({ name: 'mode', type: 'varchar', length: 4 })
  mode: string;

  @Column({ name: 'status', type: 'varchar', length: 20 })
  status: WebhookEventStatus;

  @Column({ name: 'payment_id', type: 'integer', nullable: true })
  paymentId: number | null;

  @Column({ name: 'received_at', type: 'datetime', precision: 3 })
  receivedAt: Date;

  @Column({ name: 'processed_at', type: 'datetime', precision: 3, nullable: true })
  processedAt: Date | null;
}
