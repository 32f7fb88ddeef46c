import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

/**
 * The last subscription event applied to a provider subscription (migration 1764115850000).
 * Subscription events can arrive in any order; only one created at or after `eventCreatedAt`
 * may change the status stored with the payment.
 */
@Entity({ name: 'checkout_webhook_subscription_states' })
export class SubscriptionStateEntity {
  @PrimaryGeneratedColumn({ name: 'id' })
  id: number;

  @Column({ name: 'gateway', type: 'varchar', length: 20 })
  gateway: string;

  @Column({ name: 'subscription_ref', type: 'varchar', length: 191 })
  subscriptionRef: string;

  /** The subscription's first payment (where the status is stored). */
  @Column({ name: 'payment_id', type: 'integer' })
  paymentId: number;

  @Column({ name: 'status', type: 'varchar', length: 30 })
  status: string;

  @Column({ name: 'event_id', type: 'varchar', length: 191 })
  eventId: string;

  /** The provider's `created` time of the applied event. */
  @Column({ name: 'event_created_at', type: 'datetime', precision: 3 })
  eventCreatedAt: Date;

  @Column({ name: 'updated_at', type: 'datetime', precision: 3 })
  updatedAt: Date;
}
