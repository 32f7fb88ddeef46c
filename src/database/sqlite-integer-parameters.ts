import type { DataSource } from 'typeorm';

type Escape = (sql: string, parameters: Record<string, unknown>, nativeParameters: Record<string, unknown>) => [string, unknown[]];

/**
 * TypeORM's SQLite drivers write every number parameter into the SQL text (`WHERE "id" = 42`), so
 * each payment id makes a new statement text: better-sqlite3 prepares it anew and TypeORM's
 * statement cache churns (docs/benchmarks.md: one prepare per write request). This passes safe
 * integers as bound parameters instead. They are bound as BigInt, i.e. as SQLite INTEGER values:
 * exactly what the integer literal in the text was (a JS number would bind as REAL, which compares
 * differently with TEXT columns). Other numbers (fractions, beyond 2^53) stay in the text as before.
 */
export function bindSqliteIntegerParameters(dataSource: DataSource): void {
  const driver = dataSource.driver as unknown as { escapeQueryWithParameters: Escape };
  const escape = driver.escapeQueryWithParameters.bind(driver) as Escape;
  driver.escapeQueryWithParameters = (sql, parameters, nativeParameters) => {
    let bound: Record<string, unknown> | undefined;
    if (parameters) {
      for (const key of Object.keys(parameters)) {
        const value = parameters[key];
        if (typeof value === 'number' && Number.isSafeInteger(value)) (bound ??= { ...parameters })[key] = BigInt(value);
      }
    }
    return escape(sql, bound ?? parameters, nativeParameters);
  };
}
