import type { QueryRunner } from 'typeorm';
import { MigrationLockTimeoutError, MysqlMigrationLock } from './migration-lock.js';

/** A connection that answers the lock functions as a MySQL-compatible server would. */
function fakeRunner(answers: { getLock: Array<number | null>; isUsedLock?: () => unknown }) {
  const sent: Array<[string, unknown[]]> = [];
  const runner = {
    query: jest.fn(async (sql: string, parameters: unknown[] = []) => {
      sent.push([sql, parameters]);
      if (sql.startsWith('SELECT GET_LOCK')) return [{ acquired: answers.getLock.shift() }];
      if (sql.startsWith('SELECT IS_USED_LOCK')) return [{ holder: answers.isUsedLock ? answers.isUsedLock() : 7 }];
      if (sql.startsWith('SELECT RELEASE_LOCK')) return [{ released: 1 }];
      throw new Error(`unexpected ${sql}`);
    }),
  };
  return { runner: runner as unknown as QueryRunner, sent };
}

describe('MysqlMigrationLock', () => {
  it('takes a free lock at once, without waiting or logging', async () => {
    const { runner, sent } = fakeRunner({ getLock: [1] });
    const log = jest.fn();
    await new MysqlMigrationLock(runner, 'db.wp_checkout_migrations').acquire(300, { log });
    expect(sent).toEqual([['SELECT GET_LOCK(?, ?) AS acquired', ['db.wp_checkout_migrations', 0]]]);
    expect(log).not.toHaveBeenCalled();
  });

  it('waits for a held lock with the whole timeout, saying once who holds it', async () => {
    const { runner, sent } = fakeRunner({ getLock: [0, 1] });
    const log = jest.fn();
    await new MysqlMigrationLock(runner, 'db.wp_checkout_migrations').acquire(300, { log });
    expect(sent.filter(([sql]) => sql.startsWith('SELECT GET_LOCK')).map(([, parameters]) => parameters[1])).toEqual([0, 300]);
    expect(log).toHaveBeenCalledTimes(1);
    expect(log.mock.calls[0][0]).toContain('database connection 7 is applying migrations');
  });

  it('still waits where the server has no IS_USED_LOCK (older TiDB releases): the holder is just not named', async () => {
    const { runner } = fakeRunner({
      getLock: [0, 0],
      isUsedLock: () => {
        throw new Error('FUNCTION IS_USED_LOCK does not exist');
      },
    });
    const log = jest.fn();
    const error = await new MysqlMigrationLock(runner, 'db.wp_checkout_migrations').acquire(2, { log }).catch((caught: unknown) => caught);
    expect(log.mock.calls[0][0]).toContain('another connection is applying migrations');
    expect(error).toBeInstanceOf(MigrationLockTimeoutError);
    expect((error as Error).message).toContain('held by another connection');
  });

  it('refuses a NULL answer (the server failed to take the lock) instead of running unlocked', async () => {
    const { runner } = fakeRunner({ getLock: [null] });
    await expect(new MysqlMigrationLock(runner, 'x').acquire(1, { log: jest.fn() })).rejects.toThrow(/answered NULL/);
  });
});
