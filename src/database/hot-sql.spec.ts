import { execFileSync } from 'node:child_process';
import { DataSource, DateUtils } from 'typeorm';
import { readDatetime, runStatement, selectRows, sqliteDatetime, sqlValue } from './hot-sql.js';
import { bindSqliteIntegerParameters } from './sqlite-integer-parameters.js';

const DATES = [
  new Date('2026-11-26T09:05:03.007Z'),
  new Date('2026-01-02T23:59:59.999Z'),
  new Date('2026-12-31T00:00:00.000Z'),
  new Date('0999-03-04T05:06:07.080Z'),
  new Date(Date.UTC(2026, 5, 7, 8, 9, 10, 90)),
];

describe('hot-sql values', () => {
  it('writes a datetime as TypeORM’s SQLite driver does', () => {
    for (const date of DATES) expect(sqliteDatetime(date)).toBe(DateUtils.mixedDateToUtcDatetimeString(date));
    expect(sqlValue('sqlite', DATES[0])).toBe('2026-11-26 09:05:03.007');
    expect(sqlValue('mysql', DATES[0])).toBe(DATES[0]);
  });

  it('reads back the datetime it wrote, and mysql2’s Date as it is', () => {
    for (const date of DATES) expect(readDatetime(sqliteDatetime(date))).toEqual(date);
    expect(readDatetime('2026-11-26T09:05:03.007Z')).toEqual(DATES[0]);
    expect(readDatetime(DATES[1])).toBe(DATES[1]);
    expect(() => readDatetime(42)).toThrow(TypeError);
  });

  it('reads SQLite’s text as UTC whatever the process time zone', () => {
    // Jest's process.env is the sandbox's own, so the function runs in a node process of another zone.
    const code = `const readDatetime = ${readDatetime.toString()};
      process.stdout.write(JSON.stringify([new Date(2026, 10, 26).getTimezoneOffset(), readDatetime('2026-11-26 09:05:03.007').toISOString()]));`;
    const [offset, read] = JSON.parse(execFileSync(process.execPath, ['-e', code], { env: { TZ: 'America/New_York' } }).toString()) as [number, string];
    expect(offset).toBe(300);
    expect(read).toBe('2026-11-26T09:05:03.007Z');
  });

  it('binds integers as SQLite INTEGER, booleans as 1/0, undefined as NULL', () => {
    expect(sqlValue('sqlite', 42)).toBe(42n);
    expect(sqlValue('sqlite', -7)).toBe(-7n);
    expect(sqlValue('sqlite', 1.5)).toBe(1.5);
    expect(sqlValue('sqlite', 2 ** 53 + 2)).toBe(2 ** 53 + 2);
    expect(sqlValue('mysql', 42)).toBe(42);
    expect(sqlValue('sqlite', true)).toBe(1);
    expect(sqlValue('mysql', false)).toBe(0);
    expect(sqlValue('sqlite', undefined)).toBeNull();
    expect(sqlValue('sqlite', null)).toBeNull();
    expect(sqlValue('sqlite', 'x')).toBe('x');
  });
});

/** Against the query builder on a real better-sqlite3 connection (MariaDB: test/e2e/hot-sql.e2e-spec.ts). */
describe('hot-sql statements on SQLite', () => {
  let dataSource: DataSource;
  beforeEach(async () => {
    dataSource = new DataSource({ type: 'better-sqlite3', database: ':memory:' });
    bindSqliteIntegerParameters(dataSource);
    await dataSource.initialize();
    await dataSource.query('CREATE TABLE t (id INTEGER PRIMARY KEY AUTOINCREMENT, n INTEGER, s TEXT, d DATETIME)');
  });
  afterEach(() => dataSource.destroy());

  const stored = (id: number) => dataSource.query('SELECT n, s, d, typeof(n) AS tn, typeof(s) AS ts, typeof(d) AS td FROM t WHERE id = ?', [id]);

  it('writes the same values and types as the query builder, and returns the new id', async () => {
    await dataSource.createQueryBuilder().insert().into('t').values({ n: 7, s: 'a', d: DateUtils.mixedDateToUtcDatetimeString(DATES[0]) }).execute();
    const first = await runStatement(dataSource.manager, 'INSERT INTO `t` (`n`, `s`, `d`) VALUES (?, ?, ?)', [7, 'a', DATES[0]]);
    const second = await runStatement(dataSource.manager, 'INSERT INTO `t` (`n`, `s`, `d`) VALUES (?, ?, ?)', [null, null, null]);
    // The table is new: the builder's row is id 1.
    expect(first).toEqual({ affected: 1, insertId: 2 });
    expect(second).toEqual({ affected: 1, insertId: first.insertId + 1 });
    expect(await stored(first.insertId)).toEqual(await stored(1));
    expect(await stored(first.insertId)).toEqual([{ n: 7, s: 'a', d: '2026-11-26 09:05:03.007', tn: 'integer', ts: 'text', td: 'text' }]);
    expect(await stored(second.insertId)).toEqual([{ n: null, s: null, d: null, tn: 'null', ts: 'null', td: 'null' }]);
  });

  it('counts the rows an UPDATE changed, inside and outside a transaction', async () => {
    await runStatement(dataSource.manager, 'INSERT INTO `t` (`n`) VALUES (?), (?), (?)', [1, 1, 2]);
    expect((await runStatement(dataSource.manager, 'UPDATE `t` SET `s` = ? WHERE `n` = ?', ['x', 1])).affected).toBe(2);
    expect((await runStatement(dataSource.manager, 'UPDATE `t` SET `s` = ? WHERE `n` = ?', ['x', 9])).affected).toBe(0);
    const inside = await dataSource.transaction((manager) => runStatement(manager, 'UPDATE `t` SET `s` = ? WHERE `n` = ?', ['y', 2]));
    expect(inside.affected).toBe(1);
    expect(await selectRows(dataSource.manager, 'SELECT `s` FROM `t` WHERE `n` = ? ORDER BY `id`', [1])).toEqual([{ s: 'x' }, { s: 'x' }]);
  });

  it('compares a bound datetime with a stored one as TypeORM’s text (claims that lapsed)', async () => {
    await runStatement(dataSource.manager, 'INSERT INTO `t` (`d`) VALUES (?)', [new Date('2026-11-26T10:00:00.000Z')]);
    expect(await selectRows(dataSource.manager, 'SELECT `id` FROM `t` WHERE `d` < ?', [new Date('2026-11-26T10:00:00.001Z')])).toHaveLength(1);
    expect(await selectRows(dataSource.manager, 'SELECT `id` FROM `t` WHERE `d` < ?', [new Date('2026-11-26T10:00:00.000Z')])).toHaveLength(0);
  });
});
