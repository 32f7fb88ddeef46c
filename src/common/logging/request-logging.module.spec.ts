import { Controller, Get, Logger as NestLogger, Module } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { Writable } from 'node:stream';
import type { RequestHandler } from 'express';
import { PARAMS_PROVIDER_TOKEN } from 'nestjs-pino';
import request from 'supertest';
import { loggerOptions } from './logger-options.js';
import { AppLogger } from './app-logger.js';
import { REQUEST_LOG_MIDDLEWARE, RequestLoggingModule } from './request-logging.module.js';

interface LogLine {
  level: number;
  msg: string;
  context?: string;
  req?: { id: string; method: string; path: string };
  res?: { statusCode: number };
}

const lines: LogLine[] = [];
const sink = new Writable({
  write(chunk: Buffer, _encoding, done) {
    for (const line of chunk.toString('utf8').split('\n').filter(Boolean)) lines.push(JSON.parse(line) as LogLine);
    done();
  },
});

@Controller()
class ProbeController {
  private readonly logger = new NestLogger('Probe');

  @Get('probe')
  probe(): { ok: true } {
    this.logger.log('handler ran');
    return { ok: true };
  }
}

@Module({ imports: [RequestLoggingModule], controllers: [ProbeController] })
class ProbeModule {}

describe('RequestLoggingModule', () => {
  let app: NestExpressApplication;
  let bootLines: LogLine[] = [];

  beforeAll(async () => {
    // The module's only provider that needs configuration is the params; give it a sink to write to.
    const params = { pinoHttp: { ...(loggerOptions({ logLevel: 'debug' }).pinoHttp as object), stream: sink } };
    lines.length = 0;
    const moduleRef = await Test.createTestingModule({ imports: [ProbeModule] })
      .overrideProvider(PARAMS_PROVIDER_TOKEN)
      .useValue(params)
      .compile();
    app = moduleRef.createNestApplication<NestExpressApplication>({ bufferLogs: true });
    app.useLogger(app.get(AppLogger));
    app.use(app.get<RequestHandler>(REQUEST_LOG_MIDDLEWARE));
    await app.init();
    bootLines = lines.splice(0);
  });
  afterAll(() => app.close());

  it('logs one line per request with the request id it echoes, and runs the handler outside a request context', async () => {
    lines.length = 0;
    const res = await request(app.getHttpServer()).get('/probe').set('X-Request-Id', 'probe-request-0001');
    expect(res.status).toBe(200);
    expect(res.headers['x-request-id']).toBe('probe-request-0001');
    expect(res.body).toEqual({ ok: true });

    const requestLines = lines.filter((line) => line.msg === 'request completed');
    expect(requestLines).toEqual([expect.objectContaining({ level: 30, req: expect.objectContaining({ id: 'probe-request-0001', method: 'GET', path: '/probe' }), res: expect.objectContaining({ statusCode: 200 }) })]);
    // A service's line is written by the process logger: its context, no request object. Inside
    // nestjs-pino's per-request AsyncLocalStorage (its LoggerModule, not used) it would carry `req`.
    const serviceLine = lines.find((line) => line.msg === 'handler ran');
    expect(serviceLine).toEqual(expect.objectContaining({ level: 30, context: 'Probe' }));
    expect(serviceLine).not.toHaveProperty('req');
  });

  it('logs an unknown route too, with its request id', async () => {
    lines.length = 0;
    const res = await request(app.getHttpServer()).get('/nowhere').set('X-Request-Id', 'probe-request-0002');
    expect(res.status).toBe(404);
    expect(res.headers['x-request-id']).toBe('probe-request-0002');
    expect(lines.filter((line) => line.msg === 'request completed')).toEqual([
      expect.objectContaining({ level: 30, req: expect.objectContaining({ id: 'probe-request-0002', path: '/nowhere' }), res: expect.objectContaining({ statusCode: 404 }) }),
    ]);
  });

  it('logs the per-module line of a boot at debug (the testing module compiles before the app logger exists)', () => {
    lines.length = 0;
    const logger = app.get(AppLogger);
    logger.log('ProbeModule dependencies initialized', 'InstanceLoader');
    logger.log('kept', 'Probe');
    expect(lines).toEqual([
      expect.objectContaining({ level: 20, context: 'InstanceLoader', msg: 'ProbeModule dependencies initialized' }),
      expect.objectContaining({ level: 30, context: 'Probe', msg: 'kept' }),
    ]);
  });

  it("logs Nest's per-route boot lines at debug, its other lines at info", () => {
    const mapped = bootLines.filter((line) => line.context === 'RouterExplorer');
    expect(mapped).toEqual([expect.objectContaining({ level: 20, msg: expect.stringContaining('Mapped {/probe, GET} route') })]);
    expect(bootLines.filter((line) => line.context === 'RoutesResolver')).toEqual([expect.objectContaining({ level: 20, msg: 'ProbeController {/}:' })]);
    expect(bootLines).toContainEqual(expect.objectContaining({ level: 30, context: 'NestApplication', msg: 'Nest application successfully started' }));
  });
});
