import { Injectable, type OnApplicationBootstrap, RequestMethod } from '@nestjs/common';
import { METHOD_METADATA, PATH_METADATA } from '@nestjs/common/constants.js';
import { DiscoveryService, MetadataScanner, Reflector } from '@nestjs/core';
import { isFinerCapability } from './capabilities.js';
import { describeRouteAuth, ROUTE_AUTH, type RouteAuth } from './route-auth.js';

export interface RouteEntry {
  method: string;
  path: string;
  /** The declaration, as text (`UNDECLARED` when there is none) */
  auth: string;
}

export interface RouteDescription extends RouteEntry {
  /** The declaration itself */
  declaration: RouteAuth | undefined;
  /** The controller class that serves the route */
  controller: string;
}

/** Every HTTP handler of the application with its declared authorisation, sorted by path and method. */
export function listRoutes(discovery: DiscoveryService, scanner: MetadataScanner, reflector: Reflector): RouteDescription[] {
  const routes: RouteDescription[] = [];
  for (const wrapper of discovery.getControllers()) {
    const controller = wrapper.metatype;
    const instance = wrapper.instance as object | undefined;
    if (!controller || !instance) continue;
    const base = normalise(Reflect.getMetadata(PATH_METADATA, controller));
    const prototype = Object.getPrototypeOf(instance) as object;
    for (const name of scanner.getAllMethodNames(prototype)) {
      const handler = (prototype as Record<string, unknown>)[name] as (...args: unknown[]) => unknown;
      const subPath = Reflect.getMetadata(PATH_METADATA, handler) as string | string[] | undefined;
      if (subPath === undefined) continue;
      const method = RequestMethod[Reflect.getMetadata(METHOD_METADATA, handler) as RequestMethod];
      const declaration = reflector.getAllAndOverride<RouteAuth | undefined>(ROUTE_AUTH, [handler, controller]);
      for (const path of Array.isArray(subPath) ? subPath : [subPath]) {
        routes.push({
          method,
          path: `/${[base, normalise(path)].filter(Boolean).join('/')}`,
          auth: describeRouteAuth(declaration),
          declaration,
          controller: controller.name,
        });
      }
    }
  }
  return routes.sort((a, b) => a.path.localeCompare(b.path) || a.method.localeCompare(b.method));
}

/**
 * Lists every HTTP handler with its declared authorisation. The app refuses to start when a
 * handler declares none, or is an admin route that names no finer capability (or one that is not
 * a capability of the roles' table, e.g. `checkout_settings` itself), and a test snapshots the list
 * so permission changes show in review.
 */
@Injectable()
export class RouteInventory implements OnApplicationBootstrap {
  constructor(
    private readonly discovery: DiscoveryService,
    private readonly scanner: MetadataScanner,
    private readonly reflector: Reflector,
  ) {}

  onApplicationBootstrap(): void {
    const undeclared = this.list().filter((route) => route.auth === 'UNDECLARED');
    if (undeclared.length > 0) {
      const names = undeclared.map((route) => `${route.method} ${route.path}`).join(', ');
      throw new Error(`Routes without an authorisation declaration: ${names}`);
    }
    const unscoped = this.describe().filter(({ declaration }) => declaration?.kind === 'admin' && !namesFinerCapability(declaration.capabilities));
    if (unscoped.length > 0) {
      const names = unscoped.map((route) => `${route.method} ${route.path}`).join(', ');
      throw new Error(`Admin routes that name no finer capability (docs/security.md, "Roles"): ${names}`);
    }
  }

  list(): RouteEntry[] {
    return this.describe().map(({ method, path, auth }) => ({ method, path, auth }));
  }

  /** `list()` with each route's controller class and raw declaration. */
  describe(): RouteDescription[] {
    return listRoutes(this.discovery, this.scanner, this.reflector);
  }
}

function namesFinerCapability(capabilities: readonly string[] | undefined): boolean {
  return Array.isArray(capabilities) && capabilities.length > 0 && capabilities.every(isFinerCapability);
}

function normalise(path: string | undefined): string {
  return (path ?? '').replace(/^\/+|\/+$/g, '');
}
