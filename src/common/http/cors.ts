import type { INestApplication } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import { type RouteDescription, RouteInventory } from '../auth/index.js';

/** Response headers a page on an allowed origin may read (paging totals, request id, back-off, a replayed creation). */
const EXPOSED_HEADERS = 'X-WP-Total, X-WP-TotalPages, X-Checkout-Next-Cursor, X-Checkout-Total-Estimated, X-Request-Id, Retry-After, Idempotent-Replayed';
/**
 * Request headers a browser may send: any route reads JSON, and the creating POSTs take an
 * `Idempotency-Key` (any other route ignores it); admin routes also need Basic credentials.
 */
const PUBLIC_HEADERS = ['Content-Type', 'X-Request-Id', 'Idempotency-Key'];
const ADMIN_HEADERS = [...PUBLIC_HEADERS, 'Authorization'];
const ALL_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];
const PREFLIGHT_MAX_AGE_SECONDS = 600;

interface CorsRoute {
  pattern: RegExp;
  method: string;
  admin: boolean;
}

/**
 * CORS for the REST namespace (CORS_ORIGINS; none by default, and then nothing is installed).
 *
 * - Only exact origins from CORS_ORIGINS get `Access-Control-Allow-Origin` (never `*`), on the
 *   routes a browser page has a reason to call: public and payment-reference routes (a checkout
 *   page on the shop's origin) and admin routes (an admin UI hosted there; docs/decisions.md §14 already
 *   trusts these origins with admin requests, and the cross-site check still refuses every other
 *   origin). Signed webhook routes are for providers' servers and get no CORS headers.
 * - A preflight (OPTIONS with Access-Control-Request-Method) for such a route is answered here, 204,
 *   with the route's methods. `Authorization` is an allowed request header on admin routes only.
 * - `Access-Control-Allow-Credentials` is never sent: an admin UI on another origin sends its
 *   application password in an explicit `Authorization` header, which needs no credentials mode.
 *   So a page can never make the browser attach Basic credentials it has cached, or the admin
 *   console's session cookie, and read the answer. `X-WP-Nonce` is not an allowed header: the
 *   console session is same-origin only, and its routes (`/auth/session`) get no CORS at all.
 * - Installed before the body parsers, so their 400/413 answers carry the headers too and the
 *   shop's page can read why a request failed.
 */
export function installCors(app: INestApplication, options: { pathPrefix: string; origins: readonly string[] }): void {
  if (options.origins.length === 0) return;
  const allowed = new Set(options.origins);
  let routes: CorsRoute[] | undefined;
  // The route table exists once the app is initialised; the first request comes after that.
  const table = (): CorsRoute[] => (routes ??= corsRoutes(app.get(RouteInventory).describe()));

  app.use((req: Request, res: Response, next: NextFunction) => {
    if (!req.path.startsWith(`${options.pathPrefix}/`)) return next();
    res.vary('Origin');
    const origin = req.headers.origin;
    if (origin === undefined || !allowed.has(origin)) return next();
    const path = req.path.slice(options.pathPrefix.length);
    const requested = req.headers['access-control-request-method'];
    const preflight = req.method === 'OPTIONS' && typeof requested === 'string';
    const method = preflight ? requested.toUpperCase() : req.method === 'HEAD' ? 'GET' : req.method;
    const matching = table().filter((route) => route.pattern.test(path));
    const route = matching.find((candidate) => candidate.method === method || candidate.method === 'ALL');
    if (!route) return next();

    res.setHeader('Access-Control-Allow-Origin', origin);
    if (!preflight) {
      res.setHeader('Access-Control-Expose-Headers', EXPOSED_HEADERS);
      return next();
    }
    const methods = new Set(matching.flatMap((candidate) => (candidate.method === 'ALL' ? ALL_METHODS : [candidate.method])));
    res.vary('Access-Control-Request-Method');
    res.vary('Access-Control-Request-Headers');
    res.setHeader('Access-Control-Allow-Methods', [...methods].join(', '));
    res.setHeader('Access-Control-Allow-Headers', (route.admin ? ADMIN_HEADERS : PUBLIC_HEADERS).join(', '));
    res.setHeader('Access-Control-Max-Age', String(PREFLIGHT_MAX_AGE_SECONDS));
    res.status(204).end();
  });
}

/**
 * The browser-callable routes as path patterns: everything but signed webhooks and the admin
 * console's session routes (same-origin only: a session cookie must never be usable, nor its nonce
 * readable, from another origin).
 */
function corsRoutes(routes: readonly RouteDescription[]): CorsRoute[] {
  return routes
    .filter((route) => route.declaration !== undefined && route.declaration.kind !== 'signature' && route.declaration.kind !== 'console_session')
    .map((route) => ({
      pattern: new RegExp(`^${route.path.split('/').map((segment) => (segment.startsWith(':') ? '[^/]+' : escape(segment))).join('/')}/?$`),
      method: route.method,
      admin: route.declaration!.kind === 'admin',
    }));
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
