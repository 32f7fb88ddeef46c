import { Module } from '@nestjs/common';
import { APP_CONFIG, type AppConfig, REST_NAMESPACE } from '../../config/index.js';
import { AdminConsoleController } from './admin-console.controller.js';
import { ConsoleFiles } from './console-files.js';

/** The admin console's static files at /admin/ (docs/admin-console.md). */
@Module({
  controllers: [AdminConsoleController],
  providers: [
    {
      provide: ConsoleFiles,
      inject: [APP_CONFIG],
      useFactory: (config: AppConfig) => ConsoleFiles.load(config.adminConsoleDir, `/${config.restRoot}/${REST_NAMESPACE}`),
    },
  ],
})
export class AdminConsoleModule {}
