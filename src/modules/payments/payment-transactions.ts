import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';

/**
 * Runs payment writes in one transaction each. MySQL/MariaDB: a real transaction on its own
 * pooled connection, and the repository takes `SELECT ... FOR UPDATE` (`locksRows`). SQLite: the
 * database layer's access gate runs transactions one at a time on the single connection, which
 * is the row lock there (see src/database/sqlite-access-gate.ts).
 */
@Injectable()
export class PaymentTransactions {
  constructor(private readonly dataSource: DataSource) {}

  get locksRows(): boolean {
    return this.dataSource.options.type === 'mysql' || this.dataSource.options.type === 'mariadb';
  }

  run<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    return this.dataSource.transaction(work);
  }
}
