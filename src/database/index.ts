export { DatabaseModule } from './database.module.js';
export { buildDataSourceOptions, databaseKind, type DatabaseKind } from './data-source-options.js';
export { isDuplicateKeyError } from './errors.js';
export { MIGRATIONS } from './migrations/index.js';
