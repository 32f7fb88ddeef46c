import { Column, Entity, PrimaryColumn } from 'typeorm';

/** Who runs a background task right now, until when (a crashed owner's lease simply expires). */
@Entity({ name: 'checkout_task_leases' })
export class TaskLeaseEntity {
  @PrimaryColumn({ name: 'name', type: 'varchar', length: 100 })
  name: string;

  @Column({ name: 'owner', type: 'varchar', length: 64 })
  owner: string;

  @Column({ name: 'acquired_at', type: 'datetime', precision: 3 })
  acquiredAt: Date;

  @Column({ name: 'expires_at', type: 'datetime', precision: 3 })
  expiresAt: Date;
}
