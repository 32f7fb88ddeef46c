import { QueryFailedError } from 'typeorm';
import { isRetryableTransactionError, withTransactionRetry } from './transaction-retry.js';

/** A failed statement as TypeORM throws it from mysql2 (the server's error number in `errno`). */
function serverError(errno: number, code = 'ER_X'): QueryFailedError {
  return new QueryFailedError('UPDATE ...', [], Object.assign(new Error(`server error ${errno}`), { errno, code }));
}

const noWait = { attempts: 3, baseDelayMs: 0 };

describe('withTransactionRetry', () => {
  it.each([
    [1213, 'MySQL/MariaDB deadlock victim'],
    [1205, 'MySQL/MariaDB lock wait timeout'],
    [8002, 'TiDB: SELECT FOR UPDATE transaction met a commit conflict'],
    [8005, 'TiDB: write conflict (optimistic)'],
    [8022, 'TiDB: commit failed and rolled back'],
    [8028, 'TiDB: schema changed during the transaction'],
    [9007, 'TiDB: write conflict in TiKV'],
  ])('runs the whole transaction again after error %i (%s) and answers its result', async (errno) => {
    const transaction = jest.fn().mockRejectedValueOnce(serverError(errno)).mockResolvedValueOnce('done');
    const notices: unknown[] = [];
    await expect(withTransactionRetry(transaction, (notice) => notices.push(notice), noWait)).resolves.toBe('done');
    expect(transaction).toHaveBeenCalledTimes(2);
    expect(notices).toEqual([{ attempt: 1, errno, delayMs: 0 }]);
  });

  it('gives up after the last attempt with that attempt’s error', async () => {
    const errors = [serverError(1213), serverError(1213), serverError(9007)];
    const transaction = jest.fn(async () => {
      throw errors.shift();
    });
    const onRetry = jest.fn();
    const error = await withTransactionRetry(transaction, onRetry, noWait).catch((caught: unknown) => caught);
    expect(transaction).toHaveBeenCalledTimes(3);
    expect(onRetry).toHaveBeenCalledTimes(2);
    expect((error as QueryFailedError & { driverError: { errno: number } }).driverError.errno).toBe(9007);
  });

  it.each([
    ['a duplicate key (1062)', serverError(1062, 'ER_DUP_ENTRY')],
    ['a lost connection (no server errno)', Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' })],
    ['a SQLite busy file (the access gate serialises transactions there)', Object.assign(new Error('database is locked'), { code: 'SQLITE_BUSY' })],
    ['an application error', new Error('checkout_invalid_state')],
  ])('does not run again after %s', async (_name, failure) => {
    const transaction = jest.fn().mockRejectedValue(failure);
    const onRetry = jest.fn();
    await expect(withTransactionRetry(transaction, onRetry, noWait)).rejects.toBe(failure);
    expect(transaction).toHaveBeenCalledTimes(1);
    expect(onRetry).not.toHaveBeenCalled();
  });

  it('waits a doubling time with ±50 % jitter before each further run', async () => {
    const transaction = jest.fn().mockRejectedValueOnce(serverError(1213)).mockRejectedValueOnce(serverError(1213)).mockResolvedValueOnce(1);
    const delays: number[] = [];
    const randoms = [0, 0.999];
    await withTransactionRetry(transaction, ({ delayMs }) => delays.push(delayMs), { attempts: 3, baseDelayMs: 4 }, () => randoms.shift()!);
    expect(delays).toEqual([2, 12]); // 4 ms × 0.5, then 8 ms × ~1.5
  });

  it('recognises the error number on a driver error that TypeORM did not wrap', () => {
    expect(isRetryableTransactionError(Object.assign(new Error('Deadlock found'), { errno: 1213 }))).toBe(true);
    expect(isRetryableTransactionError(serverError(1213))).toBe(true);
    expect(isRetryableTransactionError(serverError(1146))).toBe(false);
    expect(isRetryableTransactionError(null)).toBe(false);
  });
});
