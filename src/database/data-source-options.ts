import { dirname, join, resolve } from 'node:path';
import type { DataSourceOptions } from 'typeorm';
import { ensurePrivateDir, ensurePrivateFile, restrictToOwner } from '../common/storage/index.js';
import type { AppConfig } from '../config/index.js';
import { MIGRATIONS } from './migrations/index.js';

export type DatabaseKind = 'sqlite' | 'mysql';

export function databaseKind(config: Pick<AppConfig, 'databaseUrl'>): DatabaseKind {
  return config.databaseUrl && /^(mysql|mariadb):/.test(config.databaseUrl) ? 'mysql' : 'sqlite';
}

/**
 * The one TypeORM options builder, shared by the app and the migration CLI (ormconfig.ts).
 * No DATABASE_URL: embedded SQLite under dataDir. `sqlite:<path>` or `sqlite::memory:` picks
 * another SQLite file. `mysql://` / `mariadb://`: MySQL or MariaDB through mysql2.
 */
export function buildDataSourceOptions(
  config: Pick<AppConfig, 'databaseUrl' | 'dataDir' | 'tablePrefix'>,
): DataSourceOptions {
  const common = {
    entityPrefix: config.tablePrefix,
    migrations: MIGRATIONS,
    migrationsTableName: `${config.tablePrefix}checkout_migrations`,
    // Never at initialize(): runMigrations applies them under a database lock (run-migrations.ts).
    migrationsRun: false,
    migrationsTransactionMode: 'each' as const,
    synchronize: false,
    logging: false,
  };
  if (databaseKind(config) === 'mysql') {
    const url = new URL(config.databaseUrl!.replace(/^mariadb:/, 'mysql:'));
    return {
      ...common,
      type: 'mysql',
      host: url.hostname,
      port: url.port ? Number(url.port) : 3306,
      username: decodeURIComponent(url.username),
      password: decodeURIComponent(url.password),
      database: url.pathname.replace(/^\//, ''),
      charset: 'utf8mb4_unicode_ci',
      timezone: 'Z',
      dateStrings: false,
      supportBigNumbers: true,
      bigNumberStrings: false,
      poolSize: 10,
      connectTimeout: 5000,
      // mysql2's "long stack traces": with `trace` on (its default) every query captures a stack
      // (Error.captureStackTrace) to graft the caller onto a failure's stack: 4 % of a MariaDB
      // payment/status in the profile, for every query, to improve the stack of the rare failing
      // one. A failure still names the statement and the driver's error (TypeORM's QueryFailedError).
      trace: false,
      // TypeORM sends every statement with `query` (never `execute`), so mysql2's per-connection
      // prepared-statement LRU stays empty; its default size (16,000) preallocates about 0.5 MB of
      // slots per pooled connection for nothing (docs/benchmarks.md, RSS after load).
      extra: { maxPreparedStatements: 16 },
    };
  }
  const database = sqlitePath(config);
  if (database !== ':memory:') {
    // The file holds PII, sealed secrets and password hashes: create it 0600 before SQLite opens
    // it (SQLite gives its -wal, -shm and -journal files the database file's mode).
    ensurePrivateDir(dirname(database));
    ensurePrivateFile(database);
    restrictCompanions(database);
  }
  return {
    ...common,
    type: 'better-sqlite3',
    database,
    // WAL lets readers run while a payment transition writes; busy_timeout waits instead of failing.
    prepareDatabase: (db: { pragma(source: string): unknown }) => {
      if (database !== ':memory:') {
        db.pragma('journal_mode = WAL');
        restrictCompanions(database);
      }
      db.pragma('busy_timeout = 5000');
    },
  };
}

/** SQLite's companion files, left from a run before the 0600 rule, narrowed to 0600 too. */
function restrictCompanions(database: string): void {
  for (const suffix of ['-wal', '-shm', '-journal']) restrictToOwner(`${database}${suffix}`);
}

function sqlitePath(config: Pick<AppConfig, 'databaseUrl' | 'dataDir'>): string {
  if (!config.databaseUrl) return resolve(join(config.dataDir, 'checkout.sqlite'));
  const path = config.databaseUrl.replace(/^sqlite:(\/\/)?/, '');
  return path === ':memory:' ? path : resolve(path);
}
