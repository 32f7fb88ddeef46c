import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

export const REFUND_STATUSES = ['pending', 'succeeded', 'failed', 'canceled'] as const;
export type RefundStatus = (typeof REFUND_STATUSES)[number];

/** Why a refund is made; `other` is ours alone and is not sent to the provider. */
export const REFUND_REASONS = ['requested_by_customer', 'duplicate', 'fraudulent', 'other'] as const;
export type RefundReason = (typeof REFUND_REASONS)[number];

/** Where a refund was made: the console, an API client, or at the provider (read back by a reconcile). */
export const REFUND_SOURCES = ['console', 'api', 'provider'] as const;
export type RefundSource = (typeof REFUND_SOURCES)[number];

export const REFUND_NOTE_MAX = 500;

/**
 * One refund of a payment (`{prefix}checkout_refunds`, migration 1764116520000). Amounts in minor
 * units of the payment's currency. A pending refund's amount is held in the payment's
 * `refund_reserved`; a succeeded one's in `amount_refunded`.
 */
@Entity({ name: 'checkout_refunds' })
export class RefundEntity {
  @PrimaryGeneratedColumn({ name: 'id' })
  id: number;

  @Column({ name: 'payment_id', type: 'integer' })
  paymentId: number;

  @Column({ name: 'gateway', type: 'varchar', length: 20 })
  gateway: string;

  /** The payment's mode: a refund always uses the credentials of the mode that took the money. */
  @Column({ name: 'mode', type: 'varchar', length: 4 })
  mode: string;

  @Column({ name: 'amount', type: 'integer' })
  amount: number;

  @Column({ name: 'currency', type: 'varchar', length: 3 })
  currency: string;

  @Column({ name: 'status', type: 'varchar', length: 16 })
  status: RefundStatus;

  @Column({ name: 'reason', type: 'varchar', length: 30, nullable: true })
  reason: RefundReason | null;

  /** Internal text (≤ REFUND_NOTE_MAX), never sent to the payer or the provider. */
  @Column({ name: 'note', type: 'text', nullable: true })
  note: string | null;

  @Column({ name: 'source', type: 'varchar', length: 16 })
  source: RefundSource;

  /** The provider's refund id, once it answered; unique per gateway. */
  @Column({ name: 'provider_refund_id', type: 'varchar', length: 255, nullable: true })
  providerRefundId: string | null;

  /** The platform application fee the provider gave back with this refund (free plan), minor units. */
  @Column({ name: 'application_fee_refunded', type: 'integer', nullable: true })
  applicationFeeRefunded: number | null;

  /** The user who asked for it (null for a refund made at the provider). */
  @Column({ name: 'created_by', type: 'integer', nullable: true })
  createdBy: number | null;

  /** Our code for why it failed (never the provider's raw text). */
  @Column({ name: 'failure_code', type: 'varchar', length: 100, nullable: true })
  failureCode: string | null;

  @Column({ name: 'failure_message', type: 'varchar', length: 500, nullable: true })
  failureMessage: string | null;

  /** Random per row; keys the MySQL unique index while the provider refund id is still NULL. */
  @Column({ name: 'row_nonce', type: 'varchar', length: 43 })
  rowNonce: string;

  @Column({ name: 'created_at', type: 'datetime', precision: 3 })
  createdAt: Date;

  @Column({ name: 'updated_at', type: 'datetime', precision: 3 })
  updatedAt: Date;
}
