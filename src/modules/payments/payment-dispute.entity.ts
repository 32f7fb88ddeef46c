import { Entity } from 'typeorm';
import { DatetimeColumn, IdColumn, IntegerColumn, UpdatedAtColumn, VarcharColumn } from '../../database/index.js';

/**
 * A dispute (chargeback) of a payment as its provider last reported it (migration 1764116910000):
 * one row per provider dispute, so a payment with several shows the latest open one and every lost
 * one counts against its net. Written only by PaymentAftermathService.
 */
@Entity({ name: 'checkout_payment_disputes' })
export class PaymentDisputeEntity {
  @IdColumn()
  id: number;

  @IntegerColumn('payment_id')
  paymentId: number;

  @VarcharColumn('gateway', 20)
  gateway: string;

  @VarcharColumn('provider_dispute_id', 191)
  providerDisputeId: string;

  /** In the card gateway's words (`needs_response`, `under_review`, `won`, `lost`, …) */
  @VarcharColumn('status', 40)
  status: string;

  /** Minor units of `currency` */
  @IntegerColumn('amount')
  amount: number;

  @VarcharColumn('currency', 3)
  currency: string;

  @VarcharColumn('reason', 64, { nullable: true })
  reason: string | null;

  @DatetimeColumn('evidence_due_by', { nullable: true })
  evidenceDueBy: Date | null;

  /** The provider's page for the dispute */
  @VarcharColumn('dashboard_url', 500)
  dashboardUrl: string;

  /** When the provider opened it */
  @DatetimeColumn('opened_at')
  openedAt: Date;

  @UpdatedAtColumn()
  updatedAt: Date;
}
