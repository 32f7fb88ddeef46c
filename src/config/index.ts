export * from './app-config.js';
export { ConfigError } from './env-readers.js';
export { ConfigModule } from './config.module.js';
export { type ConnectSecrets, readConnectSecrets } from './connect-secrets.js';
