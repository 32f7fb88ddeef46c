import { DataSource } from 'typeorm';
import { loadConfig } from '../config/index.js';
import { buildDataSourceOptions } from './data-source-options.js';
import { installGaleraSession } from './galera.js';
import { runMigrations } from './run-migrations.js';

/**
 * `npm run migration:run`: applies pending migrations to the configured database and exits. Same
 * code path as the boot (runMigrations), so it waits for instances that are migrating and they
 * wait for it.
 */
async function main(): Promise<void> {
  const config = loadConfig();
  const dataSource = new DataSource(buildDataSourceOptions(config));
  // Causal reads on a Galera node: the migrations table as the cluster committed it.
  if (dataSource.options.type === 'mysql') installGaleraSession(dataSource, (message) => console.warn(message));
  await dataSource.initialize();
  try {
    const applied = await runMigrations(dataSource, { lockTimeoutSeconds: config.migrationLockTimeoutSeconds, logger: { log: (message) => console.log(message) } });
    if (!applied.length) console.log('No pending migrations.');
  } finally {
    await dataSource.destroy();
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
