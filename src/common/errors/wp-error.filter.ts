import { ArgumentsHost, Catch, ExceptionFilter, HttpException, HttpStatus, Logger } from '@nestjs/common';
import { ThrottlerException } from '@nestjs/throttler';
import { randomUUID } from 'node:crypto';
import type { Request, Response } from 'express';
import { QueryFailedError } from 'typeorm';
import { DomainError } from './domain-error.js';
import { wpError, type WpErrorBody } from './wp-error.js';

interface Mapped {
  body: WpErrorBody;
  headers?: Record<string, string>;
}

/**
 * Writes every failure as WP_Error JSON. Domain errors keep their code; framework exceptions are
 * mapped by status; anything unknown is a 500 with an error id (the stack goes to the log only).
 */
@Catch()
export class WpErrorFilter implements ExceptionFilter {
  private readonly logger = new Logger('Errors');

  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const response = http.getResponse<Response>();
    const request = http.getRequest<Request>();
    const mapped = this.map(exception, request);
    if (response.headersSent) return;
    for (const [name, value] of Object.entries(mapped.headers ?? {})) response.setHeader(name, value);
    response.status(mapped.body.data.status).json(mapped.body);
  }

  private map(exception: unknown, request: Request): Mapped {
    if (exception instanceof DomainError) {
      return { body: wpError(exception.code, exception.message, exception.status, exception.data), headers: exception.headers };
    }
    if (exception instanceof ThrottlerException) {
      return { body: wpError('checkout_rate_limited', 'Too many requests. Please try again later.', 429) };
    }
    if (exception instanceof HttpException) {
      return { body: this.fromHttpException(exception) };
    }
    // `request_id` (pino-http's id, also sent as X-Request-Id) ties the line to the request's own
    // log line; service lines carry no request context (src/common/logging/request-logging.module.ts).
    const requestId = (request as Request & { id?: unknown }).id;
    if (isDatabaseDown(exception)) {
      this.logger.error({ err: exception, request_id: requestId }, 'database unavailable');
      return { body: wpError('checkout_unavailable', 'The service is temporarily unavailable.', 503), headers: { 'Retry-After': DATABASE_RETRY_AFTER_SECONDS } };
    }
    const errorId = randomUUID();
    // The path only: a query string can carry credentials (the connect callback's secret_key, code).
    const path = request.originalUrl.split('?')[0];
    this.logger.error({ err: exception, error_id: errorId, request_id: requestId, method: request.method, path }, 'unhandled error');
    return { body: wpError('checkout_internal_error', 'An internal error occurred.', 500, { error_id: errorId }) };
  }

  private fromHttpException(exception: HttpException): WpErrorBody {
    const status = exception.getStatus();
    switch (status) {
      case HttpStatus.NOT_FOUND:
      case HttpStatus.METHOD_NOT_ALLOWED:
        return wpError('rest_no_route', 'No route was found matching the URL and request method.', 404);
      case HttpStatus.UNAUTHORIZED:
        return wpError('rest_not_logged_in', 'You are not currently logged in.', 401);
      case HttpStatus.FORBIDDEN:
        return wpError('rest_forbidden', 'Sorry, you are not allowed to do that.', 403);
      case HttpStatus.PAYLOAD_TOO_LARGE:
        return wpError('checkout_payload_too_large', 'The request body is too large.', 413);
      case HttpStatus.TOO_MANY_REQUESTS:
        return wpError('checkout_rate_limited', 'Too many requests. Please try again later.', 429);
      case HttpStatus.BAD_REQUEST:
        return wpError('rest_invalid_param', 'Invalid request.', 400);
      default:
        if (status >= 500) return wpError('checkout_internal_error', 'An internal error occurred.', status);
        return wpError('rest_error', 'The request could not be processed.', status);
    }
  }
}

/** A client told 503 by a database that cannot serve asks again after this many seconds. */
const DATABASE_RETRY_AFTER_SECONDS = '2';

const CONNECTION_ERROR_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'PROTOCOL_CONNECTION_LOST',
  'PROTOCOL_ENQUEUE_AFTER_FATAL_ERROR',
  'ER_CON_COUNT_ERROR',
  'SQLITE_BUSY',
  'SQLITE_CANTOPEN',
]);

/**
 * Server answers that mean "not now" rather than "wrong" (MySQL/MariaDB error numbers):
 * - 1047 ER_UNKNOWN_COM_ERROR: a Galera node outside the primary component ("WSREP has not yet
 *   prepared node for application use"): cut off from the cluster, joining or donating;
 * - 1180 ER_ERROR_DURING_COMMIT: the commit failed on such a node (the cluster lost it meanwhile);
 * - 2006 / 2013: the server has gone away / lost the connection during a query;
 * - 1053 ER_SERVER_SHUTDOWN: the server is shutting down;
 * - 1213 / 1205: a conflict still lost after the bounded retries (src/database/conflict-retry.ts):
 *   asking again later succeeds.
 */
const UNAVAILABLE_ERRNOS = new Set([1047, 1180, 2006, 2013, 1053, 1213, 1205]);

/**
 * True for a database that cannot serve right now: a driver's connection failure, or a server
 * answer in UNAVAILABLE_ERRNOS (answered 503 `checkout_unavailable` with Retry-After, so callers
 * and balancers retry, never 500).
 */
export function isDatabaseDown(exception: unknown): boolean {
  const candidate = exception instanceof QueryFailedError ? (exception.driverError as { code?: string; errno?: number; message?: string }) : (exception as { code?: string; errno?: number; message?: string } | null);
  if (typeof candidate?.code === 'string' && CONNECTION_ERROR_CODES.has(candidate.code)) return true;
  if (typeof candidate?.errno === 'number' && UNAVAILABLE_ERRNOS.has(candidate.errno)) return true;
  // mysql2 on a connection that already died: "Can't add new command when connection is in closed state" (no code).
  return typeof candidate?.message === 'string' && candidate.message.includes('connection is in closed state');
}
