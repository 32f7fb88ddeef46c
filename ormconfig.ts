import { DataSource } from 'typeorm';
import { loadConfig } from './src/config/app-config.js';
import { buildDataSourceOptions } from './src/database/data-source-options.js';

/** Data source for the TypeORM CLI (run the compiled dist/ormconfig.js); same options as the app. */
export default new DataSource({ ...buildDataSourceOptions(loadConfig()), migrationsRun: false });
