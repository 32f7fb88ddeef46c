import { once } from 'node:events';
import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { pinoHttp, type Options } from 'pino-http';
import { createHash } from 'node:crypto';
import { hashedValue, logAsRoutine, loggerOptions, pathOf, REDACTED } from './logger-options.js';

interface LogLine {
  level: number;
  msg: string;
  service: string;
  responseTime: number;
  req: { id: string; method: string; path: string; headers: Record<string, unknown> };
  res: { statusCode: number; headers: Record<string, unknown> };
}

/** Runs one request through pino-http with the service's options and returns the parsed log lines. */
async function logOf(headers: Record<string, string>, path = '/wp-json/checkout/v1/settings?code=oauth-code-123', setCookie?: string, status = 200, routine = false): Promise<LogLine[]> {
  const lines: string[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
      done();
    },
  });
  const middleware = pinoHttp(loggerOptions({ logLevel: 'info' }).pinoHttp as Options, sink);
  const server: Server = createServer((req, res) => {
    middleware(req, res);
    if (setCookie) res.setHeader('Set-Cookie', setCookie);
    res.setHeader('Content-Type', 'application/json');
    res.statusCode = status;
    if (routine) logAsRoutine(res);
    res.end('{"ok":true}');
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  try {
    const { port } = server.address() as AddressInfo;
    await new Promise<void>((resolve, reject) => {
      const req = httpRequest({ host: '127.0.0.1', port, path, headers }, (res) => {
        res.resume();
        res.on('end', resolve);
      });
      req.on('error', reject);
      req.end();
    });
    // pino-http logs on the response's 'finish'; give the write a turn.
    await new Promise((resolve) => setImmediate(resolve));
  } finally {
    server.close();
  }
  return lines.map((line) => JSON.parse(line) as LogLine);
}

describe('request log options', () => {
  it('logs one line per request with id, method, path without the query, status and service', async () => {
    const [line, ...rest] = await logOf({ 'x-request-id': 'abcdefgh-1234', 'user-agent': 'jest' });
    expect(rest).toEqual([]);
    expect(line).toMatchObject({
      level: 30,
      service: 'checkout-api',
      msg: 'request completed',
      req: { id: 'abcdefgh-1234', method: 'GET', path: '/wp-json/checkout/v1/settings', headers: { 'user-agent': 'jest' } },
      res: { statusCode: 200 },
    });
    expect(typeof line.responseTime).toBe('number');
    expect(JSON.stringify(line)).not.toContain('oauth-code-123');
  });

  it('logs a refused request (4xx) at info and a failed one (5xx) at error', async () => {
    const levels: Record<number, number> = {};
    for (const status of [201, 304, 400, 404, 413, 429, 500, 502, 503]) {
      const [line] = await logOf({}, '/x', undefined, status);
      expect(line.res.statusCode).toBe(status);
      levels[status] = line.level;
    }
    expect(levels).toEqual({ 201: 30, 304: 30, 400: 30, 404: 30, 413: 30, 429: 30, 500: 50, 502: 50, 503: 50 });
  });

  it('logs a 5xx marked routine (/readyz while shutting down) at info', async () => {
    const [line] = await logOf({}, '/readyz', undefined, 503, true);
    expect(line).toMatchObject({ level: 30, res: { statusCode: 503 } });
  });

  it('never writes credentials or signatures, in request or response headers', async () => {
    const secrets = {
      authorization: 'Basic YWRtaW46c2VjcmV0LXBhc3N3b3Jk',
      cookie: 'checkout_console_session=cookie-secret',
      'x-wp-nonce': 'console-session-nonce-secret',
      'gateway-a-signature': 't=1,v1=sig-a-secret',
      'stripe-signature': 't=1,v1=sig-stripe-secret',
      'checkout-signature': 'sig-checkout-secret',
      'paypal-transmission-sig': 'sig-paypal-secret',
    };
    const [line] = await logOf(secrets, '/x', 'sid=set-cookie-secret');
    for (const name of Object.keys(secrets)) expect(line.req.headers[name]).toBe(REDACTED);
    expect(line.res.headers['set-cookie']).toBe(REDACTED);
    const text = JSON.stringify(line);
    for (const value of [...Object.values(secrets), 'sid=set-cookie-secret']) expect(text).not.toContain(value);
  });

  it('logs an Idempotency-Key only as a hash of it (the same key, the same hash)', async () => {
    const key = 'b6f0c5a2-1d3e-4f5a-9b8c-7d6e5f4a3b2c';
    const [first] = await logOf({ 'idempotency-key': key }, '/wp-json/checkout/v1/payment/sync-details');
    const [again] = await logOf({ 'idempotency-key': key }, '/wp-json/checkout/v1/payment/sync-details');
    const [other] = await logOf({ 'idempotency-key': `${key}-2` }, '/wp-json/checkout/v1/payment/sync-details');
    const expected = `sha256:${createHash('sha256').update(key).digest('hex').slice(0, 16)}`;
    expect(first.req.headers['idempotency-key']).toBe(expected);
    expect(hashedValue(key)).toBe(expected);
    expect(again.req.headers['idempotency-key']).toBe(expected);
    expect(other.req.headers['idempotency-key']).not.toBe(expected);
    expect(JSON.stringify(first)).not.toContain(key);
    expect(JSON.stringify(first)).not.toContain(key.slice(0, 8));
  });

  it('leaves the request headers themselves untouched (the redaction works on a copy)', async () => {
    let seen: string | undefined;
    const middleware = pinoHttp(loggerOptions({ logLevel: 'info' }).pinoHttp as Options, new Writable({ write: (_c, _e, done) => done() }));
    const server = createServer((req, res) => {
      middleware(req, res);
      res.on('finish', () => setImmediate(() => (seen = req.headers.authorization)));
      res.end('ok');
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    const { port } = server.address() as AddressInfo;
    await new Promise<void>((resolve, reject) => {
      const req = httpRequest({ host: '127.0.0.1', port, path: '/', headers: { authorization: 'Basic abc' } }, (res) => res.resume().on('end', resolve));
      req.on('error', reject);
      req.end();
    });
    await new Promise((resolve) => setTimeout(resolve, 20));
    server.close();
    expect(seen).toBe('Basic abc');
  });
});

describe('pathOf', () => {
  it("writes a payer's manage token as [token], below it too, and drops the query string", () => {
    expect(pathOf('/pay/manage/AbC-d_e123?x=1')).toBe('/pay/manage/[token]');
    expect(pathOf('/pay/manage/AbC-d_e123/receipts/42')).toBe('/pay/manage/[token]/receipts/42');
    expect(pathOf('/pay/manage')).toBe('/pay/manage');
    expect(pathOf('/pay/12')).toBe('/pay/12');
  });
});
