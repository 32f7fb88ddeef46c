import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { ERROR_CATALOG, OPENAPI_TAGS } from '../../src/common/openapi/index.js';
import { connectGateway } from '../support/payment-fixtures.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

type Json = Record<string, unknown>;
type Response = { description?: string; headers?: Record<string, unknown>; content?: Record<string, { schema?: Json; example?: Json }> };
type Operation = {
  operationId: string;
  description?: string;
  tags?: string[];
  requestBody?: { content: Record<string, { schema?: Json; example?: Json; examples?: Record<string, { value: Json }> }> };
  responses: Record<string, Response>;
  security?: Array<Record<string, unknown>>;
};
type Document = {
  servers: Array<{ url: string }>;
  tags: Array<{ name: string; description?: string }>;
  paths: Record<string, Record<string, unknown>>;
  components: { schemas: Record<string, Json> };
};

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch'];
const REDOCLY = join(__dirname, '..', '..', 'node_modules', '@redocly', 'cli', 'bin', 'cli.js');
const REDOCLY_CONFIG = join(__dirname, '..', '..', 'redocly.yaml');
/** redocly's per-instance exceptions, read from beside its config and keyed by the linted file. */
const REDOCLY_IGNORE = join(__dirname, '..', '..', '.redocly.lint-ignore.yaml');
const COMMITTED_DOCUMENT_KEY = 'clients/typescript/openapi.json:';

function operations(document: Document): Array<{ path: string; method: string; operation: Operation }> {
  return Object.entries(document.paths).flatMap(([path, item]) =>
    Object.entries(item)
      .filter(([method]) => METHODS.includes(method))
      .map(([method, operation]) => ({ path, method, operation: operation as Operation })),
  );
}

