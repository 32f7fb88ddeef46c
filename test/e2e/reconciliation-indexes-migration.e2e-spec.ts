import type { DataSource } from 'typeorm';
import { loadConfig } from '../../src/config/index.js';
import { databaseKind } from '../../src/database/index.js';
import { IndexReconciliationSweeps1764330000000 } from '../../src/database/migrations/1764330000000-IndexReconciliationSweeps.js';
import { migratedPeerDatabase } from '../support/migrated-database.js';

/**
 * Migration 1764330000000 (issue 36): the indexes of gateway B's reconciliation reads, on this
 * suite's database kind: there after the migrations, gone after its `down`, back after `up`; and
 * on SQLite the sweeps' statements read them (MariaDB's plan on a nearly empty table says nothing:
 * docs/benchmarks.md has its plans at size).
 */
const onMysql = databaseKind(loadConfig({ DATABASE_URL: process.env.DATABASE_URL })) === 'mysql';

describe('migration: the reconciliation sweeps\' indexes', () => {
  let dataSource: DataSource;
  let table: string;

  beforeAll(async () => {
    ({ dataSource, payments: table } = await migratedPeerDatabase('sweeps'));
  });
  afterAll(() => dataSource?.destroy());

  /** The payments table's indexes: name → columns in order. */
  const indexes = async (): Promise<Record<string, string[]>> => {
    const found: Record<string, string[]> = {};
    if (onMysql) {
      const rows = (await dataSource.query(`SHOW INDEX FROM \`${table}\``)) as Array<{ Key_name: string; Column_name: string; Seq_in_index: number }>;
      for (const row of [...rows].sort((a, b) => Number(a.Seq_in_index) - Number(b.Seq_in_index))) (found[row.Key_name] ??= []).push(row.Column_name);
      return found;
    }
    for (const { name } of (await dataSource.query(`PRAGMA index_list("${table}")`)) as Array<{ name: string }>) {
      found[name] = ((await dataSource.query(`PRAGMA index_info("${name}")`)) as Array<{ name: string }>).map((column) => column.name);
    }
    return found;
  };

  it('adds (gateway, status, created_at) and (gateway, refund_reserved); down removes them and up puts them back', async () => {
    const expected = {
      [`IDX_${table}_gateway_status_created`]: ['gateway', 'status', 'created_at'],
      [`IDX_${table}_gateway_refund_reserved`]: ['gateway', 'refund_reserved'],
    };
    expect(await indexes()).toMatchObject(expected);
    // The waiting sweep's index, which it relies on (migration 1764116300000).
    expect((await indexes())[`IDX_${table}_status_created`]).toEqual(['status', 'created_at']);

    const migration = new IndexReconciliationSweeps1764330000000();
    const runner = dataSource.createQueryRunner();
    try {
      await migration.down(runner);
      const without = await indexes();
      for (const name of Object.keys(expected)) expect(without).not.toHaveProperty(name);
      await migration.up(runner);
    } finally {
      await runner.release();
    }
    expect(await indexes()).toMatchObject(expected);
  });

  (onMysql ? it.skip : it)('SQLite: the sweeps read their window as an index range in their order (no sort of the window)', async () => {
    const plan = async (sql: string) => ((await dataSource.query(`EXPLAIN QUERY PLAN ${sql}`)) as Array<{ detail: string }>).map((row) => row.detail).join(' | ');
    const at = '2026-01-01 00:00:00.000';
    expect(
      await plan(`SELECT id FROM "${table}" WHERE status = 'pending' AND provider_payment_ref IS NOT NULL AND updated_at < '${at}' AND created_at >= '${at}' AND (created_at > '${at}' OR (created_at = '${at}' AND id > 5)) ORDER BY created_at ASC, id ASC LIMIT 50`),
    ).toBe(`SEARCH ${table} USING INDEX IDX_${table}_status_created (status=? AND created_at>?)`);
    expect(await plan(`SELECT id FROM "${table}" WHERE status = 'completed' AND gateway = 'gateway_b' AND provider_capture_ref IS NOT NULL AND created_at >= '${at}' ORDER BY created_at ASC, id ASC LIMIT 20`)).toBe(
      `SEARCH ${table} USING INDEX IDX_${table}_gateway_status_created (gateway=? AND status=? AND created_at>?)`,
    );
    expect(await plan(`SELECT id FROM "${table}" WHERE gateway = 'gateway_b' AND status = 'completed' AND provider_capture_ref IS NOT NULL AND refund_reserved > 0 ORDER BY id ASC LIMIT 20`)).toMatch(
      new RegExp(`^SEARCH ${table} USING INDEX IDX_${table}_gateway_refund_reserved \\(gateway=\\? AND refund_reserved>\\?\\)`),
    );
  });
});
