import { Global, Inject, type MiddlewareConsumer, Module, type NestModule, RequestMethod } from '@nestjs/common';
import { Logger, PARAMS_PROVIDER_TOKEN, type Params, PinoLogger } from 'nestjs-pino';
import { pinoHttp } from 'pino-http';
import { APP_CONFIG, type AppConfig } from '../../config/index.js';
import { loggerOptions } from './logger-options.js';

/**
 * Request logs and the application logger, from nestjs-pino's pieces but without its per-request
 * AsyncLocalStorage context.
 *
 * nestjs-pino's LoggerModule runs every request inside `AsyncLocalStorage.run` so that log lines
 * written by services during a request carry the request. On Node 20 an active AsyncLocalStorage
 * installs V8 promise hooks that run for every promise in the process: 7–18 % of the CPU of the
 * database routes in the profile (docs/benchmarks.md). So this module applies pino-http itself
 * (one line per request, same options, same fields) and gives Nest nestjs-pino's `Logger`, whose
 * lines are written by the process logger: service lines no longer carry the `req` object. The
 * line that needs the correlation most, the unhandled-error line, names `request_id` itself
 * (WpErrorFilter), and every answer carries `X-Request-Id`.
 */
@Global()
@Module({
  providers: [
    { provide: PARAMS_PROVIDER_TOKEN, inject: [APP_CONFIG], useFactory: (config: AppConfig): Params => loggerOptions(config) },
    PinoLogger,
    Logger,
  ],
  exports: [Logger, PinoLogger],
})
export class RequestLoggingModule implements NestModule {
  constructor(@Inject(PARAMS_PROVIDER_TOKEN) private readonly params: Params) {}

  configure(consumer: MiddlewareConsumer): void {
    // `{*path}`: every route, in path-to-regexp 8 syntax (nestjs-pino's `*` made Nest warn at boot).
    consumer.apply(pinoHttp(this.params.pinoHttp as Parameters<typeof pinoHttp>[0])).forRoutes({ path: '{*path}', method: RequestMethod.ALL });
  }
}
