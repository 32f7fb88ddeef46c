import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, type OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import { CHECKOUT_NAME, CHECKOUT_VERSION } from '../../config/index.js';

export function buildOpenApiDocument(app: INestApplication): OpenAPIObject {
  const config = new DocumentBuilder()
    .setTitle(`${CHECKOUT_NAME} REST API`)
    .setDescription(
      'The checkout plugin REST interface (namespace `checkout/v1`). Admin routes use HTTP Basic with an ' +
        'application password (`login:password`). Every error is a WP_Error JSON body: `{ code, message, data: { status } }`.',
    )
    .setVersion(CHECKOUT_VERSION)
    .addBasicAuth({ type: 'http', scheme: 'basic', description: 'login and application password' }, 'application_password')
    .build();
  return withUniqueOperationIds(SwaggerModule.createDocument(app, config));
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
