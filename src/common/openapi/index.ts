export { ApiErrorResponses } from './api-error-responses.decorator.js';
export { ERROR_CATALOG, errorSchemaName } from './error-catalog.js';
export { finishOpenApiDocument } from './finish-document.js';
export { OPENAPI_TAGS } from './tags.js';
export { AcknowledgementDto, WpErrorDto } from './wp-error.dto.js';
export { JSON_VALUE_REF, JSON_VALUE_SCHEMA, JSON_VALUE_SCHEMA_NAME, type JsonValue } from './json-value.js';
