export { installCors } from './cors.js';
export { installBodyParsers, type RawBodyRequest } from './body-parsers.js';
export { buildOpenApiDocument, installOpenApi, serializeOpenApiDocument, STRICT_TRANSPORT_SECURITY, SWAGGER_UI_CSP } from './openapi.js';
export { servedOverHttps } from './https.js';
export { installResponseHeaders } from './response-headers.js';
export { PAGING_HEADERS, PageQueryDto, setPagingHeaders } from './paging.js';
export { decodeKeysetCursor, encodeKeysetCursor, KEYSET_PAGING_HEADERS, KeysetQueryDto, type KeysetPosition, NEXT_CURSOR_HEADER, setKeysetHeaders, TOTAL_ESTIMATED_HEADER } from './keyset-cursor.js';
