import { Injectable, Logger } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { DEFAULT_TRANSACTION_RETRY, transactionOnce, type TransactionRetryPolicy, withTransactionRetry } from '../../database/index.js';

/**
 * Runs payment writes in one transaction each. MySQL/MariaDB: a real transaction on its own
 * pooled connection, and the repositories read the rows a decision depends on with
 * `SELECT ... FOR UPDATE` (`locksRows`). SQLite: the database layer's access gate runs
 * transactions one at a time on the single connection, which is the row lock there (see
 * src/database/sqlite-access-gate.ts).
 *
 * A transaction the server aborts as a deadlock victim, after a lock-wait timeout or with a write
 * conflict (TiDB) is run again from its first statement: up to 3 runs with a jittered, doubling
 * wait (src/database/transaction-retry.ts), each retry logged at warn. `work` must therefore touch
 * nothing but the database: no provider call ever runs inside a payment transaction (the ledger
 * is called after, never during, a provider request), and it must not keep state from an earlier
 * run (every run re-reads its rows under the lock).
 */
@Injectable()
export class PaymentTransactions {
  private readonly logger = new Logger('PaymentTransactions');
  /** Tests shorten or disable the waits. */
  retryPolicy: TransactionRetryPolicy = DEFAULT_TRANSACTION_RETRY;

  constructor(private readonly dataSource: DataSource) {}

  get locksRows(): boolean {
    return this.dataSource.options.type === 'mysql' || this.dataSource.options.type === 'mariadb';
  }

  run<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    return withTransactionRetry(
      // transactionOnce: the data source's own retry (conflict-retry.ts) would multiply this one.
      () => transactionOnce(this.dataSource, work),
      ({ attempt, errno, delayMs }) =>
        this.logger.warn({ attempt, errno, retry_in_ms: delayMs }, `payment transaction aborted by the database (error ${errno}); running it again`),
      this.retryPolicy,
    );
  }
}
