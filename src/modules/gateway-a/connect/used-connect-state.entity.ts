import { Entity, PrimaryColumn } from 'typeorm';
import { DatetimeColumn, IntegerColumn, VarcharColumn } from '../../../database/index.js';

/** A connect `state` nonce that has been presented to the callback once (and may not be again). */
@Entity({ name: 'checkout_connect_states' })
export class UsedConnectStateEntity {
  @PrimaryColumn({ name: 'nonce', type: 'varchar', length: 64 })
  nonce: string;

  @IntegerColumn('user_id')
  userId: number;

  @VarcharColumn('mode', 4)
  mode: string;

  @DatetimeColumn('expires_at')
  expiresAt: Date;

  @DatetimeColumn('used_at')
  usedAt: Date;
}
