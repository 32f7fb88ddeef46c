import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

/** One line of the payment log (`{prefix}checkout_log`): transitions, refusals, notable events. */
@Entity({ name: 'checkout_log' })
export class PaymentLogEntity {
  @PrimaryGeneratedColumn({ name: 'id' })
  id: number;

  @Column({ name: 'payment_id', type: 'integer', nullable: true })
  paymentId: number | null;

  @Column({ name: 'level', type: 'varchar', length: 10 })
  level: string;

  @Column({ name: 'event', type: 'varchar', length: 60 })
  event: string;

  @Column({ name: 'message', type: 'varchar', length: 500 })
  message: string;

  /** JSON object with the details (never secrets). */
  @Column({ name: 'context', type: 'text', nullable: true })
  context: string | null;

  @Column({ name: 'created_at', type: 'datetime', precision: 3 })
  createdAt: Date;
}
