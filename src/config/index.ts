export * from './app-config.js';
export { ConfigError } from './env-readers.js';
export { ConfigModule } from './config.module.js';
