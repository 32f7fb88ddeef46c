export { AppLogger } from './app-logger.js';
export { loggerOptions, logAsRoutine, REDACTED, redactHeaders } from './logger-options.js';
export { REQUEST_LOG_MIDDLEWARE, RequestLoggingModule } from './request-logging.module.js';
