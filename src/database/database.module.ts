import { Logger, Module } from '@nestjs/common';
import { TypeOrmModule, type TypeOrmModuleOptions } from '@nestjs/typeorm';
import { DataSource, type DataSourceOptions } from 'typeorm';
import { BootError } from '../common/errors/index.js';
import { APP_CONFIG, type AppConfig } from '../config/index.js';
import { installConflictRetry } from './conflict-retry.js';
import { buildDataSourceOptions } from './data-source-options.js';
import { installGaleraSession } from './galera.js';
import { runMigrations } from './run-migrations.js';
import { installSqliteAccessGate } from './sqlite-access-gate.js';
import { bindSqliteIntegerParameters } from './sqlite-integer-parameters.js';

/** The TypeORM options plus what the boot needs to migrate (stripped before TypeORM sees them). */
type AppDataSourceOptions = TypeOrmModuleOptions & { migrationLockTimeoutSeconds: number };

/**
 * The app's connection: initialised, then migrated under the migration lock (runMigrations) before
 * any module uses it; entities come from each module's forFeature.
 */
@Module({
  imports: [
    TypeOrmModule.forRootAsync({
      inject: [APP_CONFIG],
      useFactory: (config: AppConfig): AppDataSourceOptions => ({
        ...buildDataSourceOptions(config),
        autoLoadEntities: true,
        retryAttempts: 3,
        retryDelay: 1000,
        // A refusal (the migration lock did not come) is final; retrying would only wait again.
        toRetry: (error: unknown) => !(error instanceof BootError),
        migrationLockTimeoutSeconds: config.migrationLockTimeoutSeconds,
      }),
      dataSourceFactory: async (options) => {
        const { migrationLockTimeoutSeconds, ...typeorm } = options as AppDataSourceOptions;
        const dataSource = new DataSource(typeorm as DataSourceOptions);
        // One shared SQLite connection: serialise transactions and keep other queries out of them.
        if (dataSource.options.type === 'better-sqlite3') {
          installSqliteAccessGate(dataSource);
          // Ids as bound parameters: one prepared statement per query shape, not per row.
          bindSqliteIntegerParameters(dataSource);
        } else {
          // Conflicts (deadlocks, Galera certification failures) retried on every write path, and
          // causal reads on a Galera node (docs/scaling.md "MariaDB Galera").
          const logger = new Logger('Database');
          installConflictRetry(dataSource, (what, { attempt, errno, delayMs }) =>
            logger.warn({ attempt, errno, retry_in_ms: delayMs }, `${what} aborted by the database (error ${errno}); running it again`),
          );
          installGaleraSession(dataSource, (message) => logger.warn(message));
        }
        await dataSource.initialize();
        try {
          await runMigrations(dataSource, { lockTimeoutSeconds: migrationLockTimeoutSeconds, logger: new Logger('Migrations') });
        } catch (error) {
          await dataSource.destroy().catch(() => undefined);
          throw error;
        }
        return dataSource;
      },
    }),
  ],
})
export class DatabaseModule {}
