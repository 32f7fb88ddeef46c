import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, type OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import { CHECKOUT_NAME, CHECKOUT_VERSION } from '../../config/app-config.js';

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
  return SwaggerModule.createDocument(app, config);
}

/** Swagger UI at /docs and the OpenAPI 3 JSON at /docs-json. */
export function installOpenApi(app: INestApplication): void {
  SwaggerModule.setup('docs', app, () => buildOpenApiDocument(app), {
    jsonDocumentUrl: 'docs-json',
    swaggerOptions: { persistAuthorization: true },
    customSiteTitle: `${CHECKOUT_NAME} API`,
  });
}
