import { Entity } from 'typeorm';
import { CreatedAtColumn, DatetimeColumn, IdColumn, TextColumn, UpdatedAtColumn, VarcharColumn } from '../../database/index.js';

export type WebhookEndpointStatus = 'enabled' | 'disabled';

/** A merchant's receiver of outgoing events (migration 1764116930000). Secrets are sealed (AES-256-GCM). */
@Entity({ name: 'checkout_webhook_endpoints' })
export class WebhookEndpointEntity {
  @IdColumn()
  id: number;

  @VarcharColumn('url', 2048)
  url: string;

  /** JSON array of event types; `["*"]` for all. */
  @TextColumn('events')
  events: string;

  @VarcharColumn('description', 255, { nullable: true })
  description: string | null;

  @VarcharColumn('status', 16)
  status: WebhookEndpointStatus;

  @TextColumn('secret_sealed')
  secretSealed: string;

  /** The secret before the last rotation, which keeps signing until `previous_secret_expires_at`. */
  @TextColumn('previous_secret_sealed', { nullable: true })
  previousSecretSealed: string | null;

  @DatetimeColumn('previous_secret_expires_at', { nullable: true })
  previousSecretExpiresAt: Date | null;

  @CreatedAtColumn()
  createdAt: Date;

  @UpdatedAtColumn()
  updatedAt: Date;
}
