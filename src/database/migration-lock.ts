import { createHash, randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { QueryRunner } from 'typeorm';
import { BootError } from '../common/errors/index.js';
import { isDuplicateKeyError } from './errors.js';
import { isRetryableTransactionError } from './transaction-retry.js';

/** What the migration runner reports while it waits (a Nest Logger or the console). */
export interface MigrationLogger {
  log(message: string): void;
}

/** Instances (and `npm run migration:run`) take turns applying migrations to one database. */
export interface MigrationLock {
  /** Human-readable name of the lock, for logs and errors. */
  readonly description: string;
  /** Waits up to `timeoutSeconds` for the lock; MigrationLockTimeoutError when it does not come. */
  acquire(timeoutSeconds: number, logger: MigrationLogger): Promise<void>;
  release(): Promise<void>;
}

/** The boot waited for the migration lock longer than MIGRATION_LOCK_TIMEOUT_SECONDS. */
export class MigrationLockTimeoutError extends BootError {
  constructor(lock: string, holder: string, timeoutSeconds: number) {
    super(
      `Refusing to start: this process waited ${timeoutSeconds} s for the migration lock ${lock}, held by ${holder}. ` +
        'Another instance (or `npm run migration:run`) is still applying migrations to this database, or is stuck doing so. ' +
        'Let it finish, or stop it, then start again; MIGRATION_LOCK_TIMEOUT_SECONDS sets how long to wait.',
    );
    this.name = 'MigrationLockTimeoutError';
  }
}

/** MySQL/MariaDB lock names are server-wide and at most 64 characters. */
const MYSQL_LOCK_NAME_MAX = 64;

/**
 * The user-level lock name of one database's migrations: its migrations table, qualified by the
 * database (GET_LOCK names are server-wide, so two databases on one server do not wait for each
 * other, nor do two TABLE_PREFIXes in one database). Hashed when longer than the 64 characters
 * MySQL allows.
 */
export function mysqlMigrationLockName(database: string, tablePrefix: string): string {
  const name = `${database}.${tablePrefix}checkout_migrations`;
  if (name.length <= MYSQL_LOCK_NAME_MAX) return name;
  return `checkout_migrations:${createHash('sha256').update(`${database}\0${tablePrefix}`).digest('hex').slice(0, 40)}`;
}

/** How long one GET_LOCK call waits at most while the lock is held elsewhere. */
export const MYSQL_LOCK_SLICE_SECONDS = 2;
/** How often a waiting process says it still waits. */
export const MIGRATION_LOCK_PROGRESS_SECONDS = 30;

/**
 * MySQL/MariaDB (and the MySQL-compatible TiDB and Vitess): `GET_LOCK` on the connection that runs
 * the migrations. The server holds the lock until RELEASE_LOCK or until that connection ends, so
 * an instance killed mid-migration never leaves a stale lock behind.
 *
 * A waiting process asks again and again in short slices (GET_LOCK with a timeout of
 * MYSQL_LOCK_SLICE_SECONDS) until MIGRATION_LOCK_TIMEOUT_SECONDS have passed, instead of one call
 * with the whole timeout: TiDB clamps a GET_LOCK timeout to 1..3600 s (a first try of 0 waits 1 s
 * there), a statement that blocks for minutes is cut by proxies and by Vitess' query timeouts,
 * and the process can say every MIGRATION_LOCK_PROGRESS_SECONDS that it still waits.
 */
export class MysqlMigrationLock implements MigrationLock {
  readonly description: string;

  constructor(
    private readonly runner: QueryRunner,
    private readonly name: string,
    private readonly now: () => number = Date.now,
  ) {
    this.description = `"${name}" (MySQL/MariaDB GET_LOCK)`;
  }

  async acquire(timeoutSeconds: number, logger: MigrationLogger): Promise<void> {
    const startedAt = this.now();
    if (await this.getLock(0)) return;
    logger.log(waitingMessage(this.description, timeoutSeconds, await this.holder()));
    const giveUpAt = startedAt + timeoutSeconds * 1000;
    let nextProgressAt = startedAt + MIGRATION_LOCK_PROGRESS_SECONDS * 1000;
    for (;;) {
      const remainingMs = giveUpAt - this.now();
      if (remainingMs <= 0) break;
      // GET_LOCK takes whole seconds here (TiDB's minimum is 1 s): the last slice may end up to a second late.
      if (await this.getLock(Math.min(MYSQL_LOCK_SLICE_SECONDS, Math.ceil(remainingMs / 1000)))) return;
      if (this.now() >= nextProgressAt && this.now() < giveUpAt) {
        nextProgressAt += MIGRATION_LOCK_PROGRESS_SECONDS * 1000;
        logger.log(stillWaitingMessage(this.description, this.now() - startedAt, timeoutSeconds, await this.holder()));
      }
    }
    throw new MigrationLockTimeoutError(this.description, await this.holder(), timeoutSeconds);
  }

  async release(): Promise<void> {
    await this.runner.query('SELECT RELEASE_LOCK(?) AS released', [this.name]);
  }

  private async getLock(timeoutSeconds: number): Promise<boolean> {
    const [row] = (await this.runner.query('SELECT GET_LOCK(?, ?) AS acquired', [this.name, timeoutSeconds])) as Array<{ acquired: number | string | null }>;
    if (row?.acquired === null || row?.acquired === undefined) {
      throw new Error(`GET_LOCK(${this.description}) failed (the server answered NULL: out of memory or the connection was killed)`);
    }
    return Number(row.acquired) === 1;
  }

  /** For the log and the error only: some MySQL-compatible servers lack IS_USED_LOCK (older TiDB releases). */
  private async holder(): Promise<string> {
    try {
      const [row] = (await this.runner.query('SELECT IS_USED_LOCK(?) AS holder', [this.name])) as Array<{ holder: number | string | null }>;
      return row?.holder === null || row?.holder === undefined ? 'another connection' : `database connection ${row.holder}`;
    } catch {
      return 'another connection';
    }
  }
}

/** How long a Galera lock row stays valid without its holder's heartbeat. */
export const CLUSTER_LOCK_LEASE_SECONDS = 60;
const CLUSTER_HEARTBEAT_MS = 5_000;
const CLUSTER_POLL_MS = 500;
const CLUSTER_LOCK_NAME = 'migrations';

/** The statements ClusterMigrationLock sends (autocommit each: the pool's connections, not the migrating one). */
interface ClusterLockDatabase {
  query(sql: string, parameters?: unknown[]): Promise<unknown>;
}

/**
 * MariaDB Galera Cluster (`wsrep_on` = ON): GET_LOCK is local to the node that grants it, so three
 * instances on three nodes would each take "the" lock and migrate together. The lock is a row in
 * `{prefix}checkout_migration_lock` instead (name, holder, acquired_at, expires_at: the lease),
 * which the cluster replicates like any row:
 *
 * - taking it is one statement, its own transaction, certified by the whole cluster: an INSERT of
 *   the row, or, when the row's lease has run out (its holder died), a conditional UPDATE of it.
 *   Two nodes racing for it cannot both commit: the loser gets a duplicate key or a certification
 *   failure, or its UPDATE matches nothing;
 * - the holder renews the lease every 5 s on another pooled connection (the migrating one is busy
 *   with DDL) and deletes the row when done. A holder killed mid-migration leaves the row, which
 *   the next process takes over once the lease (CLUSTER_LOCK_LEASE_SECONDS, on the database's clock)
 *   has lapsed. The lease is long because a DDL, replicated in total order, holds back every
 *   commit on the cluster (the renewals included) while it runs.
 *
 * The table is created when missing (CREATE TABLE IF NOT EXISTS, replicated in total order too),
 * before any migration, so it is not one.
 */
export class ClusterMigrationLock implements MigrationLock {
  readonly description: string;
  readonly holder = `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  private heartbeat?: NodeJS.Timeout;

  constructor(
    private readonly database: ClusterLockDatabase,
    private readonly table: string,
    private readonly now: () => number = Date.now,
    private readonly pollMs = CLUSTER_POLL_MS,
  ) {
    this.description = `"${CLUSTER_LOCK_NAME}" (row of the table ${table}, for a Galera cluster)`;
  }

  async acquire(timeoutSeconds: number, logger: MigrationLogger): Promise<void> {
    await this.database.query(
      `CREATE TABLE IF NOT EXISTS ${this.quoted} (name varchar(50) NOT NULL PRIMARY KEY, holder varchar(300) NOT NULL, ` +
        'acquired_at datetime(3) NOT NULL, expires_at datetime(3) NOT NULL) ENGINE=InnoDB',
    );
    // Jitter: waiters on several nodes do not all ask in the same instant.
    await pollForLock({ description: this.description, now: this.now, tryAcquire: () => this.tryAcquire(), pauseMs: () => this.pollMs * (0.5 + Math.random()), progress: true }, timeoutSeconds, logger);
    this.heartbeat = heartbeat(() => this.renew(), CLUSTER_HEARTBEAT_MS);
  }

  async release(): Promise<void> {
    clearInterval(this.heartbeat);
    await this.database.query(`DELETE FROM ${this.quoted} WHERE name = ? AND holder = ?`, [CLUSTER_LOCK_NAME, this.holder]);
  }

  private get quoted(): string {
    return `\`${this.table}\``;
  }

  /** null when this process now holds the lock, otherwise the current holder. */
  private async tryAcquire(): Promise<string | null> {
    try {
      await this.database.query(
        `INSERT INTO ${this.quoted} (name, holder, acquired_at, expires_at) VALUES (?, ?, UTC_TIMESTAMP(3), UTC_TIMESTAMP(3) + INTERVAL ? SECOND)`,
        [CLUSTER_LOCK_NAME, this.holder, CLUSTER_LOCK_LEASE_SECONDS],
      );
      return null;
    } catch (error) {
      // The row exists (held, or left by a dead holder), or another node's insert won certification.
      if (!isDuplicateKeyError(error) && !isRetryableTransactionError(error)) throw error;
    }
    const taken = (await this.database.query(
      `UPDATE ${this.quoted} SET holder = ?, acquired_at = UTC_TIMESTAMP(3), expires_at = UTC_TIMESTAMP(3) + INTERVAL ? SECOND WHERE name = ? AND expires_at < UTC_TIMESTAMP(3)`,
      [this.holder, CLUSTER_LOCK_LEASE_SECONDS, CLUSTER_LOCK_NAME],
    ).catch((error: unknown) => {
      if (isRetryableTransactionError(error)) return { affectedRows: 0 };
      throw error;
    })) as { affectedRows?: number };
    if ((taken?.affectedRows ?? 0) > 0) return null;
    const rows = (await this.database.query(`SELECT holder FROM ${this.quoted} WHERE name = ?`, [CLUSTER_LOCK_NAME])) as Array<{ holder: string }>;
    return rows[0]?.holder ?? 'another process';
  }

  private async renew(): Promise<void> {
    await this.database.query(`UPDATE ${this.quoted} SET expires_at = UTC_TIMESTAMP(3) + INTERVAL ? SECOND WHERE name = ? AND holder = ?`, [
      CLUSTER_LOCK_LEASE_SECONDS,
      CLUSTER_LOCK_NAME,
      this.holder,
    ]);
  }
}

/** How long a SQLite lock row held from another host stays valid without a heartbeat. */
export const SQLITE_LOCK_TTL_MS = 30_000;
const SQLITE_HEARTBEAT_MS = 5_000;
const SQLITE_POLL_MS = 250;
const SQLITE_LOCK_NAME = 'migrations';
/** Lock rows this process holds (several data sources of one process, as in tests, are separate owners). */
const heldByThisProcess = new Set<string>();

interface LockRow {
  owner: string;
  acquired_at: number | string;
  expires_at: number | string;
}

/**
 * SQLite: a lock row in `{prefix}checkout_migration_lock`, a table created when missing (before
 * any migration, so it is not one). Taking the lock is one atomic statement (an insert that does
 * nothing when the row exists, or a compare-and-swap update of a stale row), then a read-back of
 * the owner; SQLite serialises writers on the file, so two processes never both win. The holder
 * refreshes the row every few seconds. A row is stale when its process is gone: on this host, its
 * pid is not running (or is this process's pid without being one of its holders: an earlier
 * process that had the same pid); from another host, its heartbeat stopped for SQLITE_LOCK_TTL_MS.
 * Waiting is a poll that logs once and never an error.
 */
export class SqliteMigrationLock implements MigrationLock {
  readonly description: string;
  private readonly owner = `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  private heartbeat?: NodeJS.Timeout;

  constructor(
    private readonly runner: QueryRunner,
    private readonly table: string,
    private readonly now: () => number = Date.now,
  ) {
    this.description = `"${SQLITE_LOCK_NAME}" (row of the SQLite table ${table})`;
  }

  async acquire(timeoutSeconds: number, logger: MigrationLogger): Promise<void> {
    await this.ensureTable();
    await pollForLock({ description: this.description, now: this.now, tryAcquire: () => this.tryAcquire(), pauseMs: () => SQLITE_POLL_MS, progress: false }, timeoutSeconds, logger);
    heldByThisProcess.add(this.owner);
    this.heartbeat = heartbeat(() => this.refresh(), SQLITE_HEARTBEAT_MS);
  }

  async release(): Promise<void> {
    clearInterval(this.heartbeat);
    heldByThisProcess.delete(this.owner);
    await this.runner.query(`DELETE FROM ${this.quoted} WHERE name = ? AND owner = ?`, [SQLITE_LOCK_NAME, this.owner]);
  }

  private get quoted(): string {
    return `"${this.table}"`;
  }

  private async ensureTable(): Promise<void> {
    const found = (await this.runner.query(`SELECT name FROM sqlite_master WHERE type = 'table' AND name = ?`, [this.table])) as unknown[];
    if (found.length) return;
    await this.withBusyRetry(() =>
      this.runner.query(
        `CREATE TABLE IF NOT EXISTS ${this.quoted} (name varchar(50) PRIMARY KEY NOT NULL, owner varchar(300) NOT NULL, acquired_at integer NOT NULL, expires_at integer NOT NULL)`,
      ),
    );
  }

  /** null when this process now holds the lock, otherwise the current holder. */
  private async tryAcquire(): Promise<string | null> {
    const now = this.now();
    const expires = now + SQLITE_LOCK_TTL_MS;
    const current = await this.read();
    try {
      if (!current) {
        await this.runner.query(`INSERT INTO ${this.quoted} (name, owner, acquired_at, expires_at) VALUES (?, ?, ?, ?) ON CONFLICT (name) DO NOTHING`, [
          SQLITE_LOCK_NAME,
          this.owner,
          now,
          expires,
        ]);
      } else if (current.owner !== this.owner && this.isStale(current, now)) {
        await this.runner.query(`UPDATE ${this.quoted} SET owner = ?, acquired_at = ?, expires_at = ? WHERE name = ? AND owner = ?`, [
          this.owner,
          now,
          expires,
          SQLITE_LOCK_NAME,
          current.owner,
        ]);
      }
    } catch (error) {
      // Another process is writing to the file right now (e.g. applying a migration): try again.
      if (!isSqliteBusy(error)) throw error;
    }
    const after = await this.read();
    return after?.owner === this.owner ? null : (after?.owner ?? current?.owner ?? 'another process');
  }

  private async refresh(): Promise<void> {
    await this.runner.query(`UPDATE ${this.quoted} SET expires_at = ? WHERE name = ? AND owner = ?`, [this.now() + SQLITE_LOCK_TTL_MS, SQLITE_LOCK_NAME, this.owner]);
  }

  private async read(): Promise<LockRow | null> {
    const rows = (await this.runner.query(`SELECT owner, acquired_at, expires_at FROM ${this.quoted} WHERE name = ?`, [SQLITE_LOCK_NAME])) as LockRow[];
    return rows[0] ?? null;
  }

  private isStale(row: LockRow, now: number): boolean {
    const owner = parseOwner(row.owner);
    if (owner && owner.host === hostname()) {
      // Our own pid: held by another data source of this process, or left by an earlier process
      // that had the same pid (a container's pid 1 after a restart).
      return owner.pid === process.pid ? !heldByThisProcess.has(row.owner) : !isRunning(owner.pid);
    }
    return Number(row.expires_at) < now;
  }

  private async withBusyRetry<T>(work: () => Promise<T>): Promise<T> {
    for (let attempt = 1; ; attempt += 1) {
      try {
        return await work();
      } catch (error) {
        if (!isSqliteBusy(error) || attempt >= 20) throw error;
        await new Promise((resolve) => setTimeout(resolve, SQLITE_POLL_MS));
      }
    }
  }
}

/** How a lock kept in a row is asked for, again and again, until it comes. */
interface LockPoll {
  description: string;
  now: () => number;
  /** null when this process now holds the lock, otherwise the current holder. */
  tryAcquire(): Promise<string | null>;
  /** How long to wait before the next try. */
  pauseMs(): number;
  /** Whether to say every MIGRATION_LOCK_PROGRESS_SECONDS that it still waits (besides the first time). */
  progress: boolean;
}

/**
 * Tries until this process holds the lock; says once that it waits (and, with `progress`, again
 * every MIGRATION_LOCK_PROGRESS_SECONDS). MigrationLockTimeoutError once `timeoutSeconds` have passed.
 */
async function pollForLock(poll: LockPoll, timeoutSeconds: number, logger: MigrationLogger): Promise<void> {
  const startedAt = poll.now();
  const giveUpAt = startedAt + timeoutSeconds * 1000;
  let nextProgressAt = startedAt + MIGRATION_LOCK_PROGRESS_SECONDS * 1000;
  let announced = false;
  for (;;) {
    const holder = await poll.tryAcquire();
    if (holder === null) return;
    if (poll.now() >= giveUpAt) throw new MigrationLockTimeoutError(poll.description, describeOwner(holder), timeoutSeconds);
    if (!announced) {
      announced = true;
      logger.log(waitingMessage(poll.description, timeoutSeconds, describeOwner(holder)));
    } else if (poll.progress && poll.now() >= nextProgressAt) {
      nextProgressAt += MIGRATION_LOCK_PROGRESS_SECONDS * 1000;
      logger.log(stillWaitingMessage(poll.description, poll.now() - startedAt, timeoutSeconds, describeOwner(holder)));
    }
    await new Promise((resolve) => setTimeout(resolve, poll.pauseMs()));
  }
}

function waitingMessage(lock: string, timeoutSeconds: number, holder: string): string {
  return `Waiting up to ${timeoutSeconds} s for the migration lock ${lock}: ${holder} is applying migrations.`;
}

function stillWaitingMessage(lock: string, waitedMs: number, timeoutSeconds: number, holder: string): string {
  return `Still waiting for the migration lock ${lock} (${Math.round(waitedMs / 1000)} s of ${timeoutSeconds} s): ${holder} holds it.`;
}

/** Runs `renew` every `everyMs` while the lock is held (a failed renewal waits for the next one); does not keep the process alive. */
function heartbeat(renew: () => Promise<void>, everyMs: number): NodeJS.Timeout {
  const timer = setInterval(() => void renew().catch(() => undefined), everyMs);
  timer.unref();
  return timer;
}

function parseOwner(owner: string): { host: string; pid: number } | null {
  const match = /^(.*):(\d+):[0-9a-f]{8}$/.exec(owner);
  return match ? { host: match[1], pid: Number(match[2]) } : null;
}

function describeOwner(owner: string): string {
  const parsed = parseOwner(owner);
  return parsed ? `process ${parsed.pid} on ${parsed.host}` : `"${owner}"`;
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function isSqliteBusy(error: unknown): boolean {
  const code = (error as { driverError?: { code?: string }; code?: string }).driverError?.code ?? (error as { code?: string }).code ?? '';
  return code === 'SQLITE_BUSY' || code === 'SQLITE_LOCKED' || code.startsWith('SQLITE_BUSY_');
}
