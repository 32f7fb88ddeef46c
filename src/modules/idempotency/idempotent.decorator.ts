import { applyDecorators, type CallHandler, createParamDecorator, type ExecutionContext, type NestInterceptor, SetMetadata, UseInterceptors } from '@nestjs/common';
import { ApiHeader } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { type Observable, tap } from 'rxjs';
import { ApiErrorResponses } from '../../common/openapi/index.js';
import { IDEMPOTENT_ROUTE, idempotentCallOf } from './idempotency.guard.js';
import { IDEMPOTENCY_HEADER, IDEMPOTENCY_KEY_MAX_LENGTH, IDEMPOTENCY_KEY_PATTERN } from './idempotency-request.js';

/** Sent (`true`) on an answer that repeats a finished request's result instead of running it. */
export const IDEMPOTENT_REPLAYED_HEADER = 'Idempotent-Replayed';

/** Marks a replayed answer with `Idempotent-Replayed: true`. */
class IdempotentReplayedHeader implements NestInterceptor {
  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const http = context.switchToHttp();
    return next.handle().pipe(
      tap(() => {
        if (idempotentCallOf(http.getRequest<Request>())?.replayed) http.getResponse<Response>().setHeader(IDEMPOTENT_REPLAYED_HEADER, 'true');
      }),
    );
  }
}

/**
 * Declares a creating POST idempotent under `route` (the name its keys are stored under): it takes
 * an optional `Idempotency-Key` header (IdempotencyGuard), the handler reads the key's call with
 * `@Idempotency()` and runs through `IdempotencyService.run`. Documents the header and the 422.
 */
export function Idempotent(route: string): MethodDecorator {
  return applyDecorators(
    SetMetadata(IDEMPOTENT_ROUTE, route),
    UseInterceptors(new IdempotentReplayedHeader()),
    ApiHeader({
      name: IDEMPOTENCY_HEADER,
      required: false,
      description:
        'A key of your choice (a random UUID) that makes a retry safe: a repeat of this request (same key, same body, from the same client) within 24 hours ' +
        `answers as the first did (marked \`${IDEMPOTENT_REPLAYED_HEADER}: true\`) and creates nothing. While the first still runs: 409 ` +
        '`checkout_idempotency_in_progress` with Retry-After; the key with another body: 422 `checkout_idempotency_mismatch`. A failed first request frees the key.',
      schema: { type: 'string', minLength: 1, maxLength: IDEMPOTENCY_KEY_MAX_LENGTH, pattern: IDEMPOTENCY_KEY_PATTERN },
    }),
    ApiErrorResponses(422),
  );
}

/** The handler's `Idempotency-Key` call (null without the header); bind it to the body with `idempotentRequest`. */
export const Idempotency = createParamDecorator((_data: unknown, context: ExecutionContext) => idempotentCallOf(context.switchToHttp().getRequest<Request>()));

/**
 * Documents `Idempotency-Key` on an admin POST whose keys belong to the authenticated caller and
 * the object it acts on (not to a client address): the handler reads the header with
 * `idempotencyKeyOf`, begins the call with `IdempotencyService.beginScoped` once the caller is
 * known, runs through `IdempotencyService.run`, and marks a replay with `Idempotent-Replayed`.
 */
export function IdempotentPerCaller(what: string): MethodDecorator {
  return applyDecorators(
    ApiHeader({
      name: IDEMPOTENCY_HEADER,
      required: false,
      description:
        `A fresh key of your choice (a random UUID) per ${what}: a repeat of this request (same key, same body, by the same user on the same object) within 24 hours ` +
        `answers as the first did (marked \`${IDEMPOTENT_REPLAYED_HEADER}: true\`) and does nothing again. While the first still runs: 409 ` +
        '`checkout_idempotency_in_progress` with Retry-After; the key with another body: 422 `checkout_idempotency_mismatch`.',
      schema: { type: 'string', minLength: 1, maxLength: IDEMPOTENCY_KEY_MAX_LENGTH, pattern: IDEMPOTENCY_KEY_PATTERN },
    }),
    ApiErrorResponses(422),
  );
}
