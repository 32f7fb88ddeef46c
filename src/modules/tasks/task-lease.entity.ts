import { Entity, PrimaryColumn } from 'typeorm';
import { DatetimeColumn, VarcharColumn } from '../../database/index.js';

/** Who runs a background task right now, until when (a crashed owner's lease simply expires). */
@Entity({ name: 'checkout_task_leases' })
export class TaskLeaseEntity {
  @PrimaryColumn({ name: 'name', type: 'varchar', length: 100 })
  name: string;

  @VarcharColumn('owner', 64)
  owner: string;

  @DatetimeColumn('acquired_at')
  acquiredAt: Date;

  @DatetimeColumn('expires_at')
  expiresAt: Date;
}
