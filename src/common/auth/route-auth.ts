import { applyDecorators, SetMetadata } from '@nestjs/common';
import { ApiBasicAuth, ApiSecurity } from '@nestjs/swagger';
import { CHECKOUT_ADMIN_CAP } from '../../config/index.js';
import { ApiErrorResponses } from '../openapi/index.js';

export const ROUTE_AUTH = 'checkout:route-auth';

/**
 * How a route is authorised. Every handler must carry exactly one of these; the global
 * AuthorizationGuard refuses a request to a handler that declares nothing (fail closed), and
 * RouteInventory stops the app from starting with such a handler.
 */
export type RouteAuth =
  | { kind: 'admin'; capability: string }
  | { kind: 'public' }
  | { kind: 'payment_reference' }
  | { kind: 'signature'; scheme: string };

/** Basic auth with an application password; the user must hold `capability`. */
export function AdminRoute(capability: string = CHECKOUT_ADMIN_CAP): MethodDecorator & ClassDecorator {
  return applyDecorators(
    SetMetadata(ROUTE_AUTH, { kind: 'admin', capability } satisfies RouteAuth),
    ApiBasicAuth('application_password'),
    ApiErrorResponses(401, 403, 429),
  );
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
    case 'admin':
      return `admin(${auth.capability})`;
    case 'signature':
      return `signature(${auth.scheme})`;
    default:
      return auth.kind;
  }
}
