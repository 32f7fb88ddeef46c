import { type DataSource, QueryFailedError } from 'typeorm';
import { installConflictRetry, transactionOnce } from './conflict-retry.js';

const conflict = () => new QueryFailedError('sql', [], Object.assign(new Error('Deadlock found when trying to get lock'), { errno: 1213, code: 'ER_LOCK_DEADLOCK' }));
const noWait = { attempts: 5, baseDelayMs: 0 };

/** A data source whose runner's statements answer from `answers` (an Error is thrown). */
function fakeDataSource(answers: Array<unknown>) {
  const sent = jest.fn(async () => {
    const next = answers.shift();
    if (next instanceof Error) throw next;
    return next;
  });
  const runner = { isTransactionActive: false, query: sent };
  const manager = { transaction: jest.fn() };
  const dataSource = { manager, driver: { createQueryRunner: () => runner } } as unknown as DataSource;
  return { dataSource, runner, sent, manager };
}

describe('installConflictRetry', () => {
  it('sends a statement outside a transaction again after a conflict, and tells onRetry', async () => {
    const { dataSource, sent } = fakeDataSource([conflict(), conflict(), { affectedRows: 1 }]);
    const onRetry = jest.fn();
    installConflictRetry(dataSource, onRetry, noWait);
    const wrapped = dataSource.driver.createQueryRunner('master');
    await expect(wrapped.query('UPDATE lease SET owner = ?', ['me'])).resolves.toEqual({ affectedRows: 1 });
    expect(sent).toHaveBeenCalledTimes(3);
    expect(onRetry.mock.calls.map(([what, notice]) => [what, notice.errno])).toEqual([
      ['statement', 1213],
      ['statement', 1213],
    ]);
  });

  it('leaves a statement inside a transaction alone (the transaction is run again instead) and gives up after the bounded attempts', async () => {
    const inside = fakeDataSource([conflict()]);
    installConflictRetry(inside.dataSource, jest.fn(), noWait);
    inside.runner.isTransactionActive = true;
    await expect(inside.dataSource.driver.createQueryRunner('master').query('UPDATE x')).rejects.toThrow('Deadlock');
    expect(inside.sent).toHaveBeenCalledTimes(1);

    const hopeless = fakeDataSource(Array.from({ length: 9 }, conflict));
    installConflictRetry(hopeless.dataSource, jest.fn(), noWait);
    await expect(hopeless.dataSource.driver.createQueryRunner('master').query('UPDATE x')).rejects.toThrow('Deadlock');
    expect(hopeless.sent).toHaveBeenCalledTimes(5);
  });

  it('runs a whole transaction again after a conflict; transactionOnce runs it once', async () => {
    const { dataSource, manager } = fakeDataSource([]);
    const original = manager.transaction;
    original.mockRejectedValueOnce(conflict()).mockResolvedValueOnce('committed');
    const onRetry = jest.fn();
    installConflictRetry(dataSource, onRetry, noWait);
    await expect(dataSource.manager.transaction(async () => 'work')).resolves.toBe('committed');
    expect(original).toHaveBeenCalledTimes(2);
    expect(onRetry).toHaveBeenCalledWith('transaction', expect.objectContaining({ attempt: 1, errno: 1213 }));

    original.mockRejectedValueOnce(conflict());
    await expect(transactionOnce(dataSource, async () => 'work')).rejects.toThrow('Deadlock');
    expect(original).toHaveBeenCalledTimes(3);
  });

  it('does not retry other errors (a duplicate key is an answer)', async () => {
    const duplicate = new QueryFailedError('INSERT', [], Object.assign(new Error('Duplicate entry'), { errno: 1062, code: 'ER_DUP_ENTRY' }));
    const { dataSource, sent } = fakeDataSource([duplicate]);
    installConflictRetry(dataSource, jest.fn(), noWait);
    await expect(dataSource.driver.createQueryRunner('master').query('INSERT')).rejects.toBe(duplicate);
    expect(sent).toHaveBeenCalledTimes(1);
  });
});
