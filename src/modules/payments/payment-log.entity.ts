import { Entity } from 'typeorm';
import { CreatedAtColumn, IdColumn, IntegerColumn, TextColumn, VarcharColumn } from '../../database/index.js';

/** One line of the payment log (`{prefix}checkout_log`): transitions, refusals, notable events. */
@Entity({ name: 'checkout_log' })
export class PaymentLogEntity {
  @IdColumn()
  id: number;

  @IntegerColumn('payment_id', { nullable: true })
  paymentId: number | null;

  @VarcharColumn('level', 10)
  level: string;

  @VarcharColumn('event', 60)
  event: string;

  @VarcharColumn('message', 500)
  message: string;

  /** JSON object with the details (never secrets). */
  @TextColumn('context', { nullable: true })
  context: string | null;

  @CreatedAtColumn()
  createdAt: Date;
}
