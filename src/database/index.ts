export { DatabaseModule } from './database.module.js';
export { buildDataSourceOptions, databaseKind, type DatabaseKind } from './data-source-options.js';
export { isDuplicateKeyError } from './errors.js';
export { MIGRATIONS } from './migrations/index.js';
export { readDatetime, readNullableDatetime, runStatement, selectRows, sqlDialect, sqliteDatetime, sqlValue, sqlValues, type SqlDialect } from './hot-sql.js';
export { containsPattern, LIKE_ESCAPE } from './like-pattern.js';
