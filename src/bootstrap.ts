import { type INestApplication, RequestMethod } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { Logger } from 'nestjs-pino';
import { AppModule } from './app.module.js';
import { installBodyParsers, installCors, installOpenApi } from './common/http/index.js';
import { APP_CONFIG, type AppConfig, REST_NAMESPACE } from './config/index.js';
import { ADMIN_CONSOLE_ROUTES } from './modules/admin-console/index.js';
import { HOSTED_PAGE_ROUTES } from './modules/hosted-page/index.js';

export function restPrefix(config: Pick<AppConfig, 'restRoot'>): string {
  return `${config.restRoot}/${REST_NAMESPACE}`;
}

/** Everything main.ts and the e2e tests share: parsers, prefix, OpenAPI, logger, shutdown hooks. */
export function configureApp(app: NestExpressApplication): INestApplication {
  const config = app.get<AppConfig>(APP_CONFIG);
  app.useLogger(app.get(Logger));
  app.disable('x-powered-by');
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
      ...HOSTED_PAGE_ROUTES,
      ...ADMIN_CONSOLE_ROUTES,
    ],
  });
  installOpenApi(app);
  app.enableShutdownHooks();
  return app;
}

export async function createApp(module: unknown = AppModule): Promise<NestExpressApplication> {
  const app = await NestFactory.create<NestExpressApplication>(module as typeof AppModule, { bodyParser: false, bufferLogs: true });
  configureApp(app);
  return app;
}
