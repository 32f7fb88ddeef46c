import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, type OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import { APP_CONFIG, type AppConfig, CHECKOUT_NAME, CHECKOUT_VERSION, REST_NAMESPACE } from '../../config/index.js';
import { COOKIE_AUTH_SCHEME, CONSOLE_SESSION_COOKIE, NONCE_AUTH_SCHEME } from '../auth/index.js';
import { finishOpenApiDocument } from '../openapi/index.js';

/** Routes served outside the REST namespace (bootstrap.ts excludes them from the global prefix). */
export const ROOT_PATHS = ['/healthz', '/readyz'] as const;

export function buildOpenApiDocument(app: INestApplication): OpenAPIObject {
  const { restRoot } = app.get<AppConfig>(APP_CONFIG);
  const config = new DocumentBuilder()
    .setTitle(`${CHECKOUT_NAME} REST API`)
    .setDescription(
      'The checkout plugin REST interface (namespace `checkout/v1`). Admin routes use HTTP Basic with an ' +
        'application password (`login:password`), or the admin console session: its cookie together with its nonce in `X-WP-Nonce` (`/auth/session`). Every error is a WP_Error JSON body: `{ code, message, data: { status } }`.',
    )
    .setVersion(CHECKOUT_VERSION)
    .setLicense('GPL-2.0-or-later', 'https://www.gnu.org/licenses/old-licenses/gpl-2.0.html')
    .addBasicAuth({ type: 'http', scheme: 'basic', description: 'login and application password' }, 'application_password')
    .addCookieAuth(
      CONSOLE_SESSION_COOKIE,
      {
        type: 'apiKey',
        in: 'cookie',
        description: 'The admin console session (POST /auth/session sets it; HttpOnly, SameSite=Strict). Counts only together with its nonce in `X-WP-Nonce`',
      },
      COOKIE_AUTH_SCHEME,
    )
    .addApiKey(
      { type: 'apiKey', in: 'header', name: 'X-WP-Nonce', description: "The console session's nonce (the `nonce` of POST or GET /auth/session)" },
      NONCE_AUTH_SCHEME,
    )
    .build();
  // Paths are relative to `servers` (the REST base), so a generated client calls `/payment/status`.
  const document = SwaggerModule.createDocument(app, config, { ignoreGlobalPrefix: true, autoTagControllers: false });
  return finishOpenApiDocument(withUniqueOperationIds(document), { restPrefix: `${restRoot}/${REST_NAMESPACE}`, rootPaths: ROOT_PATHS });
}

/** The document as committed under clients/typescript/ and compared by the freshness test. */
export function serializeOpenApiDocument(document: OpenAPIObject): string {
  return `${JSON.stringify(document, null, 2)}\n`;
}

/**
 * An `@All()` route (the live preview) is listed once per HTTP method with the same operationId;
 * OpenAPI requires unique ids, so those get the method as a suffix (`administrationLivePreviewPost`).
 */
function withUniqueOperationIds(document: OpenAPIObject): OpenAPIObject {
  const seen = new Map<string, number>();
  const operations = Object.values(document.paths).flatMap((item) =>
    Object.entries(item).filter(([, operation]) => typeof operation === 'object' && operation && 'operationId' in operation),
  ) as Array<[string, { operationId: string }]>;
  for (const [, operation] of operations) seen.set(operation.operationId, (seen.get(operation.operationId) ?? 0) + 1);
  for (const [method, operation] of operations) {
    if ((seen.get(operation.operationId) ?? 0) > 1) {
      operation.operationId = `${operation.operationId}${method[0].toUpperCase()}${method.slice(1)}`;
    }
  }
  return document;
}

/**
 * Swagger UI at /docs and the OpenAPI 3 JSON at /docs-json. The credentials entered under
 * Authorize stay in the page's memory only: `persistAuthorization` would keep the admin's
 * application password in the browser's localStorage across reloads, readable by any script of
 * this origin and left on shared machines.
 */
export function installOpenApi(app: INestApplication): void {
  SwaggerModule.setup('docs', app, () => buildOpenApiDocument(app), {
    jsonDocumentUrl: 'docs-json',
    swaggerOptions: { persistAuthorization: false },
    customSiteTitle: `${CHECKOUT_NAME} API`,
  });
}
