import type { EntityManager, QueryRunner } from 'typeorm';

/**
 * Fixed SQL for the hot paths (docs/benchmarks.md, recommendation 3): a statement text with `?`
 * placeholders run through the caller's EntityManager, so transactions and the SQLite access gate
 * (which wraps the query runner) apply exactly as they do to TypeORM's own statements. The
 * helpers below write and read values the way TypeORM's drivers do for the same column types.
 */
export type SqlDialect = 'sqlite' | 'mysql';

export function sqlDialect(manager: EntityManager): SqlDialect {
  const type = manager.connection.options.type;
  return type === 'mysql' || type === 'mariadb' ? 'mysql' : 'sqlite';
}

/**
 * Whether the driver has row locks (MySQL/MariaDB, and the MySQL-compatible TiDB and Vitess): a
 * row a locked decision depends on is read with `SELECT ... FOR UPDATE` there. It must be: a plain
 * read inside a transaction is a snapshot read (TiDB: of the transaction's start; InnoDB: of its
 * first plain read) and may miss a commit the transaction waited for. SQLite has no FOR UPDATE;
 * its access gate runs transactions one at a time, which is the row lock there
 * (sqlite-access-gate.ts).
 */
export function locksRows(manager: EntityManager): boolean {
  return sqlDialect(manager) === 'mysql';
}

/** The locking clause to append to a SELECT read inside a transaction: ` FOR UPDATE`, or nothing on SQLite (locksRows). */
export function forUpdate(manager: EntityManager): string {
  return locksRows(manager) ? ' FOR UPDATE' : '';
}

/**
 * One bound value as TypeORM would have written it:
 * - Date (datetime columns): SQLite stores TypeORM's UTC text `YYYY-MM-DD HH:mm:ss.SSS`
 *   (`DateUtils.mixedDateToUtcDatetimeString`); mysql2 writes a Date itself (timezone `Z`);
 * - safe integers on SQLite as BigInt, i.e. SQLite INTEGER, as the integer binding of the query
 *   builder does (sqlite-integer-parameters.ts); better-sqlite3 binds a JS number as REAL;
 * - booleans as 1/0 (neither driver's `query` takes them otherwise on SQLite);
 * - undefined as NULL: TypeORM left such a column out of its INSERT, which is NULL for the hot
 *   statements' columns (none has a default);
 * - strings and null as they are.
 */
export function sqlValue(dialect: SqlDialect, value: unknown): unknown {
  if (value === undefined || value === null) return null;
  if (typeof value === 'boolean') return value ? 1 : 0;
  if (dialect === 'mysql') return value;
  if (value instanceof Date) return sqliteDatetime(value);
  if (typeof value === 'number' && Number.isSafeInteger(value)) return BigInt(value);
  return value;
}

export function sqlValues(dialect: SqlDialect, values: readonly unknown[]): unknown[] {
  return values.map((value) => sqlValue(dialect, value));
}

/** A datetime column's value as TypeORM hydrates it (SQLite: its UTC text; MySQL: mysql2's Date). */
export function readDatetime(value: unknown): Date {
  if (value instanceof Date) return value;
  if (typeof value !== 'string') throw new TypeError(`not a datetime: ${String(value)}`);
  // AbstractSqliteDriver.prepareHydratedValue: space → T, no zone → Z.
  let text = /^\d\d\d\d-\d\d-\d\d \d\d:\d\d/.test(value) ? value.replace(' ', 'T') : value;
  if (/^\d\d\d\d-\d\d-\d\dT\d\d:\d\d(:\d\d(\.\d\d\d)?)?$/.test(text)) text += 'Z';
  return new Date(text);
}

export function readNullableDatetime(value: unknown): Date | null {
  return value === null || value === undefined ? null : readDatetime(value);
}

/** Rows of a SELECT. */
export async function selectRows<T>(manager: EntityManager, sql: string, values: readonly unknown[]): Promise<T[]> {
  return (await manager.query(sql, sqlValues(sqlDialect(manager), values))) as T[];
}

/**
 * Runs an INSERT/UPDATE/DELETE and returns the changed row count and the new row's id. Through a
 * query runner's structured result because `manager.query` returns only better-sqlite3's
 * `lastInsertRowid` on SQLite (no change count) and mysql2's ResultSetHeader on MySQL.
 */
export async function runStatement(manager: EntityManager, sql: string, values: readonly unknown[]): Promise<{ affected: number; insertId: number }> {
  const dialect = sqlDialect(manager);
  const own: QueryRunner | undefined = manager.queryRunner ? undefined : manager.connection.createQueryRunner();
  const runner = manager.queryRunner ?? own!;
  try {
    const result = await runner.query(sql, sqlValues(dialect, values), true);
    // SQLite: raw is lastInsertRowid (a number, or a BigInt in safe-integer mode); MySQL: the header.
    const insertId = dialect === 'mysql' ? (result.raw as { insertId: number }).insertId : result.raw;
    return { affected: result.affected ?? 0, insertId: Number(insertId) };
  } finally {
    if (own) await own.release();
  }
}

/**
 * TypeORM's SQLite text of a datetime (`DateUtils.mixedDateToUtcDatetimeString`): UTC,
 * `YYYY-MM-DD HH:mm:ss.SSS`, each field cut to its width as TypeORM does.
 */
export function sqliteDatetime(date: Date): string {
  const pad = (value: number, width = 2) => `${'0'.repeat(width)}${value}`.slice(-width);
  return (
    `${pad(date.getUTCFullYear(), 4)}-${pad(date.getUTCMonth() + 1)}-${pad(date.getUTCDate())} ` +
    `${pad(date.getUTCHours())}:${pad(date.getUTCMinutes())}:${pad(date.getUTCSeconds())}.${pad(date.getUTCMilliseconds(), 3)}`
  );
}
