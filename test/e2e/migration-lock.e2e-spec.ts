import { hostname } from 'node:os';
import { DataSource } from 'typeorm';
import { loadConfig } from '../../src/config/index.js';
import { buildDataSourceOptions, databaseKind } from '../../src/database/index.js';
import { MigrationLockTimeoutError, MysqlMigrationLock, mysqlMigrationLockName, SQLITE_LOCK_TTL_MS } from '../../src/database/migration-lock.js';
import { MIGRATIONS } from '../../src/database/migrations/index.js';
import { migrationLockFor, runMigrations } from '../../src/database/run-migrations.js';
import { peerDatabaseUrl } from '../support/peer-database.js';
import { sharedDatabaseUrl } from '../support/shared-database.js';

/**
 * The migration lock itself, on this suite's database kind (MariaDB: GET_LOCK on a sibling
 * database, or the cluster's lock row on a Galera node; SQLite: the lock row in a file database). The processes-level proof (instances
 * booting together) is test/e2e/concurrent-boot and the multi-instance suite.
 */
const onMysql = databaseKind(loadConfig({ DATABASE_URL: process.env.DATABASE_URL })) === 'mysql';

async function freshDatabaseUrl(): Promise<string> {
  if (!onMysql) return sharedDatabaseUrl();
  const url = await peerDatabaseUrl('lock');
  const dataSource = new DataSource(buildDataSourceOptions(loadConfig({ DATABASE_URL: url })));
  await dataSource.initialize();
  await dataSource.dropDatabase();
  await dataSource.destroy();
  return url;
}

