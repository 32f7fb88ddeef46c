import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { isDuplicateKeyError } from '../../database/index.js';
import { TaskLeaseEntity } from './task-lease.entity.js';

/**
 * Database leases: one runner of a named task across every instance sharing the database.
 * Works the same on SQLite and MySQL/MariaDB (a primary-key insert, then a conditional update).
 */
@Injectable()
export class TaskLeaseRepository {
  constructor(@InjectRepository(TaskLeaseEntity) private readonly leases: Repository<TaskLeaseEntity>) {}

  /** True when `owner` now holds the lease: it was free, expired, or already ours. */
  async tryAcquire(name: string, owner: string, now: Date, ttlMs: number): Promise<boolean> {
    const expiresAt = new Date(now.getTime() + ttlMs);
    try {
      await this.leases.insert({ name, owner, acquiredAt: now, expiresAt });
      return true;
    } catch (error) {
      if (!isDuplicateKeyError(error)) throw error;
    }
    const result = await this.leases
      .createQueryBuilder()
      .update()
      .set({ owner, acquiredAt: now, expiresAt })
      .where('name = :name AND (expires_at < :now OR owner = :owner)', { name, now, owner })
      .execute();
    return (result.affected ?? 0) > 0;
  }

  async release(name: string, owner: string): Promise<void> {
    await this.leases.delete({ name, owner });
  }
}
