/**
 * Baseline 2 of `npm run bench`: a bare NestJS 11 app on Express (the framework's defaults: body
 * parsers on, no global guards, pipes, filters or request logging) with one `@Get` returning JSON.
 * Every ratio in the report is taken against this route, measured in the same run.
 */
import 'reflect-metadata';
import { Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { HealthController } from './health.controller.js';

@Module({ controllers: [HealthController] })
class BareModule {}

async function main(): Promise<void> {
  const app = await NestFactory.create(BareModule, { logger: ['error', 'warn'] });
  await app.listen(Number(process.env.PORT ?? 0), '127.0.0.1');
}

void main();
