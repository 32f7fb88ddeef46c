import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { APP_CONFIG, type AppConfig } from '../config/index.js';
import { buildDataSourceOptions } from './data-source-options.js';
import { installSqliteAccessGate } from './sqlite-access-gate.js';

/** The app's connection: migrations run at boot, entities come from each module's forFeature. */
@Module({
  imports: [
    TypeOrmModule.forRootAsync({
      inject: [APP_CONFIG],
      useFactory: (config: AppConfig) => ({ ...buildDataSourceOptions(config), autoLoadEntities: true, retryAttempts: 3, retryDelay: 1000 }),
      dataSourceFactory: async (options) => {
        const dataSource = new DataSource(options!);
        // One shared SQLite connection: serialise transactions and keep other queries out of them.
        if (dataSource.options.type === 'better-sqlite3') installSqliteAccessGate(dataSource);
        return dataSource.initialize();
      },
    }),
  ],
})
export class DatabaseModule {}
