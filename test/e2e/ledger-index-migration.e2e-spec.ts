import type { DataSource } from 'typeorm';
import { loadConfig } from '../../src/config/index.js';
import { databaseKind } from '../../src/database/index.js';
import { CoverDashboardLedger1764340000000 } from '../../src/database/migrations/1764340000000-CoverDashboardLedger.js';
import { migratedPeerDatabase } from '../support/migrated-database.js';

/**
 * Migration 1764340000000 (issue 36): the ledger index the dashboard's sums are read from, on this
 * suite's database kind: there after the migrations, gone after its `down`, back after `up`; on
 * MySQL/MariaDB its `has_dispute` column says whether the row's `dispute` is set. That the
 * dashboard's statement reads only this index is tested beside it (administration-money).
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

  it('holds every column the ledger sums read, the dispute last; down removes it and up puts it back', async () => {
    const expected = ['created_at', 'mode', 'currency', 'status', 'amount_received', 'amount_refunded', 'application_fee_amount', onMysql ? 'has_dispute' : 'dispute'];
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

  (onMysql ? it : it.skip)('MySQL/MariaDB: has_dispute is 1 exactly when the payment has a dispute, through inserts and updates', async () => {
    const row = (nonce: string, dispute: string | null) =>
      dataSource.query(
        `INSERT INTO \`${table}\` (gateway, payment_method, mode, status, amount, currency, frequency, secret_nonce, created_at, updated_at, dispute) VALUES ('gateway_a', 'ccard', 'test', 'completed', 100, 'USD', 'one-time', ?, NOW(3), NOW(3), ?)`,
        [nonce, dispute],
      );
    await row('ledger-none', null);
    await row('ledger-disputed', '{"status":"lost"}');
    const flags = async () => Object.fromEntries(((await dataSource.query(`SELECT secret_nonce, has_dispute FROM \`${table}\` WHERE secret_nonce LIKE 'ledger-%'`)) as Array<{ secret_nonce: string; has_dispute: number }>).map((r) => [r.secret_nonce, Number(r.has_dispute)]));
    expect(await flags()).toEqual({ 'ledger-none': 0, 'ledger-disputed': 1 });
    await dataSource.query(`UPDATE \`${table}\` SET dispute = '{"status":"needs_response"}' WHERE secret_nonce = 'ledger-none'`);
    expect(await flags()).toEqual({ 'ledger-none': 1, 'ledger-disputed': 1 });
  });
});
