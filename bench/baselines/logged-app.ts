/**
 * The app of baselines 3 and 4: the bare NestJS app of baseline 2 plus the one thing issue 13
 * keeps on every request, the service's request log (the same pino-http middleware with the
 * service's own options, at `LOG_LEVEL`, default info, one JSON line per request to stdout, which
 * the bench sends where it sends the service's). No guards, pipes, filters or database.
 */
import 'reflect-metadata';
import { type INestApplication, type MiddlewareConsumer, Module, type NestModule, RequestMethod } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { HealthController } from './health.controller.js';
import { pinoHttp } from 'pino-http';
import { loggerOptions } from '../../src/common/logging/index.js';

@Module({ controllers: [HealthController] })
class LoggedModule implements NestModule {
  configure(consumer: MiddlewareConsumer): void {
    const options = loggerOptions({ logLevel: process.env.LOG_LEVEL ?? 'info' }).pinoHttp;
    consumer.apply(pinoHttp(options as Parameters<typeof pinoHttp>[0])).forRoutes({ path: '{*path}', method: RequestMethod.ALL });
  }
}

export function createLoggedApp(): Promise<INestApplication> {
  return NestFactory.create(LoggedModule, { logger: ['error', 'warn'] });
}
