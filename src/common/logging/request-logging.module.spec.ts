import { Controller, Get, Logger as NestLogger, Module } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { Writable } from 'node:stream';
import { Logger, PARAMS_PROVIDER_TOKEN } from 'nestjs-pino';
// nestjs-pino's own request context, which its LoggerModule (not used here) would enter per request.
import { storage } from 'nestjs-pino/storage';
import request from 'supertest';
import { loggerOptions } from './logger-options.js';
import { RequestLoggingModule } from './request-logging.module.js';

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
  probe(): { inRequestContext: boolean; contextEnabled: boolean } {
    this.logger.log('handler ran');
    return { inRequestContext: storage.getStore() !== undefined, contextEnabled: (storage as unknown as { enabled?: boolean }).enabled === true };
  }
}

@Module({ imports: [RequestLoggingModule], controllers: [ProbeController] })
class ProbeModule {}

describe('RequestLoggingModule', () => {
  let app: NestExpressApplication;

  beforeAll(async () => {
    // The module's only provider that needs configuration is the params; give it a sink to write to.
    const params = { pinoHttp: { ...(loggerOptions({ logLevel: 'info' }).pinoHttp as object), stream: sink } };
    const moduleRef = await Test.createTestingModule({ imports: [ProbeModule] })
      .overrideProvider(PARAMS_PROVIDER_TOKEN)
      .useValue(params)
      .compile();
    app = moduleRef.createNestApplication<NestExpressApplication>({ bufferLogs: true });
    app.useLogger(app.get(Logger));
    await app.init();
  });
  afterAll(() => app.close());

  it('logs one line per request with the request id it echoes, and runs the handler without a request context', async () => {
    lines.length = 0;
    const res = await request(app.getHttpServer()).get('/probe').set('X-Request-Id', 'probe-request-0001');
    expect(res.status).toBe(200);
    expect(res.headers['x-request-id']).toBe('probe-request-0001');
    // nestjs-pino's AsyncLocalStorage is never entered, so Node 20 installs no per-promise hooks for it.
    expect(res.body).toEqual({ inRequestContext: false, contextEnabled: false });

    const requestLines = lines.filter((line) => line.msg === 'request completed');
    expect(requestLines).toEqual([expect.objectContaining({ level: 30, req: expect.objectContaining({ id: 'probe-request-0001', method: 'GET', path: '/probe' }), res: expect.objectContaining({ statusCode: 200 }) })]);
    // A service's line is written by the process logger: its context, no request object.
    const serviceLine = lines.find((line) => line.msg === 'handler ran');
    expect(serviceLine).toEqual(expect.objectContaining({ level: 30, context: 'Probe' }));
    expect(serviceLine).not.toHaveProperty('req');
  });
});
