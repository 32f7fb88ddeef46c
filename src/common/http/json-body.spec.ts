import type { INestApplication } from '@nestjs/common';
import express from 'express';
import { request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { installBodyParsers } from './body-parsers.js';
import { readCommonJsonBody } from './json-body.js';

// The real reader, counted: the answers below must come from it where it applies.
jest.mock('./json-body.js', () => {
  const actual = jest.requireActual<typeof import('./json-body.js')>('./json-body.js');
  return { ...actual, readCommonJsonBody: jest.fn(actual.readCommonJsonBody) };
});

/**
 * Differential test of the common JSON body reader (json-body.ts) against body-parser: the same
 * raw requests go to two apps, one with the reader and one without, and every answer (status and
 * body, i.e. the parsed `req.body` or the error) must be the same.
 */

const LIMIT = 64 * 1024;

function appWith(commonJsonReader: boolean): Promise<Server> {
  const app = express();
  installBodyParsers(app as unknown as INestApplication, { webhookPathPrefix: '/webhook/', limit: LIMIT, webhookLimit: 8 * LIMIT, commonJsonReader });
  app.use((req, res) => {
    res.json({ kind: typeof req.body, body: req.body === undefined ? '(undefined)' : req.body, raw: 'rawBody' in req ? 'kept' : 'none' });
  });
  return new Promise((resolve) => {
    const server = app.listen(0, '127.0.0.1', () => resolve(server));
  });
}

function send(server: Server, path: string, headers: Record<string, string>, body: Buffer): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const { port } = server.address() as AddressInfo;
    const req = httpRequest({ host: '127.0.0.1', port, path, method: 'POST', headers: { 'content-length': String(body.length), ...headers } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

const nested = (levels: number) => '{"a":'.repeat(levels) + '1' + '}'.repeat(levels);
const texts = [
  '{"a":1}', '{}', '', ' ', '\t\r\n ', '\n {"a":1} \n', '[1,2]', '[]', '1', '"x"', 'null', 'true', '{"a":', '{"a":1}x', '{a:1}', '{"a":1,}',
  '{"__proto__":{"x":1}}', '{"a":{"constructor":1}}', '{"prototype":1}', nested(31), nested(40), '{"n":1e400}', '{"n":123456789012345678901234567890}',
  '{"s":"😀é\\u0000\\ud800"}', '{"s":"\u2028\u2029"}', '{"payment_id":12,"payment_secret":"s","checkout_token":"t","amount":1000,"currency":"USD","form_id":1,"payment_gateway":"gateway_a","payment_method":"ccard"}',
  `{"big":"${'x'.repeat(LIMIT - 10)}"}`, `{"over":"${'x'.repeat(LIMIT)}"}`, 'x'.repeat(LIMIT - 1), '\uFEFF{"bom":1}', '\uFEFF\uFEFF{"bom":2}', '\uFEFF',
];
const bodies: Buffer[] = [
  ...texts.map((text) => Buffer.from(text, 'utf8')),
  Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0x22, 0x7d]), // invalid UTF-8 inside a string
  Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xe2, 0x82, 0x22, 0x7d]), // a truncated sequence
  Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xed, 0xa0, 0x80, 0x22, 0x7d]), // an encoded surrogate
  Buffer.from([0xef, 0xbb]), // half a BOM
];
const contentTypes = [
  'application/json', 'application/json; charset=utf-8', 'application/json; charset=UTF-8', 'Application/JSON', 'application/json;charset=utf-8',
  'application/json; charset=latin1', 'application/json; charset=utf-16', 'application/vnd.api+json', 'text/plain', 'application/x-www-form-urlencoded',
];

describe('common JSON body reader against body-parser', () => {
  let fast: Server;
  let slow: Server;
  beforeAll(async () => {
    [fast, slow] = await Promise.all([appWith(true), appWith(false)]);
  });
  afterAll(async () => {
    await Promise.all([fast, slow].map((server) => new Promise((resolve) => server.close(resolve))));
  });

  it('answers every request the same, and reads the common ones itself', async () => {
    const taken = readCommonJsonBody as jest.MockedFunction<typeof readCommonJsonBody>;
    taken.mockClear();
    let compared = 0;
    for (const body of bodies) {
      for (const type of contentTypes) {
        for (const path of ['/payment/status', '/webhook/gateway-a-callback/test']) {
          const [a, b] = await Promise.all([send(fast, path, { 'content-type': type }, body), send(slow, path, { 'content-type': type }, body)]);
          const request = { type, path, body: body.toString('latin1').slice(0, 80) };
          expect({ ...request, status: a.status, text: a.text }).toEqual({ ...request, status: b.status, text: b.text });
          compared += 1;
        }
      }
    }
    // Compressed and chunked bodies are left to body-parser, with the same answers.
    const gzipped = gzipSync(Buffer.from('{"z":1}'));
    const [a, b] = await Promise.all([fast, slow].map((server) => send(server, '/x', { 'content-type': 'application/json', 'content-encoding': 'gzip' }, gzipped)));
    expect(a).toEqual(b);
    expect(JSON.parse(a.text).body).toEqual({ z: 1 });

    const results = taken.mock.results.map((result) => result.value as boolean);
    expect(compared).toBe(bodies.length * contentTypes.length * 2);
    // The two exact content types, on the public path, for every body within the limit.
    expect(results.filter(Boolean).length).toBe(2 * bodies.filter((body) => body.length <= LIMIT).length);
  });
});
