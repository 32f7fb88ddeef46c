import { type DataSource, MigrationExecutor, type QueryRunner } from 'typeorm';
import { isGalera } from './galera.js';
import { ClusterMigrationLock, type MigrationLock, type MigrationLogger, MysqlMigrationLock, mysqlMigrationLockName, SqliteMigrationLock } from './migration-lock.js';

export interface RunMigrationsOptions {
  /** How long to wait for another process's migrations (MIGRATION_LOCK_TIMEOUT_SECONDS). */
  lockTimeoutSeconds: number;
  logger: MigrationLogger;
}

/**
 * The one way migrations are applied, at boot (DatabaseModule) and by `npm run migration:run`:
 * under a database lock, on the connection that holds it, so that instances booting together
 * apply each migration exactly once. The others wait (logged once, at info level), then find
 * nothing pending. Returns the names of the migrations this call applied.
 */
export async function runMigrations(dataSource: DataSource, options: RunMigrationsOptions): Promise<string[]> {
  const runner = dataSource.createQueryRunner();
  try {
    await runner.connect();
    const lock = await migrationLockFor(dataSource, runner);
    await lock?.acquire(options.lockTimeoutSeconds, options.logger);
    try {
      const executor = new MigrationExecutor(dataSource, runner);
      executor.transaction = dataSource.options.migrationsTransactionMode ?? 'each';
      const applied = (await executor.executePendingMigrations()).map((migration) => migration.name);
      if (applied.length) options.logger.log(`Applied ${applied.length} migration(s): ${applied.join(', ')}`);
      return applied;
    } finally {
      await lock?.release().catch(() => discardConnection(runner));
    }
  } finally {
    await runner.release();
  }
}

/**
 * The lock for this data source's database; none for a private in-memory SQLite database. A
 * Galera node (`wsrep_on`) gets a lock row, since GET_LOCK there holds on one node only.
 */
export async function migrationLockFor(dataSource: DataSource, runner: QueryRunner): Promise<MigrationLock | null> {
  const options = dataSource.options;
  const prefix = options.entityPrefix ?? '';
  if (options.type === 'mysql' || options.type === 'mariadb') {
    if (await isGalera(dataSource)) return new ClusterMigrationLock(dataSource, `${prefix}checkout_migration_lock`);
    return new MysqlMigrationLock(runner, mysqlMigrationLockName(String(options.database ?? ''), prefix));
  }
  if (options.type === 'better-sqlite3') {
    return options.database === ':memory:' ? null : new SqliteMigrationLock(runner, `${prefix}checkout_migration_lock`);
  }
  throw new Error(`Migrations under a lock are not implemented for the ${options.type} driver`);
}

/**
 * RELEASE_LOCK failed: the connection may still hold the lock. It must not go back to the pool,
 * where it would keep every later boot waiting; closing it frees the lock on the server.
 */
function discardConnection(runner: QueryRunner): void {
  const connection = (runner as unknown as { databaseConnection?: { destroy?: () => void } }).databaseConnection;
  if (runner.connection.options.type === 'mysql' || runner.connection.options.type === 'mariadb') connection?.destroy?.();
}
