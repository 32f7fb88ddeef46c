import { DataSource } from 'typeorm';
import type { AppConfig } from '../../config/index.js';
import { buildDataSourceOptions, MIGRATIONS } from '../../database/index.js';
import type { DoctorCheck } from './doctor-check.js';

/**
 * The checks `doctor` makes before the application itself starts (starting it would apply pending
 * migrations): the database answers, and every migration of this release is applied. Reads only.
 */
export async function databasePreflight(config: AppConfig): Promise<DoctorCheck> {
  const options = buildDataSourceOptions(config);
  const dataSource = new DataSource({ ...options, migrationsRun: false });
  try {
    await dataSource.initialize();
  } catch {
    return { name: 'database', status: 'fail', message: 'the database does not answer', fix: 'check DATABASE_URL and that the database server runs and accepts these credentials' };
  }
  try {
    await dataSource.query('SELECT 1');
    const table = options.migrationsTableName ?? 'migrations';
    const runner = dataSource.createQueryRunner();
    let applied: Set<string>;
    try {
      applied = (await runner.hasTable(table))
        ? new Set(((await runner.query(`SELECT name FROM ${dataSource.driver.escape(table)}`)) as Array<{ name: string }>).map((row) => row.name))
        : new Set();
    } finally {
      await runner.release();
    }
    const pending = MIGRATIONS.map((migration) => new migration().name).filter((name): name is string => !!name && !applied.has(name));
    if (pending.length > 0) {
      return { name: 'database', status: 'fail', message: `reachable, ${pending.length} of ${MIGRATIONS.length} migrations not applied`, fix: 'npm run migration:run (or start the service, which applies them)' };
    }
    return { name: 'database', status: 'ok', message: `reachable, all ${MIGRATIONS.length} migrations applied` };
  } finally {
    await dataSource.destroy();
  }
}
