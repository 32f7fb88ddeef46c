import type { INestApplication } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import { DocumentBuilder, type OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import { APP_CONFIG, type AppConfig, CHECKOUT_NAME, CHECKOUT_VERSION, REST_NAMESPACE } from '../../config/index.js';
import { COOKIE_AUTH_SCHEME, CONSOLE_SESSION_COOKIE, NONCE_AUTH_SCHEME } from '../auth/index.js';
import { finishOpenApiDocument } from '../openapi/index.js';
import { servedOverHttps } from './https.js';

/** Routes served outside the REST namespace (bootstrap.ts excludes them from the global prefix). */
export const ROOT_PATHS = ['/healthz', '/readyz', '/metrics'] as const;

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
    .addBearerAuth({ type: 'http', scheme: 'bearer', description: 'METRICS_TOKEN, for GET /metrics when it is set' }, 'metrics_token')
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
 * Swagger UI's page (`/docs`, its scripts and styles under `/docs/`) and the document
 * (`/docs-json`). What the page needs, checked in chromium (`swagger-ui.browser-spec`): its three
 * scripts from this origin (no inline script; the bundle's `Function("return this")` is only a
 * fallback for browsers without `globalThis`, so no `'unsafe-eval'`); inline styles (the page's two
 * `<style>` blocks and the style attributes of its markup, which hashes would tie to
 * `@nestjs/swagger`'s template byte for byte; the page shows no text but the service's own
 * document, so inline style gives an attacker nothing); `data:` images of its stylesheet; "Try it
 * out" calls this origin only. Never framed (the Authorize dialog takes an application password).
 */
export const SWAGGER_UI_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
  "object-src 'none'",
].join('; ');

/** One year, this host only: the operator decides about subdomains and preload lists. */
export const STRICT_TRANSPORT_SECURITY = 'max-age=31536000';

/**
 * Swagger UI at /docs and the OpenAPI 3 JSON at /docs-json. The credentials entered under
 * Authorize stay in the page's memory only: `persistAuthorization` would keep the admin's
 * application password in the browser's localStorage across reloads, readable by any script of
 * this origin and left on shared machines. `validatorUrl: null`: the page never asks
 * swagger.io's validator about this document (it would send the document's address away, and
 * the CSP refuses its badge anyway).
 */
export function installOpenApi(app: INestApplication): void {
  const { publicBaseUrl } = app.get<AppConfig>(APP_CONFIG);
  // Before SwaggerModule registers its handlers, so every answer under /docs carries these.
  app.use(['/docs', '/docs-json'], (req: Request, res: Response, next: NextFunction) => {
    res.setHeader('Content-Security-Policy', SWAGGER_UI_CSP);
    res.setHeader('X-Frame-Options', 'DENY');
    res.setHeader('Referrer-Policy', 'same-origin');
    if (servedOverHttps(req, publicBaseUrl)) res.setHeader('Strict-Transport-Security', STRICT_TRANSPORT_SECURITY);
    next();
  });
  SwaggerModule.setup('docs', app, () => buildOpenApiDocument(app), {
    jsonDocumentUrl: 'docs-json',
    swaggerOptions: { persistAuthorization: false, validatorUrl: null },
    customSiteTitle: `${CHECKOUT_NAME} API`,
  });
}
