import { DataSource, MigrationExecutor } from 'typeorm';
import { loadConfig } from '../../src/config/index.js';
import { buildDataSourceOptions } from '../../src/database/index.js';
import { MIGRATIONS } from '../../src/database/migrations/index.js';
import { peerDatabaseUrl } from './peer-database.js';

/**
 * A database of its own with every migration applied, for a test of one migration's `up` and
 * `down`: a fresh in-memory SQLite, or on MySQL/MariaDB the peer database `suffix`, dropped first.
 * `payments` is the payments table's name with the prefix.
 */
export async function migratedPeerDatabase(suffix: string): Promise<{ dataSource: DataSource; payments: string }> {
  const options = buildDataSourceOptions(loadConfig({ DATABASE_URL: await peerDatabaseUrl(suffix) }));
  let dataSource = new DataSource({ ...options, migrations: MIGRATIONS });
  await dataSource.initialize();
  if (options.type === 'mysql') {
    await dataSource.dropDatabase();
    await dataSource.destroy();
    dataSource = new DataSource({ ...options, migrations: MIGRATIONS });
    await dataSource.initialize();
  }
  const executor = new MigrationExecutor(dataSource);
  executor.transaction = 'each';
  await executor.executePendingMigrations();
  return { dataSource, payments: `${dataSource.options.entityPrefix ?? ''}checkout_payments` };
}
