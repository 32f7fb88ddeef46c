import { type CanActivate, type ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Request } from 'express';
import { idempotencyKeyOf } from './idempotency-request.js';
import { type IdempotentCall, IdempotencyService } from './idempotency.service.js';

export const IDEMPOTENT_ROUTE = 'checkout:idempotent-route';
const IDEMPOTENT_CALL = Symbol('checkout:idempotent-call');

type IdempotentHttpRequest = Request & { [IDEMPOTENT_CALL]?: IdempotentCall };

/**
 * The first global guard: on a route declared `@Idempotent(...)` it checks the `Idempotency-Key`
 * header (400 when malformed) and looks the key up, before the rate limiter runs, so that a
 * repeat of a finished creation is not counted by the creation limit (`isIdempotentRepeat`) and a
 * repeat of a running one is 409 at once. Claiming the key waits for the handler, after
 * authorisation and validation: a refused request never holds a key.
 */
@Injectable()
export class IdempotencyGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly idempotency: IdempotencyService,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const route = this.reflector.get<string | undefined>(IDEMPOTENT_ROUTE, context.getHandler());
    if (!route) return true;
    const request = context.switchToHttp().getRequest<IdempotentHttpRequest>();
    const key = idempotencyKeyOf(request.headers['idempotency-key']);
    if (key !== null) request[IDEMPOTENT_CALL] = await this.idempotency.begin(route, key, request.ip);
    return true;
  }
}

/** The key look-up of this request; null when it sent no `Idempotency-Key` (or the route takes none). */
export function idempotentCallOf(request: Request): IdempotentCall | null {
  return (request as IdempotentHttpRequest)[IDEMPOTENT_CALL] ?? null;
}

/** True when the request repeats a key that already finished: it creates nothing (a replay or a 422). */
export function isIdempotentRepeat(request: Request): boolean {
  return idempotentCallOf(request)?.finished != null;
}
