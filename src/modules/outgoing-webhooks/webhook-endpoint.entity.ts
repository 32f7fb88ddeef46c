import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

export type WebhookEndpointStatus = 'enabled' | 'disabled';

/** A merchant's receiver of outgoing events (migration 1764116930000). Secrets are sealed (AES-256-GCM). */
@Entity({ name: 'checkout_webhook_endpoints' })
export class WebhookEndpointEntity {
  @PrimaryGeneratedColumn({ name: 'id' })
  id: number;

  @Column({ name: 'url', type: 'varchar', length: 2048 })
  url: string;

  /** JSON array of event types; `["*"]` for all. */
  @Column({ name: 'events', type: 'text' })
  events: string;

  @Column({ name: 'description', type: 'varchar', length: 255, nullable: true })
  description: string | null;

  @Column({ name: 'status', type: 'varchar', length: 16 })
  status: WebhookEndpointStatus;

  @Column({ name: 'secret_sealed', type: 'text' })
  secretSealed: string;

  /** The secret before the last rotation, which keeps signing until `previous_secret_expires_at`. */
  @Column({ name: 'previous_secret_sealed', type: 'text', nullable: true })
  previousSecretSealed: string | null;

  @Column({ name: 'previous_secret_expires_at', type: 'datetime', precision: 3, nullable: true })
  previousSecretExpiresAt: Date | null;

  @Column({ name: 'created_at', type: 'datetime', precision: 3 })
  createdAt: Date;

  @Column({ name: 'updated_at', type: 'datetime', precision: 3 })
  updatedAt: Date;
}
