import type { OpenAPIObject } from '@nestjs/swagger';
import { ERROR_CATALOG, errorSchemaName } from './error-catalog.js';
import { JSON_VALUE_REF, JSON_VALUE_SCHEMA, JSON_VALUE_SCHEMA_NAME } from './json-value.js';
import { OPENAPI_TAGS } from './tags.js';

type Json = Record<string, unknown>;
type Operation = Json & { tags?: string[]; requestBody?: unknown; responses: Record<string, Json> };

/** The HTTP methods OpenAPI 3.0 knows; an `@All()` route is listed by Nest with others too (`search`). */
const DOCUMENTED_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch'] as const;
/** Methods whose requests carry no body: fetch refuses a body on GET and HEAD, and none of them takes one here. */
const BODYLESS_METHODS = new Set(['get', 'head', 'options', 'delete']);
/** Methods whose body passes the size-limited parsers (413 possible). */
const BODY_METHODS = new Set(['post', 'put', 'patch']);
const PATH_ITEM_FIELDS = new Set(['summary', 'description', 'servers', 'parameters']);
/** OpenAPI 3.0's way to say "null" as a schema of its own (3.0.3: `nullable` allows null in `enum`). */
const NULL_SCHEMA = { type: 'string', nullable: true, enum: [null] };

const RETRY_AFTER = { description: 'Seconds to wait before trying again', schema: { type: 'integer', minimum: 1 } };
/** The request header of the idempotent creating POSTs (modules/idempotency): their 409 may ask to retry, their success may be a replay. */
const IDEMPOTENCY_HEADER = 'Idempotency-Key';
const IN_PROGRESS_RETRY_AFTER = { ...RETRY_AFTER, description: 'Sent with `checkout_idempotency_in_progress`: seconds to wait before repeating the request' };
const REPLAYED = { description: '`true` when the answer repeats the result of an earlier request with the same `Idempotency-Key`', schema: { type: 'string', enum: ['true'] } };

export interface FinishOptions {
  /** `wp-json/checkout/v1`: the REST base every namespace path is relative to. */
  restPrefix: string;
  /** Paths served outside the namespace, from the root (`/healthz`, `/readyz`). */
  rootPaths: readonly string[];
}

/**
 * What @nestjs/swagger cannot express on its own, applied once to the generated document:
 * - `servers` is the REST base (relative to the document, so it is right behind any host name);
 *   paths are relative to it, and the root-level probes carry their own `servers`;
 * - the tags with their descriptions (an unknown tag fails here, so it cannot slip in);
 * - only OpenAPI methods, and no request body on GET/HEAD/OPTIONS/DELETE (the live preview is
 *   `@All()`);
 * - every error status has its own schema (`code` as an enum of the codes it can carry), its own
 *   example, and is JSON whatever the success type; 500 and 503 can happen on every route, 413 on
 *   every route that reads a body; 429 carries Retry-After;
 * - an operation that takes `Idempotency-Key` says that its 409 may carry Retry-After and its
 *   success `Idempotent-Replayed`;
 * - a nullable property of a DTO type accepts null (nullableReferences).
 */
