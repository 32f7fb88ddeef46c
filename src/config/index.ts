export * from './app-config.js';
export { ConfigError, envInteger, envScriptUrl, envUrl } from './env-readers.js';
export { ConfigModule } from './config.module.js';
export { CONFIG_ENV, type ConfigSection, configSection, configSectionProvider } from './config-section.js';
