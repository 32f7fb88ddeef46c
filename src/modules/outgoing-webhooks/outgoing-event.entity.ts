import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

/** One event told to merchants (migration 1764116930000): written in the transaction of the move it reports. */
@Entity({ name: 'checkout_outgoing_events' })
export class OutgoingEventEntity {
  /** The event's `id`: the same on every delivery and retry. */
  @PrimaryGeneratedColumn({ name: 'id' })
  id: number;

  @Column({ name: 'type', type: 'varchar', length: 60 })
  type: string;

  @Column({ name: 'payment_id', type: 'integer' })
  paymentId: number;

  /** 1, 2, 3... per payment, in the order of its moves (written under the payment's row lock). */
  @Column({ name: 'sequence', type: 'integer' })
  sequence: number;

  /** JSON: the event's `data`, the payment as the admin detail shows it (without its log) and any extra member. */
  @Column({ name: 'data', type: 'text' })
  data: string;

  @Column({ name: 'created_at', type: 'datetime', precision: 3 })
  createdAt: Date;
}