export function finishOpenApiDocument(document: OpenAPIObject, options: FinishOptions): OpenAPIObject {
  document.servers = [{ url: `/${options.restPrefix}`, description: 'This service: the checkout/v1 REST namespace' }];
  document.tags = OPENAPI_TAGS.map((tag) => ({ ...tag }));
  const knownTags = new Set(OPENAPI_TAGS.map((tag) => tag.name));
  const usedStatuses = new Set<number>();

  for (const [path, item] of Object.entries(document.paths) as Array<[string, Json]>) {
    if (options.rootPaths.includes(path)) item.servers = [{ url: '/', description: 'Operational routes, outside the REST namespace' }];
    for (const key of Object.keys(item)) {
      if (!PATH_ITEM_FIELDS.has(key) && !(DOCUMENTED_METHODS as readonly string[]).includes(key)) delete item[key];
    }
    for (const method of DOCUMENTED_METHODS) {
      const operation = item[method] as Operation | undefined;
      if (!operation) continue;
      const unknown = (operation.tags ?? []).filter((tag) => !knownTags.has(tag));
      if (unknown.length > 0 || (operation.tags ?? []).length === 0) {
        throw new Error(`OpenAPI: ${method.toUpperCase()} ${path} has tag(s) [${(operation.tags ?? []).join(', ')}]; use one of OPENAPI_TAGS`);
      }
      if (BODYLESS_METHODS.has(method)) delete operation.requestBody;
      const extra = [500, ...(options.rootPaths.includes(path) && path === '/healthz' ? [] : [503]), ...(BODY_METHODS.has(method) ? [413] : [])];
      for (const status of extra) operation.responses[String(status)] ??= {};
      const idempotent = ((operation.parameters ?? []) as Json[]).some((parameter) => parameter.in === 'header' && parameter.name === IDEMPOTENCY_HEADER);
      for (const [code, response] of Object.entries(operation.responses)) {
        const status = Number(code);
        if (idempotent && status >= 200 && status < 300) response.headers = { ...(response.headers as Json | undefined), 'Idempotent-Replayed': REPLAYED };
        const known = ERROR_CATALOG[status];
        if (!known) continue;
        usedStatuses.add(status);
        const retryAfter =
          status === 429 ? RETRY_AFTER : status === 503 ? { ...RETRY_AFTER, description: 'Sent when a retry time is known' } : status === 409 && idempotent ? IN_PROGRESS_RETRY_AFTER : null;
        const description = typeof response.description === 'string' && response.description !== '' ? response.description : known.description;
        operation.responses[code] = {
          description: status === 409 && idempotent ? `${description}; or a request with the same \`${IDEMPOTENCY_HEADER}\` is still running (\`checkout_idempotency_in_progress\`: retry after \`Retry-After\`)` : description,
          ...(retryAfter ? { headers: { 'Retry-After': retryAfter } } : {}),
          content: { 'application/json': { schema: { $ref: `#/components/schemas/${errorSchemaName(status)}` }, example: known.example } },
        };
      }
    }
  }

  const schemas = (document.components ??= {}).schemas ??= {};
  nullableReferences(schemas as Record<string, Json>);
  // A raw schema @nestjs/swagger cannot declare as a class; added only where something refers to it.
  if (JSON.stringify(document).includes(JSON_VALUE_REF.$ref)) schemas[JSON_VALUE_SCHEMA_NAME] = JSON_VALUE_SCHEMA;
  for (const status of [...usedStatuses].sort()) {
    schemas[errorSchemaName(status)] = {
      description: `A ${status} answer (WP_Error shape)`,
      allOf: [{ $ref: '#/components/schemas/WpErrorDto' }],
      type: 'object',
      required: ['code'],
      properties: { code: { type: 'string', enum: [...ERROR_CATALOG[status].codes] } },
    };
  }
  return document;
}

/**
 * `@ApiProperty({ type: SomeDto, nullable: true })` comes out as `nullable` beside `allOf: [$ref]`,
 * where `nullable` does not reach into the referenced object schema: null matches no branch, so a
 * validator (and redocly's example check) refuses the null the property may hold. Written as
 * `anyOf: [$ref, null]` instead, which every 3.0 validator reads the same way and openapi-typescript
 * still types `SomeDto | null`.
 */
function nullableReferences(schemas: Record<string, Json>): void {
  for (const schema of Object.values(schemas)) {
    for (const [name, property] of Object.entries((schema.properties ?? {}) as Record<string, Json>)) {
      const branches = property.allOf as Json[] | undefined;
      if (property.nullable !== true || branches?.length !== 1 || typeof branches[0].$ref !== 'string') continue;
      const { nullable: _nullable, type: _type, allOf: _allOf, ...rest } = property;
      (schema.properties as Record<string, Json>)[name] = { ...rest, anyOf: [branches[0], NULL_SCHEMA] };
    }
  }
}
