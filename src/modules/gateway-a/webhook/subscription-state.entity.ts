import { Entity } from 'typeorm';
import { DatetimeColumn, IdColumn, IntegerColumn, UpdatedAtColumn, VarcharColumn } from '../../../database/index.js';

/**
 * The last subscription event applied to a provider subscription (migration 1764115850000).
 * Subscription events can arrive in any order; only one created at or after `eventCreatedAt`
 * may change the status stored with the payment.
 */
@Entity({ name: 'checkout_webhook_subscription_states' })
export class SubscriptionStateEntity {
  @IdColumn()
  id: number;

  @VarcharColumn('gateway', 20)
  gateway: string;

  @VarcharColumn('subscription_ref', 191)
  subscriptionRef: string;

  /** The subscription's first payment (where the status is stored). */
  @IntegerColumn('payment_id')
  paymentId: number;

  @VarcharColumn('status', 30)
  status: string;

  @VarcharColumn('event_id', 191)
  eventId: string;

  /** The provider's `created` time of the applied event. */
  @DatetimeColumn('event_created_at')
  eventCreatedAt: Date;

  @UpdatedAtColumn()
  updatedAt: Date;
}
