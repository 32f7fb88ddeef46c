export { installCors } from './cors.js';
export { installBodyParsers, type RawBodyRequest } from './body-parsers.js';
export { buildOpenApiDocument, installOpenApi, serializeOpenApiDocument } from './openapi.js';
export { installResponseHeaders } from './response-headers.js';
export { PAGING_HEADERS, PageQueryDto, setPagingHeaders } from './paging.js';
