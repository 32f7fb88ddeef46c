import { Injectable, type OnApplicationBootstrap, RequestMethod } from '@nestjs/common';
import { METHOD_METADATA, PATH_METADATA } from '@nestjs/common/constants.js';
import { DiscoveryService, MetadataScanner, Reflector } from '@nestjs/core';
import { describeRouteAuth, ROUTE_AUTH, type RouteAuth } from './route-auth.js';

export interface RouteEntry {
  method: string;
  path: string;
  auth: string;
}

/**
 * Lists every HTTP handler with its declared authorisation. The app refuses to start when a
 * handler declares none, and a test snapshots the list so permission changes show in review.
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
  }

  list(): RouteEntry[] {
    const routes: RouteEntry[] = [];
    for (const wrapper of this.discovery.getControllers()) {
      const controller = wrapper.metatype;
      const instance = wrapper.instance as object | undefined;
      if (!controller || !instance) continue;
      const base = normalise(Reflect.getMetadata(PATH_METADATA, controller));
      const prototype = Object.getPrototypeOf(instance) as object;
      for (const name of this.scanner.getAllMethodNames(prototype)) {
        const handler = (prototype as Record<string, unknown>)[name] as (...args: unknown[]) => unknown;
        const subPath = Reflect.getMetadata(PATH_METADATA, handler) as string | string[] | undefined;
        if (subPath === undefined) continue;
        const method = RequestMethod[Reflect.getMetadata(METHOD_METADATA, handler) as RequestMethod];
        const auth = this.reflector.getAllAndOverride<RouteAuth | undefined>(ROUTE_AUTH, [handler, controller]);
        for (const path of Array.isArray(subPath) ? subPath : [subPath]) {
          routes.push({ method, path: `/${[base, normalise(path)].filter(Boolean).join('/')}`, auth: describeRouteAuth(auth) });
        }
      }
    }
    return routes.sort((a, b) => a.path.localeCompare(b.path) || a.method.localeCompare(b.method));
  }
}

function normalise(path: string | undefined): string {
  return (path ?? '').replace(/^\/+|\/+$/g, '');
}
