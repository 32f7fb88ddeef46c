export { ApiErrorResponses } from './api-error-responses.decorator.js';
export { ERROR_CATALOG, errorSchemaName } from './error-catalog.js';
export { finishOpenApiDocument } from './finish-document.js';
export { OPENAPI_TAGS } from './tags.js';
export { AcknowledgementDto, WpErrorDto } from './wp-error.dto.js';
