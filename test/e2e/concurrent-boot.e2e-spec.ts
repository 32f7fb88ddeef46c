import { Logger } from '@nestjs/common';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { loadConfig } from '../../src/config/index.js';
import { buildDataSourceOptions } from '../../src/database/index.js';
import { MIGRATIONS } from '../../src/database/migrations/index.js';
import { peerDatabaseUrl } from '../support/peer-database.js';
import { sharedDatabaseUrl } from '../support/shared-database.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

/**
 * Instances booted at the same moment on a fresh database (a rolling deploy, a scaled-out start):
 * each migration is applied once, no instance logs an error, every one becomes ready.
 *
 * On MariaDB the three apps of this process race on separate connections (without the migration
 * lock: "Table 'wp_roles' already exists" and TypeORM's retries). On SQLite they cannot: the
 * driver is synchronous, so boots in one process do not interleave; the proof for several
 * processes on one SQLite file is the multi-instance suite (npm run test:multi).
 */

/** A fresh database of this suite's kind: an empty MariaDB sibling, or a new SQLite file. */
async function freshDatabaseUrl(): Promise<string> {
  const base = process.env.DATABASE_URL;
  if (!base || !/^(mysql|mariadb):/.test(base)) return sharedDatabaseUrl();
  const url = await peerDatabaseUrl('boot');
  const dataSource = new DataSource(buildDataSourceOptions(loadConfig({ DATABASE_URL: url })));
  await dataSource.initialize();
  try {
    await dataSource.dropDatabase();
  } finally {
    await dataSource.destroy();
  }
  return url;
}

describe('instances booting at once on a fresh database', () => {
  const apps: TestApp[] = [];
  afterEach(async () => {
    jest.restoreAllMocks();
    for (const t of apps.splice(0)) await t.close();
  });

  it('apply each migration once, log no error and all become ready', async () => {
    const databaseUrl = await freshDatabaseUrl();
    const errors: unknown[][] = [];
    jest.spyOn(Logger.prototype, 'error').mockImplementation((...args: unknown[]) => void errors.push(args));
    const applied = new Map<string, number>();
    for (const migration of MIGRATIONS) {
      const up = migration.prototype.up;
      jest.spyOn(migration.prototype, 'up').mockImplementation(function (this: unknown, ...args) {
        applied.set(migration.name, (applied.get(migration.name) ?? 0) + 1);
        return up.apply(this, args);
      });
    }

    const booted = await Promise.allSettled([1, 2, 3].map(() => startTestApp({ DATABASE_URL: databaseUrl }, { keepDatabase: true })));
    for (const result of booted) if (result.status === 'fulfilled') apps.push(result.value);

    expect(booted.map((result) => (result.status === 'rejected' ? String(result.reason) : 'ready'))).toEqual(['ready', 'ready', 'ready']);
    expect(errors).toEqual([]);
    expect(Object.fromEntries(applied)).toEqual(Object.fromEntries(MIGRATIONS.map((migration) => [migration.name, 1])));
    for (const t of apps) expect((await request(t.http).get('/readyz')).status).toBe(200);
    const [t] = apps;
    const rows: Array<{ name: string }> = await t.dataSource.query(`SELECT name FROM ${t.config.tablePrefix}checkout_migrations`);
    expect(rows.map((row) => row.name).sort()).toEqual(MIGRATIONS.map((migration) => migration.name).sort());
    const admins: Array<{ n: number | string }> = await t.dataSource.query(`SELECT COUNT(*) AS n FROM ${t.config.tablePrefix}users`);
    expect(Number(admins[0].n)).toBe(1);
  });
});
