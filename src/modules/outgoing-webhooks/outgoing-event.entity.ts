import { Entity } from 'typeorm';
import { CreatedAtColumn, IdColumn, IntegerColumn, TextColumn, VarcharColumn } from '../../database/index.js';

/** One event told to merchants (migration 1764116930000): written in the transaction of the move it reports. */
@Entity({ name: 'checkout_outgoing_events' })
export class OutgoingEventEntity {
  /** The event's `id`: the same on every delivery and retry. */
  @IdColumn()
  id: number;

  @VarcharColumn('type', 60)
  type: string;

  @IntegerColumn('payment_id')
  paymentId: number;

  /** 1, 2, 3... per payment, in the order of its moves (written under the payment's row lock). */
  @IntegerColumn('sequence')
  sequence: number;

  /** JSON: the event's `data`, the payment as the admin detail shows it (without its log) and any extra member. */
  @TextColumn('data')
  data: string;

  @CreatedAtColumn()
  createdAt: Date;
}
