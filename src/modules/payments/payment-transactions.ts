import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';

/**
 * Runs payment writes in one transaction each. MySQL/MariaDB: a real transaction, and
 * `lockRow` takes `SELECT ... FOR UPDATE`. SQLite has one shared connection (TypeORM nests a
 * second concurrent transaction as a savepoint of the first), so transactions are queued here
 * one after the other; that queue is the row lock.
 */
@Injectable()
export class PaymentTransactions {
  private queue: Promise<unknown> = Promise.resolve();

  constructor(private readonly dataSource: DataSource) {}

  get locksRows(): boolean {
    return this.dataSource.options.type === 'mysql' || this.dataSource.options.type === 'mariadb';
  }

  run<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    if (this.locksRows) return this.dataSource.transaction(work);
    const result = this.queue.then(() => this.dataSource.transaction(work));
    // The next transaction waits for this one to end, whatever its outcome.
    this.queue = result.catch(() => undefined);
    return result;
  }
}
