import { Column, Entity, PrimaryColumn } from 'typeorm';

/** A connect `state` nonce that has been presented to the callback once (and may not be again). */
@Entity({ name: 'checkout_connect_states' })
export class UsedConnectStateEntity {
  @PrimaryColumn({ name: 'nonce', type: 'varchar', length: 64 })
  nonce: string;

  @Column({ name: 'user_id', type: 'integer' })
  userId: number;

  @Column({ name: 'mode', type: 'varchar', length: 4 })
  mode: string;

  @Column({ name: 'expires_at', type: 'datetime', precision: 3 })
  expiresAt: Date;

  @Column({ name: 'used_at', type: 'datetime', precision: 3 })
  usedAt: Date;
}
