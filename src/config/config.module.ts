import { Global, Module } from '@nestjs/common';
import { APP_CONFIG, loadConfig } from './app-config.js';
import { CONFIG_ENV } from './config-section.js';

/**
 * Exposes the validated AppConfig under APP_CONFIG, and the environment it was read from under
 * CONFIG_ENV (for the modules' own sections). Tests override both with their own values.
 */
@Global()
@Module({
  providers: [
    { provide: CONFIG_ENV, useValue: process.env },
    { provide: APP_CONFIG, useFactory: (env: NodeJS.ProcessEnv) => loadConfig(env), inject: [CONFIG_ENV] },
  ],
  exports: [APP_CONFIG, CONFIG_ENV],
})
export class ConfigModule {}