describe('migration lock', () => {
  let databaseUrl: string;
  const open: DataSource[] = [];
  const connect = async () => {
    const dataSource = new DataSource(buildDataSourceOptions(loadConfig({ DATABASE_URL: databaseUrl })));
    await dataSource.initialize();
    open.push(dataSource);
    return dataSource;
  };
  /** Holds the lock from another connection, as an instance in the middle of its migrations would. */
  const holdLock = async () => {
    const dataSource = await connect();
    const runner = dataSource.createQueryRunner();
    await runner.connect();
    const lock = (await migrationLockFor(dataSource, runner))!;
    await lock.acquire(5, { log: () => undefined });
    return {
      lock,
      release: async () => {
        await lock.release();
        await runner.release();
      },
    };
  };
  const appliedIn = async (dataSource: DataSource): Promise<string[]> => {
    const table = `${dataSource.options.entityPrefix}checkout_migrations`;
    if (!(await dataSource.createQueryRunner().hasTable(table))) return [];
    const rows: Array<{ name: string }> = await dataSource.query(`SELECT name FROM ${table} ORDER BY id`);
    return rows.map((row) => row.name);
  };

  beforeEach(async () => {
    databaseUrl = await freshDatabaseUrl();
  });
  afterEach(async () => {
    for (const dataSource of open.splice(0)) await dataSource.destroy();
  });

  it('makes a second runner wait, saying so once at info level, and then find nothing pending', async () => {
    const holder = await holdLock();
    const messages: string[] = [];
    const waiting = runMigrations(await connect(), { lockTimeoutSeconds: 30, logger: { log: (message) => messages.push(message) } });
    await new Promise((resolve) => setTimeout(resolve, 600));
    expect(messages).toEqual([expect.stringMatching(/^Waiting up to 30 s for the migration lock .* is applying migrations\.$/)]);

    // The holder applies everything meanwhile, as the first instance of a deploy would.
    const first = await connect();
    const executor = await import('typeorm').then(({ MigrationExecutor }) => new MigrationExecutor(first));
    executor.transaction = 'each';
    expect(await executor.executePendingMigrations()).toHaveLength(MIGRATIONS.length);
    await holder.release();

    expect(await waiting).toEqual([]);
    expect(messages).toHaveLength(1);
    expect(await appliedIn(first)).toEqual(MIGRATIONS.map((migration) => migration.name));
  });

  it('applies the migrations itself once the holder lets go without applying them', async () => {
    const holder = await holdLock();
    const waiting = runMigrations(await connect(), { lockTimeoutSeconds: 30, logger: { log: () => undefined } });
    await new Promise((resolve) => setTimeout(resolve, 300));
    await holder.release();
    expect(await waiting).toEqual(MIGRATIONS.map((migration) => migration.name));
  });

  it('gives up after the timeout with a boot error naming the lock and its holder, and applies nothing', async () => {
    const holder = await holdLock();
    const dataSource = await connect();
    const started = Date.now();
    const error = await runMigrations(dataSource, { lockTimeoutSeconds: 1, logger: { log: () => undefined } }).catch((caught: unknown) => caught);
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
    expect(error).toBeInstanceOf(MigrationLockTimeoutError);
    const message = (error as Error).message;
    expect(message).toContain('waited 1 s for the migration lock');
    expect(message).toContain(holder.lock.description);
    // GET_LOCK names the server's connection; the lock rows (SQLite, and MariaDB on a Galera node) the process.
    expect(message).toMatch(holder.lock instanceof MysqlMigrationLock ? /held by database connection \d+/ : new RegExp(`held by process ${process.pid} on `));
    expect(message).toContain('MIGRATION_LOCK_TIMEOUT_SECONDS');
    expect(await appliedIn(dataSource)).toEqual([]);
    await holder.release();
  });

  it('is released after the migrations, also when one fails', async () => {
    const dataSource = await connect();
    const broken = MIGRATIONS[0].prototype;
    const spy = jest.spyOn(broken, 'up').mockRejectedValueOnce(new Error('migration failed'));
    const typeormLog = jest.spyOn(console, 'log').mockImplementation(() => undefined); // TypeORM prints the failure
    await expect(runMigrations(dataSource, { lockTimeoutSeconds: 5, logger: { log: () => undefined } })).rejects.toThrow('migration failed');
    spy.mockRestore();
    typeormLog.mockRestore();
    // Free again at once: the next runner neither waits nor times out.
    const messages: string[] = [];
    expect(await runMigrations(await connect(), { lockTimeoutSeconds: 1, logger: { log: (message) => messages.push(message) } })).toHaveLength(MIGRATIONS.length);
    expect(messages.filter((message) => message.startsWith('Waiting'))).toEqual([]);
  });

  (onMysql ? it : it.skip)('GET_LOCK names are per database and TABLE_PREFIX, and never longer than MySQL allows', () => {
    expect(mysqlMigrationLockName('checkout', 'wp_')).toBe('checkout.wp_checkout_migrations');
    expect(mysqlMigrationLockName('checkout', 'shop_')).not.toBe(mysqlMigrationLockName('checkout', 'wp_'));
    expect(mysqlMigrationLockName('other', 'wp_')).not.toBe(mysqlMigrationLockName('checkout', 'wp_'));
    const long = mysqlMigrationLockName('d'.repeat(64), 'p'.repeat(20));
    expect(long.length).toBeLessThanOrEqual(64);
    expect(long).not.toBe(mysqlMigrationLockName('d'.repeat(64), 'q'.repeat(20)));
  });

  describe('SQLite lock row', () => {
    if (onMysql) {
      it.skip('(SQLite only)', () => undefined);
      return;
    }
    const table = 'wp_checkout_migration_lock';
    /** Leaves a lock row as a process that is no longer there (or elsewhere) would have. */
    const plantRow = async (owner: string, expiresAt: number) => {
      const dataSource = await connect();
      const holder = await holdLock(); // creates the table
      await holder.release();
      await dataSource.query(`INSERT INTO ${table} (name, owner, acquired_at, expires_at) VALUES ('migrations', ?, ?, ?)`, [owner, Date.now(), expiresAt]);
    };
    const deadPid = 2 ** 22 + 17; // above Linux's pid_max default range: no such process

    it('takes over the row of a process on this host that is gone', async () => {
      await plantRow(`${hostname()}:${deadPid}:0badc0de`, Date.now() + 60_000);
      expect(await runMigrations(await connect(), { lockTimeoutSeconds: 2, logger: { log: () => undefined } })).toHaveLength(MIGRATIONS.length);
    });

    it('takes over a row left by an earlier process with this pid (a restarted container)', async () => {
      await plantRow(`${hostname()}:${process.pid}:0badc0de`, Date.now() + 60_000);
      expect(await runMigrations(await connect(), { lockTimeoutSeconds: 2, logger: { log: () => undefined } })).toHaveLength(MIGRATIONS.length);
    });

    it('respects a live process on this host and a fresh heartbeat from another host', async () => {
      await plantRow(`${hostname()}:${process.ppid}:0badc0de`, Date.now() - 1);
      await expect(runMigrations(await connect(), { lockTimeoutSeconds: 1, logger: { log: () => undefined } })).rejects.toThrow(MigrationLockTimeoutError);
      const dataSource = await connect();
      await dataSource.query(`UPDATE ${table} SET owner = 'elsewhere.example:42:0badc0de', expires_at = ?`, [Date.now() + SQLITE_LOCK_TTL_MS]);
      await expect(runMigrations(dataSource, { lockTimeoutSeconds: 1, logger: { log: () => undefined } })).rejects.toThrow(/held by process 42 on elsewhere\.example/);
    });

    it('takes over a row from another host whose heartbeat stopped', async () => {
      await plantRow('elsewhere.example:42:0badc0de', Date.now() - 1);
      expect(await runMigrations(await connect(), { lockTimeoutSeconds: 2, logger: { log: () => undefined } })).toHaveLength(MIGRATIONS.length);
    });
  });
});
