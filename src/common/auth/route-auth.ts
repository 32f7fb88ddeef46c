import { applyDecorators, SetMetadata } from '@nestjs/common';
import { ApiBasicAuth, ApiExtension, ApiQuery, ApiSecurity } from '@nestjs/swagger';
import { ApiErrorResponses } from '../openapi/index.js';
import { ADMIN_CAPABILITY, type FinerCapability } from './capabilities.js';

export const ROUTE_AUTH = 'checkout:route-auth';

/**
 * How a route is authorised. Every handler must carry exactly one of these; the global
 * AuthorizationGuard refuses a request to a handler that declares nothing (fail closed), and
 * RouteInventory stops the app from starting with such a handler.
 */
export type RouteAuth =
  | {
      kind: 'admin';
      /**
       * The finer capability the route needs beside `checkout_settings` (docs/security.md, "Roles"):
       * one name, or a few of which any one suffices. Never empty: such a route does not boot.
       */
      capabilities: readonly string[];
      nonceInQuery?: true;
    }
  | { kind: 'public' }
  | { kind: 'console_session' }
  | { kind: 'payment_reference' }
  | { kind: 'signature'; scheme: string };

/** The admin console's session cookie (HttpOnly: no script reads it, the console included). */
export const CONSOLE_SESSION_COOKIE = 'checkout_console_session';
/** The OpenAPI security schemes of the admin console's session (buildOpenApiDocument defines them). */
export const COOKIE_AUTH_SCHEME = 'cookieAuth';
export const NONCE_AUTH_SCHEME = 'wpNonce';
/** The query parameter that may carry the console session's nonce on routes declared `nonceInQuery`. */
export const QUERY_NONCE_PARAM = '_wpnonce';

export interface AdminRouteOptions {
  /**
   * A GET a frame or a link must open (the browser sends no custom header then): the console
   * session's nonce may come as `?_wpnonce=` instead of `X-WP-Nonce`, on GET and HEAD only.
   */
  nonceInQuery?: boolean;
}

/** The OpenAPI extension of every admin operation naming the capabilities it needs. */
export const CAPABILITY_EXTENSION = 'x-required-capabilities';

/**
 * HTTP Basic with an application password, or the admin console's session cookie together with its
 * nonce (`X-WP-Nonce`); the user must hold `checkout_settings` (the interface's admin capability,
 * which every console role holds) and `capability` (one finer capability, or a list of which any
 * one suffices). The OpenAPI operation names both under `x-required-capabilities`.
 */
export function AdminRoute(capability: FinerCapability | readonly FinerCapability[], options: AdminRouteOptions = {}): MethodDecorator & ClassDecorator {
  const capabilities: readonly string[] = typeof capability === 'string' ? [capability] : [...capability];
  const declaration: RouteAuth = options.nonceInQuery ? { kind: 'admin', capabilities, nonceInQuery: true } : { kind: 'admin', capabilities };
  return applyDecorators(
    SetMetadata(ROUTE_AUTH, declaration),
    ApiExtension(CAPABILITY_EXTENSION, { all_of: [ADMIN_CAPABILITY], any_of: [...capabilities] }),
    ApiBasicAuth('application_password'),
    ApiSecurity({ [COOKIE_AUTH_SCHEME]: [], [NONCE_AUTH_SCHEME]: [] }),
    ApiErrorResponses(401, 403, 429),
    ...(options.nonceInQuery
      ? [
          ApiQuery({
            name: QUERY_NONCE_PARAM,
            required: false,
            schema: { type: 'string' },
            description:
              "The admin console session's nonce, for a GET or HEAD a frame or link opens (instead of the `X-WP-Nonce` header; other methods ignore it)",
          }),
        ]
      : []),
  );
}

/**
 * The admin console's own session routes (sign in, who is signed in, sign out). The guard lets only
 * same-origin browser requests (or clients that are no browser) through, CORS_ORIGINS included in
 * the refusal, and CORS never answers for them; the handler reads the credentials or the cookie.
 */
export function ConsoleSessionRoute(): MethodDecorator & ClassDecorator {
  return applyDecorators(SetMetadata(ROUTE_AUTH, { kind: 'console_session' } satisfies RouteAuth), ApiErrorResponses(403));
}

/** No login; the route exposes nothing private. */
export function PublicRoute(): MethodDecorator & ClassDecorator {
  return applyDecorators(SetMetadata(ROUTE_AUTH, { kind: 'public' } satisfies RouteAuth), ApiSecurity({}));
}

/** No login; the body must carry a valid signed payment reference (payment id + secret + token). */
export function PaymentReferenceRoute(): MethodDecorator & ClassDecorator {
  return applyDecorators(
    SetMetadata(ROUTE_AUTH, { kind: 'payment_reference' } satisfies RouteAuth),
    ApiSecurity({}),
    ApiErrorResponses(403, 429),
  );
}

/**
 * No login; the raw body must carry a valid signature of `scheme`, checked before the handler by
 * the verifier registered for that scheme (the app does not start without one).
 */
export function SignedWebhookRoute(scheme: string): MethodDecorator & ClassDecorator {
  return applyDecorators(
    SetMetadata(ROUTE_AUTH, { kind: 'signature', scheme } satisfies RouteAuth),
    ApiSecurity({}),
    ApiErrorResponses(400),
  );
}

export function describeRouteAuth(auth: RouteAuth | undefined): string {
  if (!auth) return 'UNDECLARED';
  switch (auth.kind) {
    case 'admin': {
      const needs = `${ADMIN_CAPABILITY} + ${auth.capabilities.length === 0 ? 'NOTHING FINER' : auth.capabilities.join('|')}`;
      return auth.nonceInQuery ? `admin(${needs}, nonce in query)` : `admin(${needs})`;
    }
    case 'signature':
      return `signature(${auth.scheme})`;
    default:
      return auth.kind;
  }
}
