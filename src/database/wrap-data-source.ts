import type { DataSource, EntityManager, QueryRunner } from 'typeorm';

type Run = () => Promise<unknown>;

/** What wrapDataSource puts around a data source's work. */
export interface DataSourceWrapper {
  /** Around each `dataSource.transaction(…)` call; `run` is the original call. */
  transaction(run: Run): Promise<unknown>;
  /** Around each statement a query runner sends (`runner.query(…)`); `run` sends it. */
  query(runner: QueryRunner, run: Run): Promise<unknown>;
}

/**
 * Puts `wrapper` around every `dataSource.transaction(…)` and every statement of every query runner
 * the driver creates (each runner wrapped once, however often the driver hands it out): the one
 * way the SQLite access gate and the MySQL conflict retry hook into TypeORM. Call before
 * `initialize()`. Returns the unwrapped `transaction`, for a caller that must skip the wrapper.
 */
export function wrapDataSource(dataSource: DataSource, wrapper: DataSourceWrapper): EntityManager['transaction'] {
  const manager = dataSource.manager;
  const transaction = manager.transaction.bind(manager) as (...args: unknown[]) => Promise<unknown>;
  manager.transaction = ((...args: unknown[]) => wrapper.transaction(() => transaction(...args))) as EntityManager['transaction'];

  const wrapped = new WeakSet<QueryRunner>();
  const createQueryRunner = dataSource.driver.createQueryRunner.bind(dataSource.driver);
  dataSource.driver.createQueryRunner = (mode) => {
    const runner = createQueryRunner(mode);
    if (!wrapped.has(runner)) {
      wrapped.add(runner);
      const query = runner.query.bind(runner) as (...args: unknown[]) => Promise<unknown>;
      runner.query = ((...args: unknown[]) => wrapper.query(runner, () => query(...args))) as QueryRunner['query'];
    }
    return runner;
  };
  return transaction as EntityManager['transaction'];
}
