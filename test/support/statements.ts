import type { DataSource } from 'typeorm';

/**
 * Every SQL statement the database driver runs while `work` runs, transaction starts and commits
 * included, in order: spied where the drivers send them (better-sqlite3's prepared statements,
 * mysql2's connections), below TypeORM's query runners, whose `query` the app wraps at boot.
 */
export async function statementsDuring<T>(dataSource: DataSource, work: () => Promise<T>): Promise<{ result: T; statements: string[] }> {
  const statements: string[] = [];
  const spies: jest.SpyInstance[] = [];
  if (dataSource.options.type === 'mysql') {
    const { Connection } = jest.requireActual<{ Connection: { prototype: object } }>('mysql2');
    let owner: object | null = Connection.prototype;
    while (owner && !Object.prototype.hasOwnProperty.call(owner, 'query')) owner = Object.getPrototypeOf(owner) as object | null;
    for (const name of ['query', 'execute'] as const) {
      const target = (owner && Object.prototype.hasOwnProperty.call(owner, name) ? owner : Connection.prototype) as Record<string, (...args: unknown[]) => unknown>;
      const original = target[name];
      spies.push(
        jest.spyOn(target, name).mockImplementation(function (this: unknown, ...args: unknown[]) {
          const sql = args[0];
          statements.push(typeof sql === 'string' ? sql : String((sql as { sql?: string }).sql));
          return original.apply(this, args);
        }),
      );
    }
  } else {
    const Database = jest.requireActual<new (path: string) => { prepare(sql: string): object; close(): void }>('better-sqlite3');
    const probe = new Database(':memory:');
    const statement = Object.getPrototypeOf(probe.prepare('select 1')) as Record<string, (...args: unknown[]) => unknown>;
    probe.close();
    for (const name of ['run', 'get', 'all', 'iterate'] as const) {
      const original = statement[name];
      spies.push(
        jest.spyOn(statement, name).mockImplementation(function (this: { source: string }, ...args: unknown[]) {
          statements.push(this.source);
          return original.apply(this, args);
        }),
      );
    }
  }
  try {
    const result = await work();
    return { result, statements };
  } finally {
    for (const spy of spies) spy.mockRestore();
  }
}
