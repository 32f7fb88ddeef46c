import { QueryFailedError } from 'typeorm';

/**
 * Server errors after which the whole transaction was (or must be) rolled back and running it
 * again from its first statement is safe and likely to succeed:
 *
 * - MySQL/MariaDB (and TiDB, which answers with the same numbers): 1213 `ER_LOCK_DEADLOCK` (the
 *   server chose this transaction as a deadlock victim), 1205 `ER_LOCK_WAIT_TIMEOUT` (a row lock
 *   did not come within `innodb_lock_wait_timeout`; MariaDB rolls back only the statement, so the
 *   caller's rollback of the whole transaction matters).
 * - TiDB's own codes (TiDB documentation, "Error Codes and Troubleshooting"): 8002 (a transaction
 *   with `SELECT FOR UPDATE` met a commit conflict and was rolled back: "the application can safely
 *   retry the whole transaction"), 8005 ("Write Conflict, txnStartTS is stale": optimistic mode),
 *   8022 (the commit failed and was rolled back: safe to retry), 8028 (a table's schema changed
 *   during the transaction, e.g. an online DDL of a rolling deploy: safe to retry), 9007 ("Write
 *   conflict", in TiKV).
 *
 * Anything else (a duplicate key, a lost connection, a constraint) is not retried here.
 */
export const RETRYABLE_TRANSACTION_ERRNOS: ReadonlySet<number> = new Set([1213, 1205, 8002, 8005, 8022, 8028, 9007]);

/** The server's error number of a failed statement (mysql2's `errno`), or null. */
export function serverErrno(error: unknown): number | null {
  const driverError = error instanceof QueryFailedError ? (error.driverError as { errno?: unknown }) : (error as { errno?: unknown } | null);
  const errno = driverError?.errno;
  return typeof errno === 'number' ? errno : null;
}

export function isRetryableTransactionError(error: unknown): boolean {
  const errno = serverErrno(error);
  return errno !== null && RETRYABLE_TRANSACTION_ERRNOS.has(errno);
}

export interface TransactionRetryPolicy {
  /** Runs in all, the first included. */
  attempts: number;
  /** The wait before the second run; doubled before each further one, each with ±50 % jitter. */
  baseDelayMs: number;
}

export const DEFAULT_TRANSACTION_RETRY: TransactionRetryPolicy = { attempts: 3, baseDelayMs: 20 };

export interface TransactionRetryNotice {
  /** The run that failed (1-based). */
  attempt: number;
  errno: number;
  delayMs: number;
}

/**
 * Runs `transaction` (one whole transaction: it begins, works and commits or rolls back each time
 * it is called) and, when it fails with a retryable error (isRetryableTransactionError), runs it
 * again after a jittered, doubling wait, at most `policy.attempts` times in all. `onRetry` is told
 * before each wait. The last error is thrown as it is.
 *
 * Only for work that touches nothing but the database: a provider call inside would be repeated.
 */
export async function withTransactionRetry<T>(
  transaction: () => Promise<T>,
  onRetry: (notice: TransactionRetryNotice) => void,
  policy: TransactionRetryPolicy = DEFAULT_TRANSACTION_RETRY,
  random: () => number = Math.random,
): Promise<T> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await transaction();
    } catch (error) {
      const errno = serverErrno(error);
      if (attempt >= policy.attempts || errno === null || !RETRYABLE_TRANSACTION_ERRNOS.has(errno)) throw error;
      // Jitter keeps two victims of one deadlock from meeting again in lockstep.
      const delayMs = Math.round(policy.baseDelayMs * 2 ** (attempt - 1) * (0.5 + random()));
      onRetry({ attempt, errno, delayMs });
      await new Promise((resolve) => setTimeout(resolve, delayMs));
    }
  }
}
