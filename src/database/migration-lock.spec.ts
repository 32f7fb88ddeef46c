import { type QueryRunner, QueryFailedError } from 'typeorm';
import { ClusterMigrationLock, MigrationLockTimeoutError, MYSQL_LOCK_SLICE_SECONDS, MysqlMigrationLock } from './migration-lock.js';

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

  /** A clock that moves on by each GET_LOCK's timeout, as a server that kept the lock busy would. */
  function waitingClock(sent: Array<[string, unknown[]]>) {
    let now = 1_000_000;
    let seen = 0;
    return () => {
      for (; seen < sent.length; seen += 1) {
        const [sql, parameters] = sent[seen];
        if (sql.startsWith('SELECT GET_LOCK')) now += Number(parameters[1]) * 1000;
      }
      return now;
    };
  }

  it('waits for a held lock in short GET_LOCK slices, saying once who holds it', async () => {
    const { runner, sent } = fakeRunner({ getLock: [0, 0, 0, 1] });
    const log = jest.fn();
    await new MysqlMigrationLock(runner, 'db.wp_checkout_migrations', waitingClock(sent)).acquire(300, { log });
    expect(sent.filter(([sql]) => sql.startsWith('SELECT GET_LOCK')).map(([, parameters]) => parameters[1])).toEqual([0, MYSQL_LOCK_SLICE_SECONDS, MYSQL_LOCK_SLICE_SECONDS, MYSQL_LOCK_SLICE_SECONDS]);
    expect(log).toHaveBeenCalledTimes(1);
    expect(log.mock.calls[0][0]).toContain('Waiting up to 300 s');
    expect(log.mock.calls[0][0]).toContain('database connection 7 is applying migrations');
  });

  it('says every 30 s that it still waits, and gives up after the timeout with the last slice cut to what is left', async () => {
    const { runner, sent } = fakeRunner({ getLock: new Array<number>(60).fill(0) });
    const log = jest.fn();
    const error = await new MysqlMigrationLock(runner, 'x', waitingClock(sent)).acquire(65, { log }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(MigrationLockTimeoutError);
    expect((error as Error).message).toContain('waited 65 s');
    const timeouts = sent.filter(([sql]) => sql.startsWith('SELECT GET_LOCK')).map(([, parameters]) => Number(parameters[1]));
    expect(timeouts[0]).toBe(0);
    expect(timeouts.slice(1).every((seconds) => seconds >= 1 && seconds <= MYSQL_LOCK_SLICE_SECONDS)).toBe(true);
    expect(timeouts.reduce((sum, seconds) => sum + seconds, 0)).toBe(65);
    expect(log.mock.calls.map(([message]) => String(message))).toEqual([
      expect.stringMatching(/^Waiting up to 65 s/),
      expect.stringMatching(/^Still waiting for the migration lock "x" \(MySQL\/MariaDB GET_LOCK\)/),
      expect.stringMatching(/^Still waiting for the migration lock "x" \(MySQL\/MariaDB GET_LOCK\)/),
    ]);
    expect(log.mock.calls[1][0]).toContain('(30 s of 65 s): database connection 7 holds it.');
    expect(log.mock.calls[2][0]).toContain('(60 s of 65 s)');
  });

  it('still waits where the server has no IS_USED_LOCK (older TiDB releases): the holder is just not named', async () => {
    const { runner, sent } = fakeRunner({
      getLock: [0, 0],
      isUsedLock: () => {
        throw new Error('FUNCTION IS_USED_LOCK does not exist');
      },
    });
    const log = jest.fn();
    const error = await new MysqlMigrationLock(runner, 'db.wp_checkout_migrations', waitingClock(sent)).acquire(2, { log }).catch((caught: unknown) => caught);
    expect(log.mock.calls[0][0]).toContain('another connection is applying migrations');
    expect(error).toBeInstanceOf(MigrationLockTimeoutError);
    expect((error as Error).message).toContain('held by another connection');
  });

  it('refuses a NULL answer (the server failed to take the lock) instead of running unlocked', async () => {
    const { runner } = fakeRunner({ getLock: [null] });
    await expect(new MysqlMigrationLock(runner, 'x').acquire(1, { log: jest.fn() })).rejects.toThrow(/answered NULL/);
  });
});

describe('ClusterMigrationLock (Galera)', () => {
  /** A cluster holding one lock row: statements answered as MariaDB would, in order. */
  function fakeCluster(row: { holder: string } | null, options: { insertFails?: 'dup' | 'conflict'; expired?: boolean } = {}) {
    const sent: string[] = [];
    const state = { row };
    const database = {
      query: jest.fn(async (sql: string, parameters: unknown[] = []) => {
        sent.push(sql.split(' ').slice(0, 3).join(' '));
        if (sql.startsWith('CREATE TABLE')) return {};
        if (sql.startsWith('INSERT')) {
          if (state.row || options.insertFails) {
            const errno = options.insertFails === 'conflict' ? 1213 : 1062;
            throw new QueryFailedError(sql, parameters, Object.assign(new Error('refused'), { errno, code: errno === 1062 ? 'ER_DUP_ENTRY' : 'ER_LOCK_DEADLOCK' }));
          }
          state.row = { holder: String(parameters[1]) };
          return { affectedRows: 1 };
        }
        if (sql.startsWith('UPDATE') && sql.includes('expires_at < UTC_TIMESTAMP')) {
          if (!options.expired) return { affectedRows: 0 };
          state.row = { holder: String(parameters[0]) };
          return { affectedRows: 1 };
        }
        if (sql.startsWith('SELECT holder')) return state.row ? [state.row] : [];
        if (sql.startsWith('DELETE')) {
          if (state.row?.holder === parameters[1]) state.row = null;
          return { affectedRows: 1 };
        }
        throw new Error(`unexpected ${sql}`);
      }),
    };
    return { database, sent, state };
  }

  it('takes a free lock with one insert, and deletes its row on release', async () => {
    const { database, sent, state } = fakeCluster(null);
    const lock = new ClusterMigrationLock(database, 'wp_checkout_migration_lock');
    await lock.acquire(5, { log: jest.fn() });
    expect(sent).toEqual(['CREATE TABLE IF', 'INSERT INTO `wp_checkout_migration_lock`']);
    expect(state.row).toEqual({ holder: lock.holder });
    await lock.release();
    expect(state.row).toBeNull();
  });

  it('takes over a row whose lease has lapsed (its holder died)', async () => {
    const { database, state } = fakeCluster({ holder: 'elsewhere.example:42:0123abcd' }, { expired: true });
    const lock = new ClusterMigrationLock(database, 'wp_checkout_migration_lock');
    await lock.acquire(5, { log: jest.fn() });
    expect(state.row).toEqual({ holder: lock.holder });
    await lock.release();
  });

  it('waits while another node holds it (saying so once), and gives up with the holder named', async () => {
    const { database } = fakeCluster({ holder: 'elsewhere.example:42:0123abcd' }, { insertFails: 'conflict' });
    let now = 0;
    const log = jest.fn();
    const lock = new ClusterMigrationLock(database, 'wp_checkout_migration_lock', () => (now += 400), 1);
    const error = await lock.acquire(3, { log }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(MigrationLockTimeoutError);
    expect((error as Error).message).toContain('held by process 42 on elsewhere.example');
    expect(log).toHaveBeenCalledTimes(1);
    expect(log.mock.calls[0][0]).toContain('Waiting up to 3 s');
  });
});
