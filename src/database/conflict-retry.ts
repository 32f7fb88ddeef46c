import type { DataSource, EntityManager } from 'typeorm';
import { type TransactionRetryNotice, type TransactionRetryPolicy, withTransactionRetry } from './transaction-retry.js';
import { wrapDataSource } from './wrap-data-source.js';

/**
 * How often a write that lost a conflict runs again: 5 runs in all, 20 ms before the second,
 * doubling with ±50 % jitter (≈ 20, 40, 80, 160 ms). On Galera a certification failure (1213) at
 * commit is how two nodes writing the same row, the same unique key or the same lease meet; the
 * loser runs again and then sees the winner's row (a duplicate key, an update that matches
 * nothing), which the caller already handles.
 */
export const CONFLICT_RETRY: TransactionRetryPolicy = { attempts: 5, baseDelayMs: 20 };

/** A data source's `transaction()` before installConflictRetry wrapped it (for callers with a retry of their own). */
const unretriedTransactions = new WeakMap<DataSource, EntityManager['transaction']>();

/**
 * MySQL/MariaDB (and the engines that answer like them): every write path retries the server's
 * "run it again" errors (RETRYABLE_TRANSACTION_ERRNOS: deadlock or certification failure 1213,
 * lock wait timeout 1205, TiDB's write conflicts) a bounded number of times, in one place:
 *
 * - a statement outside a transaction (the claims: webhook events, idempotency keys, outbox and
 *   task leases, options, connect state, catalog cache) is sent again on its own. The server
 *   rolled the statement back, so sending it again is the same as sending it a moment later;
 * - `dataSource.transaction(work)` runs `work` again from its first statement (a new transaction).
 *   Every such `work` touches nothing but the database (a provider call or an email is made before
 *   or after it, never inside: CONTRIBUTING.md), so a retry never repeats one.
 *
 * Statements inside a transaction are not retried alone (the transaction is). Call before
 * `initialize()`; not for SQLite, whose one connection never conflicts (sqlite-access-gate.ts).
 */
export function installConflictRetry(dataSource: DataSource, onRetry: (what: 'statement' | 'transaction', notice: TransactionRetryNotice) => void, policy = CONFLICT_RETRY): void {
  const retried = (what: 'statement' | 'transaction') => (run: () => Promise<unknown>) => withTransactionRetry(run, (notice) => onRetry(what, notice), policy);
  const retryStatement = retried('statement');
  const unretried = wrapDataSource(dataSource, {
    transaction: retried('transaction'),
    query: (runner, run) => (runner.isTransactionActive ? run() : retryStatement(run)),
  });
  unretriedTransactions.set(dataSource, unretried);
}

/**
 * `dataSource.transaction(work)` without installConflictRetry's retry, for a caller that retries
 * with a policy and log of its own (PaymentTransactions): two nested retries would multiply.
 */
export function transactionOnce<T>(dataSource: DataSource, work: (manager: EntityManager) => Promise<T>): Promise<T> {
  const unretried = unretriedTransactions.get(dataSource);
  return unretried ? (unretried as (work: (manager: EntityManager) => Promise<T>) => Promise<T>)(work) : dataSource.transaction(work);
}
