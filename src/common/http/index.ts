export { installBodyParsers, type RawBodyRequest } from './body-parsers.js';
export { loggerOptions } from './logger-options.js';
export { installOpenApi } from './openapi.js';
