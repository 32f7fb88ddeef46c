import { DataSource } from 'typeorm';
import { bindSqliteIntegerParameters } from './sqlite-integer-parameters.js';

/** The same query builder calls on a connection with and without the binding give the same rows. */
describe('bindSqliteIntegerParameters', () => {
  const open = async (bind: boolean) => {
    const dataSource = new DataSource({ type: 'better-sqlite3', database: ':memory:' });
    if (bind) bindSqliteIntegerParameters(dataSource);
    await dataSource.initialize();
    await dataSource.query('CREATE TABLE t (id INTEGER PRIMARY KEY, n INTEGER, r REAL, s TEXT, v)');
    return dataSource;
  };
  let plain: DataSource;
  let bound: DataSource;
  beforeEach(async () => {
    [plain, bound] = await Promise.all([open(false), open(true)]);
  });
  afterEach(() => Promise.all([plain.destroy(), bound.destroy()]));

  /** Each statement the driver prepares, with its parameters. */
  const capture = (dataSource: DataSource) => {
    const seen: Array<{ sql: string; parameters: unknown[] }> = [];
    const runner = dataSource.createQueryRunner();
    const query = runner.query.bind(runner);
    runner.query = ((sql: string, parameters?: unknown[], structured?: boolean) => {
      seen.push({ sql, parameters: parameters ?? [] });
      return query(sql, parameters, structured as true);
    }) as typeof runner.query;
    return { seen, manager: runner.manager, release: () => runner.release() };
  };

  const scenario = async (dataSource: DataSource) => {
    const { seen, manager, release } = capture(dataSource);
    try {
      const insert = (values: Record<string, unknown>) => manager.createQueryBuilder().insert().into('t').values(values).execute();
      await insert({ id: 1, n: 7, r: 7, s: 7, v: 7 });
      await insert({ id: 2, n: -3, r: 1.5, s: '7', v: 2 ** 53 + 2 });
      await insert({ id: 3, n: 0, r: 0, s: '7.0', v: 1e21 });
      const select = (where: string, parameters: Record<string, unknown>) =>
        manager.createQueryBuilder().select(['id', 'n', 'r', 's', 'v', 'typeof(n) AS tn', 'typeof(r) AS tr', 'typeof(s) AS ts', 'typeof(v) AS tv']).from('t', 't').where(where, parameters).orderBy('id').getRawMany();
      const rows = {
        all: await select('1 = 1', {}),
        byId: await select('id = :id', { id: 2 }),
        textEqualsInteger: await select('s = :s', { s: 7 }),
        negative: await select('n = :n', { n: -3 }),
        fraction: await select('r = :r', { r: 1.5 }),
        zero: await select('r = :r', { r: 0 }),
        updated: await manager.createQueryBuilder().update('t').set({ n: 42 }).where('id = :id', { id: 3 }).execute().then((result) => result.affected),
        afterUpdate: await select('n = :n', { n: 42 }),
        deleted: await manager.createQueryBuilder().delete().from('t').where('id = :id', { id: 1 }).execute().then((result) => result.affected),
        remaining: await select('1 = 1', {}),
      };
      return { rows, seen };
    } finally {
      await release();
    }
  };

  it('returns and writes exactly what the numbers written into the SQL text did', async () => {
    const [before, after] = await Promise.all([scenario(plain), scenario(bound)]);
    expect(after.rows).toEqual(before.rows);
    // The cases that would differ if integers were bound as JS numbers (REAL): a TEXT column
    // compared with 7 matches only '7', and an INTEGER column keeps INTEGER values.
    expect(before.rows.textEqualsInteger.map((row: { id: number }) => row.id)).toEqual([1, 2]);
    expect(before.rows.all.map((row: { tn: string }) => row.tn)).toEqual(['integer', 'integer', 'integer']);
  });

  it('binds safe integers instead of writing them into the text, so one statement text serves every id', async () => {
    const { seen } = await scenario(bound);
    const byId = seen.filter((statement) => /WHERE id = /.test(statement.sql) && statement.sql.startsWith('SELECT'));
    expect(byId.map((statement) => statement.sql)).toEqual([expect.stringContaining('WHERE id = ?')]);
    expect(byId[0].parameters).toEqual([2n]);
    const { seen: plainSeen } = await scenario(plain); // fresh connections per test: same rows as above
    expect(plainSeen.some((statement) => /WHERE id = 2\b/.test(statement.sql))).toBe(true);
    // Fractions and integers beyond 2^53 stay in the text, as before.
    expect(seen.some((statement) => /r = 1\.5/.test(statement.sql))).toBe(true);
  });
});