describe('the OpenAPI document (/docs-json) for API consumers', () => {
  let t: TestApp;
  let document: Document;
  let work: string;
  beforeAll(async () => {
    t = await startTestApp();
    const res = await request(t.http).get('/docs-json');
    expect(res.status).toBe(200);
    document = res.body as Document;
    work = mkdtempSync(join(tmpdir(), 'checkout-openapi-test-'));
  });
  afterAll(async () => {
    rmSync(work, { recursive: true, force: true });
    await t.close();
  });

  it('validates with @apidevtools/swagger-parser', () => {
    // In a plain Node process: swagger-parser's resolver is ESM-only, which Jest's module system cannot load.
    const file = join(work, 'validate.json');
    writeFileSync(file, JSON.stringify(document));
    const script =
      "require('@apidevtools/swagger-parser').validate(process.argv[1]).then(() => console.log('valid'), (e) => { console.log(e.message); process.exitCode = 1; })";
    const result = spawnSync(process.execPath, ['-e', script, file], { encoding: 'utf8', cwd: join(__dirname, '..', '..'), timeout: 60_000 });
    expect(result.stdout.trim()).toBe('valid');
    expect(result.status).toBe(0);
  });

  it('passes redocly lint with the recommended-strict rules (plus tag and operation descriptions): 0 errors, 0 warnings', () => {
    // The project's config and its exceptions, with the exceptions keyed by this copy of the document.
    const file = join(work, 'openapi.json');
    writeFileSync(file, JSON.stringify(document));
    copyFileSync(REDOCLY_CONFIG, join(work, 'redocly.yaml'));
    const ignore = readFileSync(REDOCLY_IGNORE, 'utf8');
    expect(ignore).toContain(`\n${COMMITTED_DOCUMENT_KEY}\n`);
    writeFileSync(join(work, '.redocly.lint-ignore.yaml'), ignore.replace(`\n${COMMITTED_DOCUMENT_KEY}\n`, '\nopenapi.json:\n'));
    const lint = spawnSync(process.execPath, [REDOCLY, 'lint', file, '--config', join(work, 'redocly.yaml'), '--format', 'json'], {
      encoding: 'utf8',
      env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
      timeout: 60_000,
    });
    const report = JSON.parse(lint.stdout) as {
      totals: { errors: number; warnings: number; ignored: number };
      problems: Array<{ ruleId: string; severity: string; message: string; location: Array<{ pointer: string }> }>;
    };
    expect(report.problems.map((p) => `${p.severity} ${p.ruleId} ${p.location[0]?.pointer}: ${p.message}`)).toEqual([]);
    expect(report.totals).toMatchObject({ errors: 0, warnings: 0 });
    // The one exception (the OAuth return answers 302, never 2xx) is still needed: it goes when it is not.
    expect(report.totals.ignored).toBe(1);
  });

  it('gives the real base in `servers`, with paths relative to it (the probes from the root)', async () => {
    expect(document.servers).toEqual([expect.objectContaining({ url: '/wp-json/checkout/v1' })]);
    expect(Object.keys(document.paths).some((path) => path.startsWith('/wp-json'))).toBe(false);
    expect((document.paths['/healthz'] as { servers?: unknown }).servers).toEqual([expect.objectContaining({ url: '/' })]);
    // The base is where the routes are: server URL + path reaches the route.
    const res = await request(t.http).get(`${document.servers[0].url}/plugin/info`).set('Authorization', t.admin.auth);
    expect(res.status).toBe(200);
  });

  it('follows REST_ROOT in `servers`', async () => {
    const other = await startTestApp({ REST_ROOT: 'api' });
    try {
      const res = await request(other.http).get('/docs-json');
      expect(res.body.servers[0].url).toBe('/api/checkout/v1');
    } finally {
      await other.close();
    }
  });

  it('has the twelve tags, each described, and every operation uses one of them and has a description', () => {
    expect(document.tags.map((tag) => tag.name).sort()).toEqual(
      ['Checkout', 'Forms', 'Gateways', 'Operations', 'Payments', 'Plugin', 'Settings', 'Sign-in', 'Tags', 'Team', 'Templates', 'Webhooks'].sort(),
    );
    for (const tag of document.tags) expect(tag.description?.length ?? 0).toBeGreaterThan(30);
    const names = new Set(OPENAPI_TAGS.map((tag) => tag.name));
    for (const { path, method, operation } of operations(document)) {
      const where = `${method} ${path}`;
      expect({ where, tags: operation.tags?.every((tag) => names.has(tag)) }).toEqual({ where, tags: true });
      expect({ where, described: (operation.description ?? '').length > 20 }).toEqual({ where, described: true });
    }
  });

  it('documents the live preview with OpenAPI methods only, and no body on GET/HEAD/OPTIONS/DELETE', () => {
    const item = document.paths['/administration/payment-forms/{id}/live-preview'];
    expect(Object.keys(item).filter((key) => !['parameters', 'summary', 'description', 'servers'].includes(key)).sort()).toEqual(
      ['delete', 'get', 'head', 'options', 'patch', 'post', 'put'],
    );
    for (const method of ['get', 'head', 'options', 'delete']) expect((item[method] as Operation).requestBody).toBeUndefined();
    for (const method of ['post', 'put', 'patch']) expect((item[method] as Operation).requestBody).toBeDefined();
  });

  it('gives each error status its own schema (code as an enum), example and JSON content type', () => {
    for (const { path, method, operation } of operations(document)) {
      for (const [code, response] of Object.entries(operation.responses)) {
        const status = Number(code);
        if (status < 400) continue;
        const where = `${method} ${path} ${status}`;
        expect({ where, types: Object.keys(response.content ?? {}) }).toEqual({ where, types: ['application/json'] });
        const body = response.content!['application/json'];
        expect(body.schema).toEqual({ $ref: `#/components/schemas/WpError${status}` });
        const schema = document.components.schemas[`WpError${status}`] as { properties: { code: { enum: string[] } } };
        expect(schema.properties.code.enum).toEqual([...ERROR_CATALOG[status].codes]);
        expect({ where, status: (body.example as { data: { status: number } }).data.status }).toEqual({ where, status });
        expect(schema.properties.code.enum).toContain(body.example!.code);
      }
    }
    // 404s of routes whose success is not JSON are JSON too.
    expect(Object.keys((document.paths['/bundled-templates/{slug}/preview.svg'].get as Operation).responses['404'].content!)).toEqual(['application/json']);
    expect(Object.keys((document.paths['/administration/payment-forms/{id}/live-preview'].get as Operation).responses['404'].content!)).toEqual([
      'application/json',
    ]);
  });

  it('declares 500 everywhere, 413 wherever a body is read, 429 with Retry-After where limits apply', () => {
    for (const { path, method, operation } of operations(document)) {
      const where = `${method} ${path}`;
      expect({ where, has500: '500' in operation.responses }).toEqual({ where, has500: true });
      if (['post', 'put', 'patch'].includes(method)) expect({ where, has413: '413' in operation.responses }).toEqual({ where, has413: true });
      const admin = JSON.stringify(operation.security ?? []).includes('application_password');
      if (admin) expect({ where, has429: '429' in operation.responses }).toEqual({ where, has429: true });
      if (operation.responses['429']) expect(operation.responses['429'].headers).toHaveProperty('Retry-After');
    }
    expect((document.paths['/payment/sync-details'].post as Operation).responses).toHaveProperty('429');
  });

  it('documents Idempotency-Key on the creating POSTs (and only there), with the 409 to retry, the 422 and the replay header', () => {
    const creating = ['/payment/sync-details', '/gateway-a/payment-intent-or-setup', '/gateway-b/order', '/administration/payments/{id}/refunds'];
    for (const { path, method, operation } of operations(document)) {
      const parameters = ((operation as Json).parameters ?? []) as Array<{ in: string; name: string; required?: boolean; schema?: Json }>;
      const header = parameters.find((parameter) => parameter.in === 'header' && parameter.name === 'Idempotency-Key');
      expect({ where: `${method} ${path}`, idempotent: header !== undefined }).toEqual({ where: `${method} ${path}`, idempotent: method === 'post' && creating.includes(path) });
      if (!header) continue;
      expect(header).toMatchObject({ required: false, schema: { type: 'string', minLength: 1, maxLength: 255 } });
      expect(operation.responses['409'].headers).toHaveProperty('Retry-After');
      expect(operation.responses['422'].content!['application/json'].schema).toEqual({ $ref: '#/components/schemas/WpError422' });
      const success = Object.entries(operation.responses).filter(([status]) => status.startsWith('2'));
      expect(success.length).toBeGreaterThan(0);
      for (const [, response] of success) expect(response.headers).toHaveProperty('Idempotent-Replayed');
    }
    expect(document.components.schemas.WpError409).toMatchObject({ properties: { code: { enum: expect.arrayContaining(['checkout_idempotency_in_progress']) } } });
    expect(document.components.schemas.WpError422).toMatchObject({ properties: { code: { enum: ['checkout_idempotency_mismatch'] } } });
  });

  it('declares the paging headers of the paged lists; the keyset-paged admin lists also their cursor and estimate', () => {
    const headersOf = (path: string) => Object.keys((document.paths[path].get as Operation).responses['200'].headers ?? {}).sort();
    for (const path of ['/payment/history', '/administration/payment-forms']) {
      expect(headersOf(path)).toEqual(['X-WP-Total', 'X-WP-TotalPages']);
    }
    for (const path of ['/administration/webhook-events', '/administration/payments']) {
      expect(headersOf(path)).toEqual(['X-Checkout-Next-Cursor', 'X-Checkout-Total-Estimated', 'X-WP-Total', 'X-WP-TotalPages']);
    }
  });

  it('describes /healthz and /readyz as the {status} they answer', async () => {
    expect(document.components.schemas.HealthDto).toEqual(
      expect.objectContaining({ required: ['status'], properties: { status: expect.objectContaining({ type: 'string' }) } }),
    );
    for (const path of ['/healthz', '/readyz']) {
      expect((document.paths[path].get as Operation).responses['200'].content!['application/json'].schema).toEqual({ $ref: '#/components/schemas/HealthDto' });
      const res = await request(t.http).get(path);
      expect(res.body).toEqual({ status: 'ok' });
    }
  });

  it('pre-fills request bodies that work as they are (import-template, then sync-details on the imported form)', async () => {
    const firstExample = (path: string) => {
      const body = (document.paths[path].post as Operation).requestBody!.content['application/json'];
      return Object.values(body.examples ?? {})[0]?.value ?? body.example;
    };
    const imported = await request(t.http).post(`${t.base}/administration/import-template`).set('Authorization', t.admin.auth).send(firstExample('/administration/import-template'));
    expect(imported.status).toBe(201);
    const formId = imported.body.form_id as number;
    const form = await request(t.http).get(`${t.base}/administration/payment-forms/${formId}`).set('Authorization', t.admin.auth);
    await request(t.http)
      .put(`${t.base}/administration/payment-forms/${formId}`)
      .set('Authorization', t.admin.auth)
      .send({ title: form.body.title, status: 'publish', settings: form.body.settings })
      .expect(200);
    await connectGateway(t, 'gateway_a');
    const example = firstExample('/payment/sync-details') as { form_id: number };
    // The example names form 1: the first form of a fresh site, which this one is.
    expect(example.form_id).toBe(formId);
    const synced = await request(t.http).post(`${t.base}/payment/sync-details`).send(example);
    expect(synced.status).toBe(201);
    expect(synced.body).toEqual(expect.objectContaining({ payment_id: expect.any(Number), status: 'pending' }));
  });
});
