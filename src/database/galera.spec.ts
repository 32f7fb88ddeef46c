import type { DataSource } from 'typeorm';
import { databaseReadiness, isGalera } from './galera.js';

/** A MySQL-type data source whose server answers `query` as given. */
function fakeDataSource(answer: (sql: string) => unknown): { dataSource: DataSource; sent: string[] } {
  const sent: string[] = [];
  const dataSource = {
    options: { type: 'mysql' },
    query: jest.fn(async (sql: string) => {
      sent.push(sql);
      const value = answer(sql);
      if (value instanceof Error) throw value;
      return value;
    }),
  } as unknown as DataSource;
  return { dataSource, sent };
}

const galeraStatus = (ready: string, state: number, comment: string) => (sql: string) =>
  sql.startsWith('SHOW GLOBAL VARIABLES')
    ? [{ Variable_name: 'wsrep_on', Value: 'ON' }]
    : [
        { Variable_name: 'wsrep_local_state', Value: String(state) },
        { Variable_name: 'wsrep_local_state_comment', Value: comment },
        { Variable_name: 'wsrep_ready', Value: ready },
      ];

describe('Galera readiness', () => {
  it('is SELECT 1 on a server without wsrep (MySQL, TiDB, plain MariaDB)', async () => {
    const { dataSource, sent } = fakeDataSource((sql) => (sql.startsWith('SHOW GLOBAL VARIABLES') ? [{ Variable_name: 'wsrep_on', Value: 'OFF' }] : [{ 1: 1 }]));
    expect(await databaseReadiness(dataSource)).toEqual({ ready: true });
    expect(sent).toEqual(["SHOW GLOBAL VARIABLES LIKE 'wsrep_on'", 'SELECT 1']);
  });

  it('reads the node status variables without a causal wait, ready only when Synced and wsrep_ready', async () => {
    const synced = fakeDataSource(galeraStatus('ON', 4, 'Synced'));
    expect(await databaseReadiness(synced.dataSource)).toEqual({ ready: true });
    expect(synced.sent[1]).toMatch(/^SET STATEMENT wsrep_sync_wait = 0 FOR SHOW GLOBAL STATUS/);

    const isolated = fakeDataSource(galeraStatus('OFF', 0, 'Initialized'));
    expect(await databaseReadiness(isolated.dataSource)).toEqual({ ready: false, reason: 'the Galera node is Initialized (wsrep_ready OFF)' });

    const donor = fakeDataSource(galeraStatus('ON', 2, 'Donor/Desynced'));
    expect((await databaseReadiness(donor.dataSource)).ready).toBe(false);
  });

  it('is not ready when the server does not answer, and asks whether it is Galera again next time', async () => {
    let down = true;
    const { dataSource } = fakeDataSource((sql) => (down ? new Error('connect ECONNREFUSED') : galeraStatus('ON', 4, 'Synced')(sql)));
    expect(await databaseReadiness(dataSource)).toEqual({ ready: false });
    down = false;
    expect(await isGalera(dataSource)).toBe(true);
    expect(await databaseReadiness(dataSource)).toEqual({ ready: true });
  });

  it('never asks SQLite', async () => {
    const dataSource = { options: { type: 'better-sqlite3' }, query: jest.fn() } as unknown as DataSource;
    expect(await isGalera(dataSource)).toBe(false);
    expect(dataSource.query).not.toHaveBeenCalled();
  });
});
