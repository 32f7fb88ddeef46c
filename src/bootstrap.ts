import { type INestApplication, RequestMethod } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import type { RequestHandler } from 'express';
import { AppModule } from './app.module.js';
import { installBodyParsers, installCors, installOpenApi, installResponseHeaders } from './common/http/index.js';
import { AppLogger, REQUEST_LOG_MIDDLEWARE } from './common/logging/index.js';
import { Metrics } from './common/metrics/index.js';
import { GracefulShutdown } from './common/shutdown/index.js';
import { APP_CONFIG, type AppConfig, REST_NAMESPACE } from './config/index.js';
import { ADMIN_CONSOLE_PATH, ADMIN_CONSOLE_ROUTES } from './modules/admin-console/index.js';
import { HOSTED_PAGE_PATH, HOSTED_PAGE_ROUTES } from './modules/hosted-page/index.js';
import { PAYER_MANAGE_ROUTES } from './modules/payer-manage/index.js';

export function restPrefix(config: Pick<AppConfig, 'restRoot'>): string {
  return `${config.restRoot}/${REST_NAMESPACE}`;
}

/**
 * The pages a person opens, by name, for the boot line (main.ts). A new page served by the
 * service (an admin console at `/admin/`) gets its entry here.
 */
export function serviceUrls(config: Pick<AppConfig, 'restRoot' | 'publicBaseUrl'>): Record<string, string> {
  const base = config.publicBaseUrl;
  return {
    api: `${base}/${restPrefix(config)}`,
    swagger_ui: `${base}/docs`,
    hosted_page: `${base}${HOSTED_PAGE_PATH}`,
    admin_console: `${base}${ADMIN_CONSOLE_PATH}`,
  };
}

/** The boot line's message: where the service listens and each of `serviceUrls`. */
export function bootMessage(config: Pick<AppConfig, 'host' | 'port'>, urls: Record<string, string>): string {
  const pages = Object.entries(urls).map(([name, url]) => `${name.replace(/_/g, ' ')} ${url}`);
  return [`Checkout API listening on ${config.host}:${config.port}`, ...pages].join(' | ');
}

/** Everything main.ts and the e2e tests share: parsers, prefix, OpenAPI, logger, the connection count of the shutdown. */
export function configureApp(app: NestExpressApplication): INestApplication {
  const config = app.get<AppConfig>(APP_CONFIG);
  app.useLogger(app.get(AppLogger));
  app.disable('x-powered-by');
  // First of all: every answer, a CORS preflight's or a body parser's refusal included, gets its
  // X-Request-Id, its log line and the headers every answer carries.
  app.use(app.get<RequestHandler>(REQUEST_LOG_MIDDLEWARE));
  app.use(app.get(Metrics).httpMiddleware());
  installResponseHeaders(app);
  // TRUST_PROXY trusts the one proxy in front: req.ip is the address that proxy saw, so a client
  // cannot pick its own rate-limit key by sending X-Forwarded-For itself.
  app.set('trust proxy', config.trustProxy ? 1 : false);
  app.set('query parser', 'extended');
  const prefix = restPrefix(config);
  installCors(app, { pathPrefix: `/${prefix}`, origins: config.corsOrigins });
  installBodyParsers(app, {
    webhookPathPrefix: `/${prefix}/webhook/`,
    limit: config.bodyLimitBytes,
    webhookLimit: config.webhookBodyLimitBytes,
  });
  app.setGlobalPrefix(prefix, {
    exclude: [
      { path: 'healthz', method: RequestMethod.GET },
      { path: 'readyz', method: RequestMethod.GET },
      { path: 'metrics', method: RequestMethod.GET },
      ...PAYER_MANAGE_ROUTES,
      ...HOSTED_PAGE_ROUTES,
      ...ADMIN_CONSOLE_ROUTES,
    ],
  });
  installOpenApi(app);
  // Counts connections from the first one; main.ts hands it the signals (no enableShutdownHooks: see GracefulShutdown).
  app.get(GracefulShutdown).attach(app);
  return app;
}

export async function createApp(module: unknown = AppModule): Promise<NestExpressApplication> {
  const app = await NestFactory.create<NestExpressApplication>(module as typeof AppModule, { bodyParser: false, bufferLogs: true });
  configureApp(app);
  return app;
}
