import { DataSource } from 'typeorm';
import { installSqliteAccessGate, type SqliteAccessGate } from './sqlite-access-gate.js';

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('SqliteAccessGate on one better-sqlite3 connection', () => {
  let dataSource: DataSource;
  let gate: SqliteAccessGate;

  beforeEach(async () => {
    dataSource = new DataSource({ type: 'better-sqlite3', database: ':memory:' });
    gate = installSqliteAccessGate(dataSource);
    await dataSource.initialize();
    await dataSource.query('CREATE TABLE counter (id INTEGER PRIMARY KEY, value INTEGER NOT NULL)');
    await dataSource.query('CREATE TABLE notes (text TEXT NOT NULL)');
    await dataSource.query('INSERT INTO counter (id, value) VALUES (1, 0)');
  });
  afterEach(() => dataSource.destroy());

  it('keeps a write from another request out of a transaction that rolls back', async () => {
    const failing = dataSource
      .transaction(async (manager) => {
        await manager.query("INSERT INTO notes (text) VALUES ('inside')");
        await pause(20);
        throw new Error('rolled back');
      })
      .catch((error: Error) => error.message);
    await pause(5);
    await dataSource.query("INSERT INTO notes (text) VALUES ('outside')");
    expect(await failing).toBe('rolled back');
    expect(await dataSource.query('SELECT text FROM notes')).toEqual([{ text: 'outside' }]);
  });

  it('runs concurrent read-modify-write transactions one after the other', async () => {
    await Promise.all(
      Array.from({ length: 10 }, () =>
        dataSource.transaction(async (manager) => {
          const [{ value }] = await manager.query('SELECT value FROM counter WHERE id = 1');
          await pause(2);
          await manager.query('UPDATE counter SET value = ? WHERE id = 1', [value + 1]);
        }),
      ),
    );
    expect(await dataSource.query('SELECT value FROM counter WHERE id = 1')).toEqual([{ value: 10 }]);
  });

  it('lets a transaction nest its own transaction and plain queries without deadlock', async () => {
    await dataSource.transaction(async () => {
      await dataSource.query("INSERT INTO notes (text) VALUES ('same context')");
      await dataSource.transaction(async (inner) => inner.query("INSERT INTO notes (text) VALUES ('nested')"));
    });
    expect(await dataSource.query('SELECT text FROM notes ORDER BY text')).toEqual([{ text: 'nested' }, { text: 'same context' }]);
  });

  // The context costs every promise of the process while it is on (Node 20 promise hooks), so it
  // must be off whenever no transaction runs or waits, and still work for the next transaction.
  it('turns its async context off when the last transaction ends, and on again for the next', async () => {
    expect(gate.contextEnabled).toBe(false);
    let seenInside = false;
    await Promise.all([
      dataSource.transaction(async () => {
        seenInside = gate.contextEnabled;
        await pause(5);
      }),
      dataSource.transaction(async () => pause(1)),
      dataSource.transaction(async () => Promise.reject(new Error('rolled back'))).catch(() => undefined),
    ]);
    expect(seenInside).toBe(true);
    expect(gate.contextEnabled).toBe(false);

    // After being switched off, a new transaction still recognises its own plain and nested queries.
    await dataSource.transaction(async () => {
      await dataSource.query("INSERT INTO notes (text) VALUES ('second round')");
      await dataSource.transaction(async (inner) => inner.query("INSERT INTO notes (text) VALUES ('second nested')"));
    });
    expect(gate.contextEnabled).toBe(false);
    expect(await dataSource.query('SELECT text FROM notes ORDER BY text')).toEqual([{ text: 'second nested' }, { text: 'second round' }]);
  });
});
