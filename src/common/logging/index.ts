export { loggerOptions, REDACTED, redactHeaders } from './logger-options.js';
export { RequestLoggingModule } from './request-logging.module.js';
