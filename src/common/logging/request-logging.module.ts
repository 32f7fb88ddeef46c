import { Global, Module } from '@nestjs/common';
import type { RequestHandler } from 'express';
import { Logger, PARAMS_PROVIDER_TOKEN, type Params, PinoLogger } from 'nestjs-pino';
import { pinoHttp } from 'pino-http';
import { APP_CONFIG, type AppConfig } from '../../config/index.js';
import { AppLogger } from './app-logger.js';
import { loggerOptions } from './logger-options.js';

/** The request-log middleware (pino-http with the service's options): bootstrap installs it first. */
export const REQUEST_LOG_MIDDLEWARE = Symbol('REQUEST_LOG_MIDDLEWARE');

/**
 * Request logs and the application logger, from nestjs-pino's pieces but without its per-request
 * AsyncLocalStorage context.
 *
 * nestjs-pino's LoggerModule runs every request inside `AsyncLocalStorage.run` so that log lines
 * written by services during a request carry the request. On Node 20 an active AsyncLocalStorage
 * installs V8 promise hooks that run for every promise in the process: 7–18 % of the CPU of the
 * database routes in the profile (docs/benchmarks.md). So this module builds pino-http itself
 * (one line per request, same options, same fields) and gives Nest nestjs-pino's `Logger`, whose
 * lines are written by the process logger: service lines no longer carry the `req` object. The
 * line that needs the correlation most, the unhandled-error line, names `request_id` itself
 * (WpErrorFilter), and every answer carries `X-Request-Id`.
 *
 * The middleware is not applied as a Nest middleware (those run after the Express-level CORS and
 * body parsers, whose refusals then had neither a log line nor an `X-Request-Id`): `configureApp`
 * installs it in front of everything (`REQUEST_LOG_MIDDLEWARE`).
 */
@Global()
@Module({
  providers: [
    { provide: PARAMS_PROVIDER_TOKEN, inject: [APP_CONFIG], useFactory: (config: AppConfig): Params => loggerOptions(config) },
    { provide: REQUEST_LOG_MIDDLEWARE, inject: [PARAMS_PROVIDER_TOKEN], useFactory: (params: Params): RequestHandler => pinoHttp(params.pinoHttp as Parameters<typeof pinoHttp>[0]) as RequestHandler },
    PinoLogger,
    Logger,
    AppLogger,
  ],
  exports: [Logger, PinoLogger, AppLogger, REQUEST_LOG_MIDDLEWARE],
})
export class RequestLoggingModule {}
