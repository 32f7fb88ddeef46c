import { DataSource, MigrationExecutor } from 'typeorm';
import { loadConfig } from '../../src/config/index.js';
import { buildDataSourceOptions, databaseKind } from '../../src/database/index.js';
import { MIGRATIONS } from '../../src/database/migrations/index.js';
import { peerDatabaseUrl } from '../support/peer-database.js';
import { sharedDatabaseUrl } from '../support/shared-database.js';

/**
 * Migration 1764300000000 (issue 36): the search terms table, and the terms of the payments that
 * existed before it, written in batches outside one transaction (a million payments' terms in one
 * Galera write-set would pass its size limit). On this suite's database kind.
 */
/** Where migration 1764300000000 is in the list: the ones before it run first. */
const TERMS_AT = MIGRATIONS.findIndex((migration) => migration.name === 'CreatePaymentSearchTerms1764300000000');
const onMysql = databaseKind(loadConfig({ DATABASE_URL: process.env.DATABASE_URL })) === 'mysql';

describe('migration: payment search terms backfill', () => {
  let dataSource: DataSource;

  beforeAll(async () => {
    // SQLite: a file, which the second data source (all migrations) opens again.
    const url = onMysql ? await peerDatabaseUrl('terms') : sharedDatabaseUrl();
    const options = buildDataSourceOptions(loadConfig({ DATABASE_URL: url }));
    dataSource = new DataSource({ ...options, migrations: MIGRATIONS.slice(0, TERMS_AT) });
    await dataSource.initialize();
    if (onMysql) {
      await dataSource.dropDatabase();
      await dataSource.destroy();
      dataSource = new DataSource({ ...options, migrations: MIGRATIONS.slice(0, TERMS_AT) });
      await dataSource.initialize();
    }
    const before = new MigrationExecutor(dataSource);
    before.transaction = 'each';
    await before.executePendingMigrations();
  });
  afterAll(() => dataSource?.destroy());

  it('writes the terms of every existing payment, more than one batch of them, and the search index finds them', async () => {
    const table = `${dataSource.options.entityPrefix ?? ''}checkout_payments`;
    const count = 1_203;
    const columns = 'gateway, payment_method, mode, status, amount, currency, frequency, secret_nonce, custom_fields, created_at, updated_at, email_address, first_name, last_name, provider_payment_ref';
    for (let start = 0; start < count; start += 400) {
      const rows = Array.from({ length: Math.min(400, count - start) }, (_, index) => start + index);
      await dataSource.query(
        `INSERT INTO ${table} (${columns}) VALUES ${rows.map(() => '(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)').join(', ')}`,
        rows.flatMap((n) => {
          const at = onMysql ? new Date(Date.UTC(2026, 0, 1) + n * 1000) : new Date(Date.UTC(2026, 0, 1) + n * 1000).toISOString().replace('T', ' ').replace('Z', '');
          return ['gateway_a', 'ccard', 'test', 'completed', 100, 'USD', 'one-time', `n${String(n).padStart(42, '0')}`, '{}', at, at, n === 7 ? 'Ada@Example.com' : `payer${n}@example.com`, n === 7 ? 'Zoë' : 'Pat', n % 2 ? 'Müller-Lüdenscheidt' : null, n % 3 ? `pi_backfill_${n}` : null];
        }),
      );
    }
    const after = new DataSource({ ...dataSource.options, migrations: MIGRATIONS.slice(0, TERMS_AT + 1) } as typeof dataSource.options);
    await after.initialize();
    try {
      const executor = new MigrationExecutor(after);
      executor.transaction = 'each';
      expect((await executor.executePendingMigrations()).map((migration) => migration.name)).toEqual(['CreatePaymentSearchTerms1764300000000']);
      const terms = `${dataSource.options.entityPrefix ?? ''}checkout_payment_search_terms`;
      const ids = async (prefix: string) =>
        ((await after.query(`SELECT DISTINCT payment_id FROM ${terms} WHERE term LIKE ? ORDER BY payment_id`, [`${prefix}%`])) as Array<{ payment_id: number | string }>).map((row) => Number(row.payment_id));
      const [{ n }] = (await after.query(`SELECT COUNT(DISTINCT payment_id) AS n FROM ${terms}`)) as Array<{ n: number | string }>;
      expect(Number(n)).toBe(count);
      expect(await ids('ada@example.com')).toEqual([8]);
      expect(await ids('zoe')).toEqual([8]);
      expect((await ids('muller')).length).toBe(601);
      expect((await ids('ludenscheidt')).length).toBe(601);
      expect((await ids('muller-ludenscheidt')).length).toBe(601);
      expect(await ids('pi_backfill_1202')).toEqual([1203]);
      expect(await ids('payer1202@')).toEqual([1203]);
      // Run again (as after a failure half-way): nothing new, nothing doubled.
      await new (MIGRATIONS[TERMS_AT] as new () => { up(runner: unknown): Promise<void> })().up(after.createQueryRunner());
      const [{ n: again }] = (await after.query(`SELECT COUNT(*) AS n FROM ${terms}`)) as Array<{ n: number | string }>;
      const [{ n: distinct }] = (await after.query(`SELECT COUNT(*) AS n FROM (SELECT DISTINCT payment_id, term FROM ${terms}) d`)) as Array<{ n: number | string }>;
      expect(Number(again)).toBe(Number(distinct));
    } finally {
      await after.destroy();
    }
  });

  it('runs outside one transaction: its batches commit one by one', () => {
    const migration = new (MIGRATIONS[TERMS_AT] as new () => { transaction?: boolean; name: string })();
    expect(migration.name).toBe('CreatePaymentSearchTerms1764300000000');
    expect(migration.transaction).toBe(false);
  });
});
