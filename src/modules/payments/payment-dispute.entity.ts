import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

/**
 * A dispute (chargeback) of a payment as its provider last reported it (migration 1764116910000):
 * one row per provider dispute, so a payment with several shows the latest open one and every lost
 * one counts against its net. Written only by PaymentAftermathService.
 */
@Entity({ name: 'checkout_payment_disputes' })
export class PaymentDisputeEntity {
  @PrimaryGeneratedColumn({ name: 'id' })
  id: number;

  @Column({ name: 'payment_id', type: 'integer' })
  paymentId: number;

  @Column({ name: 'gateway', type: 'varchar', length: 20 })
  gateway: string;

  @Column({ name: 'provider_dispute_id', type: 'varchar', length: 191 })
  providerDisputeId: string;

  /** In the card gateway's words (`needs_response`, `under_review`, `won`, `lost`, …) */
  @Column({ name: 'status', type: 'varchar', length: 40 })
  status: string;

  /** Minor units of `currency` */
  @Column({ name: 'amount', type: 'integer' })
  amount: number;

  @Column({ name: 'currency', type: 'varchar', length: 3 })
  currency: string;

  @Column({ name: 'reason', type: 'varchar', length: 64, nullable: true })
  reason: string | null;

  @Column({ name: 'evidence_due_by', type: 'datetime', precision: 3, nullable: true })
  evidenceDueBy: Date | null;

  /** The provider's page for the dispute */
  @Column({ name: 'dashboard_url', type: 'varchar', length: 500 })
  dashboardUrl: string;

  /** When the provider opened it */
  @Column({ name: 'opened_at', type: 'datetime', precision: 3 })
  openedAt: Date;

  @Column({ name: 'updated_at', type: 'datetime', precision: 3 })
  updatedAt: Date;
}
