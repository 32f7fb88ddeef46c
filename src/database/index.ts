export { DatabaseModule } from './database.module.js';
export { buildDataSourceOptions, databaseKind, type DatabaseKind } from './data-source-options.js';
export { isDuplicateKeyError } from './errors.js';
export { CONFLICT_RETRY, installConflictRetry, transactionOnce } from './conflict-retry.js';
export { databaseReadiness, type DatabaseReadiness, installGaleraSession, isGalera } from './galera.js';
export { MIGRATIONS } from './migrations/index.js';
export { forUpdate, locksRows, readDatetime, readNullableDatetime, runStatement, selectRows, sqlDialect, sqliteDatetime, sqlValue, sqlValues, type SqlDialect } from './hot-sql.js';
export { EntityTable } from './entity-table.js';
export {
  DEFAULT_TRANSACTION_RETRY,
  isRetryableTransactionError,
  RETRYABLE_TRANSACTION_ERRNOS,
  serverErrno,
  type TransactionRetryNotice,
  type TransactionRetryPolicy,
  withTransactionRetry,
} from './transaction-retry.js';
export { containsPattern, LIKE_ESCAPE, prefixPattern } from './like-pattern.js';
export { normaliseSearchText, paymentSearchTerms, SEARCH_TERM_MAX_LENGTH, SEARCHABLE_PROPERTIES, type SearchableFields, searchWords } from './search-terms.js';
export {
  CreatedAtColumn,
  DatetimeColumn,
  IdColumn,
  IntegerColumn,
  JsonTextColumn,
  TextColumn,
  UpdatedAtColumn,
  VarcharColumn,
} from './entity-columns.decorator.js';
export { backupDatabase, type BackupResult, defaultBackupFile, DumpToolMissingError, mariadbDumpArguments } from './backup.js';
