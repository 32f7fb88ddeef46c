import type { DataSource } from 'typeorm';
import { loadConfig } from '../../src/config/index.js';
import { databaseKind } from '../../src/database/index.js';
import { CoverDashboardLedger1764340000000 } from '../../src/database/migrations/1764340000000-CoverDashboardLedger.js';
import { migratedPeerDatabase } from '../support/migrated-database.js';

/**
 * Migration 1764340000000 (issue 36): the ledger index the dashboard's sums are read from, on this
 * suite's database kind: on SQLite there after the migrations, gone after its `down`, back after
 * `up`; on MySQL/MariaDB never made (the migration says why). That the dashboard's statement reads
 * only this index is tested beside it (administration-money).
 */
const onMysql = databaseKind(loadConfig({ DATABASE_URL: process.env.DATABASE_URL })) === 'mysql';

describe('migration: the dashboard ledger index', () => {
  let dataSource: DataSource;
  let table: string;

  beforeAll(async () => {
    ({ dataSource, payments: table } = await migratedPeerDatabase('ledger'));
  });
  afterAll(() => dataSource?.destroy());

  const ledgerIndex = async (): Promise<string[] | undefined> => {
    if (onMysql) {
      const rows = (await dataSource.query(`SHOW INDEX FROM \`${table}\` WHERE Key_name = ?`, [`IDX_${table}_ledger`])) as Array<{ Column_name: string; Seq_in_index: number }>;
      return rows.length === 0 ? undefined : [...rows].sort((a, b) => Number(a.Seq_in_index) - Number(b.Seq_in_index)).map((row) => row.Column_name);
    }
    const listed = ((await dataSource.query(`PRAGMA index_list("${table}")`)) as Array<{ name: string }>).some((index) => index.name === `IDX_${table}_ledger`);
    return listed ? ((await dataSource.query(`PRAGMA index_info("IDX_${table}_ledger")`)) as Array<{ name: string }>).map((column) => column.name) : undefined;
  };

  it('SQLite: holds every column the ledger sums read, the dispute last; down removes it and up puts it back. MySQL/MariaDB: no index', async () => {
    const expected = onMysql ? undefined : ['created_at', 'mode', 'currency', 'status', 'amount_received', 'amount_refunded', 'application_fee_amount', 'dispute'];
    expect(await ledgerIndex()).toEqual(expected);
    const migration = new CoverDashboardLedger1764340000000();
    const runner = dataSource.createQueryRunner();
    try {
      await migration.down(runner);
      expect(await ledgerIndex()).toBeUndefined();
      await migration.up(runner);
    } finally {
      await runner.release();
    }
    expect(await ledgerIndex()).toEqual(expected);
  });
});
