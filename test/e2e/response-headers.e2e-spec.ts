import { Writable } from 'node:stream';
import request from 'supertest';
import { TagsService } from '../../src/modules/tagging/tags.service.js';
import { expectWpError } from '../support/http.js';
import { connectGateway, createPaymentForm, referenceOf, type SyncAnswer } from '../support/payment-fixtures.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

interface LogLine {
  level: number;
  msg: string;
  req?: { id: string; method: string; path: string };
  res?: { statusCode: number };
}

const SHOP = 'https://shop.example';

/**
 * What every answer carries, whatever answered it (a body parser's refusal, the CORS preflight, a
 * 404, a guard, a handler, the error filter): `X-Request-Id`, `X-Content-Type-Options: nosniff`,
 * `Cache-Control: no-store` unless the route chose its own caching, and one request-log line with
 * the same id, at info for 2xx–4xx and error for 5xx.
 */
describe('response headers and the request log of every answer', () => {
  let t: TestApp;
  let formId: number;
  const lines: LogLine[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString('utf8').split('\n').filter(Boolean)) lines.push(JSON.parse(line) as LogLine);
      done();
    },
  });

  beforeAll(async () => {
    t = await startTestApp({ CORS_ORIGINS: SHOP, BODY_LIMIT_BYTES: '2048', RATE_LIMIT_NEW_PAYMENT: '10000', RATE_LIMIT_PUBLIC_PAYMENT: '10000' }, { logStream: sink });
    await connectGateway(t, 'gateway_a');
    formId = (await createPaymentForm(t)).id;
  });
  afterAll(() => t.close());

  /** The request-log line of the answer with this id (pino-http writes it once the answer is sent). */
  const logLineOf = async (id: string): Promise<LogLine[]> => {
    for (let attempt = 0; attempt < 50; attempt++) {
      const found = lines.filter((line) => line.req?.id === id && line.msg !== undefined && line.res !== undefined);
      if (found.length > 0) return found;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    return [];
  };

  const json = (path: string, body: string, contentType = 'application/json') =>
    request(t.http).post(`${t.base}${path}`).set('Content-Type', contentType).send(body);

  const cases: Array<{ name: string; status: number; code?: string; send: () => request.Test }> = [
    { name: 'invalid JSON', status: 400, code: 'rest_invalid_json', send: () => json('/payment/status', '{"payment_id": 1,') },
    { name: 'a body over BODY_LIMIT_BYTES', status: 413, code: 'checkout_payload_too_large', send: () => json('/payment/status', JSON.stringify({ note: 'x'.repeat(4096) })) },
    { name: 'a charset the JSON parser does not read', status: 400, code: 'rest_invalid_request', send: () => json('/tags', '{"tag":"x"}', 'application/json; charset=latin1') },
    { name: 'a form body with too many parameters', status: 413, code: 'checkout_payload_too_large', send: () => json('/tags', Array.from({ length: 250 }, (_, i) => `k${i}=1`).join('&'), 'application/x-www-form-urlencoded') },
    { name: 'a body nested too deep', status: 400, code: 'rest_invalid_json', send: () => json('/payment/status', `${'{"a":'.repeat(40)}1${'}'.repeat(40)}`) },
    { name: 'a reserved field name', status: 400, code: 'rest_invalid_param', send: () => json('/payment/status', '{"__proto__":{"x":1}}') },
    { name: 'an unknown route in the namespace', status: 404, code: 'rest_no_route', send: () => request(t.http).get(`${t.base}/no-such-route`) },
    { name: 'an unknown path outside it', status: 404, send: () => request(t.http).get('/no-such-page') },
    { name: 'an admin route without credentials', status: 401, send: () => request(t.http).get(`${t.base}/settings`) },
    { name: 'a CORS preflight', status: 204, send: () => request(t.http).options(`${t.base}/payment/sync-details`).set('Origin', SHOP).set('Access-Control-Request-Method', 'POST') },
    { name: 'a health probe', status: 200, send: () => request(t.http).get('/readyz') },
  ];

  it.each(cases)('$name: $status with X-Request-Id, nosniff, no-store and one log line at info', async ({ name, status, code, send }) => {
    const id = `hdr-${name.replace(/[^a-z]+/gi, '-').slice(0, 40)}`;
    const res = await send().set('X-Request-Id', id);
    expect(res.status).toBe(status);
    if (code) expectWpError(res.body, code, status);
    expect(res.headers['x-request-id']).toBe(id);
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['cache-control']).toBe('no-store');
    expect(await logLineOf(id)).toEqual([expect.objectContaining({ level: 30, msg: 'request completed', res: expect.objectContaining({ statusCode: status }) })]);
  });

  it('gives an answer without a usable X-Request-Id a new one, and logs it under that id', async () => {
    const res = await json('/payment/status', '{oops').set('X-Request-Id', 'no');
    expect(res.status).toBe(400);
    const id = res.headers['x-request-id'] as string;
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    expect(await logLineOf(id)).toEqual([expect.objectContaining({ req: expect.objectContaining({ method: 'POST', path: `${t.base}/payment/status` }) })]);
  });

  it('logs a 5xx answer at error', async () => {
    const spy = jest.spyOn(t.app.get(TagsService), 'list').mockRejectedValueOnce(new Error('boom'));
    const res = await request(t.http).get(`${t.base}/tags`).set('Authorization', t.admin.auth).set('X-Request-Id', 'hdr-server-failure');
    spy.mockRestore();
    expect(res.status).toBe(500);
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(await logLineOf('hdr-server-failure')).toEqual([expect.objectContaining({ level: 50, res: expect.objectContaining({ statusCode: 500 }) })]);
  });

  describe('Cache-Control: no-store on every answer that carries a secret or a token', () => {
    /** `METHOD /path` of every operation whose success answer has a field named like a secret or a token. */
    const operationsWithSecrets = async (): Promise<string[]> => {
      const document = (await request(t.http).get('/docs-json')).body as {
        paths: Record<string, Record<string, { responses?: Record<string, unknown> }>>;
        components: { schemas: Record<string, unknown> };
      };
      const found: string[] = [];
      for (const [path, operations] of Object.entries(document.paths)) {
        for (const [method, operation] of Object.entries(operations)) {
          const successes = Object.entries(operation.responses ?? {}).filter(([status]) => /^2/.test(status));
          if (successes.some(([, response]) => fieldNames(response, document.components.schemas).some((name) => /secret|token/.test(name)))) found.push(`${method.toUpperCase()} ${path}`);
        }
      }
      return found.sort();
    };

    it('finds them in the OpenAPI document, and each answers with no-store and nosniff', async () => {
      const found = await operationsWithSecrets();
      // The walk must see at least these (payment secret, checkout token, the provider's client secret, webhook secrets).
      expect(found).toEqual(
        expect.arrayContaining([
          'GET /webhook/status',
          'POST /gateway-a/payment-intent-or-setup',
          'POST /payment-gateway/save-settings',
          'POST /payment-gateway/save-webhook-settings',
          'POST /payment/sync-details',
          'POST /webhook/rotate-secret',
        ]),
      );
      for (const operation of found) {
        const [method, path] = operation.split(' ');
        const res = await request(t.http)[method.toLowerCase() as 'get' | 'post'](`${t.base}${path}`).set('Authorization', t.admin.auth).send({});
        expect({ operation, status: res.status < 500, cacheControl: res.headers['cache-control'], nosniff: res.headers['x-content-type-options'] }).toEqual({
          operation,
          status: true,
          cacheControl: 'no-store',
          nosniff: 'nosniff',
        });
      }
    });

    it('on the success answers that carry them: sync-details, payment status, the webhook secret and signing secret', async () => {
      const created = await request(t.http).post(`${t.base}/payment/sync-details`).send({ form_id: formId, payment_gateway: 'gateway_a', payment_method: 'ccard' });
      expect(created.status).toBe(201);
      expect(created.body).toEqual(expect.objectContaining({ payment_secret: expect.any(String), checkout_token: expect.any(String) }));
      expect(created.headers['cache-control']).toBe('no-store');

      const status = await request(t.http).post(`${t.base}/payment/status`).send(referenceOf(created.body as SyncAnswer, formId));
      expect(status.status).toBe(200);
      expect(status.headers['cache-control']).toBe('no-store');

      const rotated = await request(t.http).post(`${t.base}/webhook/rotate-secret`).set('Authorization', t.admin.auth);
      expect(rotated.status).toBe(200);
      expect(rotated.body.secret).toEqual(expect.any(String));
      expect(rotated.headers['cache-control']).toBe('no-store');

      const webhookStatus = await request(t.http).get(`${t.base}/webhook/status`).set('Authorization', t.admin.auth);
      expect(webhookStatus.status).toBe(200);
      expect(webhookStatus.headers['cache-control']).toBe('no-store');

      const signing = await request(t.http)
        .post(`${t.base}/payment-gateway/save-webhook-settings`)
        .set('Authorization', t.admin.auth)
        .send({ gateway: 'gateway_a', mode: 'test', signing_secret: 'whsec_headerTestSecret0123456789', manual_configuration_complete: true });
      expect(signing.status).toBe(200);
      expect(signing.headers['cache-control']).toBe('no-store');
    });

    it('a public answer meant to be cached keeps its own Cache-Control (and nosniff)', async () => {
      const script = await request(t.http).get('/pay/embed.js');
      expect(script.status).toBe(200);
      expect(script.headers['cache-control']).toBe('public, max-age=300');
      expect(script.headers['x-content-type-options']).toBe('nosniff');
    });
  });
});

/** Every property name in a schema (following `$ref`s into the components, each once). */
function fieldNames(schema: unknown, components: Record<string, unknown>, seen = new Set<string>()): string[] {
  if (Array.isArray(schema)) return schema.flatMap((item) => fieldNames(item, components, seen));
  if (typeof schema !== 'object' || schema === null) return [];
  const names: string[] = [];
  for (const [key, value] of Object.entries(schema)) {
    if (key === '$ref' && typeof value === 'string') {
      const name = value.split('/').pop()!;
      if (seen.has(name)) continue;
      seen.add(name);
      names.push(...fieldNames(components[name], components, seen));
    } else if (key === 'properties' && typeof value === 'object' && value !== null) {
      for (const [property, child] of Object.entries(value)) names.push(property, ...fieldNames(child, components, seen));
    } else {
      names.push(...fieldNames(value, components, seen));
    }
  }
  return names;
}
