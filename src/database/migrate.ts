import { DataSource } from 'typeorm';
import { loadConfig } from '../config/index.js';
import { buildDataSourceOptions } from './data-source-options.js';

/** `npm run migration:run`: applies pending migrations to the configured database and exits. */
async function main(): Promise<void> {
  const dataSource = new DataSource({ ...buildDataSourceOptions(loadConfig()), migrationsRun: false });
  await dataSource.initialize();
  try {
    const applied = await dataSource.runMigrations({ transaction: 'each' });
    console.log(applied.length ? `Applied: ${applied.map((m) => m.name).join(', ')}` : 'No pending migrations.');
  } finally {
    await dataSource.destroy();
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
