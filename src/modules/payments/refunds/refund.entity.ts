import { Entity } from 'typeorm';
import { CreatedAtColumn, IdColumn, IntegerColumn, TextColumn, UpdatedAtColumn, VarcharColumn } from '../../../database/index.js';

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
  @IdColumn()
  id: number;

  @IntegerColumn('payment_id')
  paymentId: number;

  @VarcharColumn('gateway', 20)
  gateway: string;

  /** The payment's mode: a refund always uses the credentials of the mode that took the money. */
  @VarcharColumn('mode', 4)
  mode: string;

  @IntegerColumn('amount')
  amount: number;

  @VarcharColumn('currency', 3)
  currency: string;

  @VarcharColumn('status', 16)
  status: RefundStatus;

  @VarcharColumn('reason', 30, { nullable: true })
  reason: RefundReason | null;

  /** Internal text (≤ REFUND_NOTE_MAX), never sent to the payer or the provider. */
  @TextColumn('note', { nullable: true })
  note: string | null;

  @VarcharColumn('source', 16)
  source: RefundSource;

  /** The provider's refund id, once it answered; unique per gateway. */
  @VarcharColumn('provider_refund_id', 255, { nullable: true })
  providerRefundId: string | null;

  /** The platform application fee the provider gave back with this refund (free plan), minor units. */
  @IntegerColumn('application_fee_refunded', { nullable: true })
  applicationFeeRefunded: number | null;

  /** The user who asked for it (null for a refund made at the provider). */
  @IntegerColumn('created_by', { nullable: true })
  createdBy: number | null;

  /** Our code for why it failed (never the provider's raw text). */
  @VarcharColumn('failure_code', 100, { nullable: true })
  failureCode: string | null;

  @VarcharColumn('failure_message', 500, { nullable: true })
  failureMessage: string | null;

  /** Random per row; keys the MySQL unique index while the provider refund id is still NULL. */
  @VarcharColumn('row_nonce', 43)
  rowNonce: string;

  @CreatedAtColumn()
  createdAt: Date;

  @UpdatedAtColumn()
  updatedAt: Date;
}
