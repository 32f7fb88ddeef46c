import { AsyncLocalStorage } from 'node:async_hooks';
import type { DataSource } from 'typeorm';
import { wrapDataSource } from './wrap-data-source.js';

/**
 * SQLite (better-sqlite3) gives TypeORM one connection for the whole process. Without care, two
 * concurrent `transaction()` calls nest as savepoints of each other, and a plain query issued by
 * another request while a transaction is open runs inside it (and is lost if that transaction
 * rolls back). The gate makes the one connection behave like a pool of one:
 *
 * - transactions run one at a time, in arrival order;
 * - a query from outside the running transaction waits until that transaction has ended;
 * - work inside a transaction (the same async context) is never blocked, so nested
 *   `transaction()` calls become savepoints of their own transaction as TypeORM intends.
 *
 * MySQL/MariaDB need none of this: TypeORM gives each transaction its own pooled connection.
 *
 * The context is an AsyncLocalStorage, which on Node 20 runs V8 promise hooks for every promise
 * in the process while it is enabled (docs/benchmarks.md: 7–18 % of a database route's CPU). So it
 * is enabled only while a transaction runs or waits (`run` enables it) and disabled when the last
 * one ends: reads between transactions pay nothing. A disabled context answers `undefined`, which
 * is "outside any transaction" — and no transaction is running then.
 */
export class SqliteAccessGate {
  private readonly context = new AsyncLocalStorage<symbol>();
  private tail: Promise<void> = Promise.resolve();
  private current: { token: symbol; ended: Promise<void> } | null = null;
  private queriesInFlight = 0;
  private idle: Promise<void> = Promise.resolve();
  private markIdle: () => void = () => undefined;
  /** Transactions that have entered `exclusive` and not yet ended (running or waiting their turn). */
  private transactions = 0;

  /** Runs `work` as the only transaction on the connection. */
  async exclusive<T>(work: () => Promise<T>): Promise<T> {
    if (this.current && this.context.getStore() === this.current.token) return work();
    let release!: () => void;
    const ended = new Promise<void>((resolve) => (release = resolve));
    const previous = this.tail;
    this.tail = previous.then(() => ended);
    this.transactions++;
    try {
      await previous;
      while (this.queriesInFlight > 0) await this.idle;
      const token = Symbol('sqlite-transaction');
      this.current = { token, ended };
      return await this.context.run(token, work);
    } finally {
      this.current = null;
      release();
      if (--this.transactions === 0) this.context.disable();
    }
  }

  /** Whether the async context is on (for tests: it must be off when no transaction runs or waits). */
  get contextEnabled(): boolean {
    return (this.context as unknown as { enabled?: boolean }).enabled === true;
  }

  /** Runs one query, after the running transaction if the query does not belong to it. */
  async query<T>(run: () => Promise<T>): Promise<T> {
    while (this.current && this.context.getStore() !== this.current.token) await this.current.ended;
    if (this.queriesInFlight++ === 0) this.idle = new Promise<void>((resolve) => (this.markIdle = resolve));
    try {
      return await run();
    } finally {
      if (--this.queriesInFlight === 0) this.markIdle();
    }
  }
}

/** Puts a better-sqlite3 DataSource behind a SqliteAccessGate; call before `initialize()`. */
export function installSqliteAccessGate(dataSource: DataSource): SqliteAccessGate {
  const gate = new SqliteAccessGate();
  wrapDataSource(dataSource, { transaction: (run) => gate.exclusive(run), query: (_runner, run) => gate.query(run) });
  return gate;
}
