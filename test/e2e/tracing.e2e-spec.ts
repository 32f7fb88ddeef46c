import { createServer, type Server } from 'node:http';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { PaymentForm } from '../../src/modules/forms/index.js';
import { GatewayStateService } from '../../src/modules/gateways/index.js';
import type { FakeGatewayA } from '../fakes/gateway-a/index.js';
import { connectThroughProxy, startGatewayATestBed } from '../support/gateway-a.js';
import { createPaymentForm, referenceOf, type SyncAnswer } from '../support/payment-fixtures.js';
import { redisNamespace, type RedisNamespace } from '../support/redis.js';
import { type ServiceBuild, buildServiceForTest } from '../support/service-build.js';
import { ServiceProcess, stopAllServices } from '../support/service-process.js';
import { sharedDatabaseUrl } from '../support/shared-database.js';
import { TEST_ADMIN_PASSWORD, TEST_SECRET } from '../support/test-app.js';

/**
 * OpenTelemetry traces (docs/operations.md, "Traces"): the built service as a separate process,
 * its OTLP/HTTP JSON export received by a collector of the test's own. With
 * OTEL_EXPORTER_OTLP_ENDPOINT set, a request that reads the database and one that calls the
 * (fake) provider give their HTTP server, Express, database, Redis and outgoing spans, each
 * carrying the request's `X-Request-Id`; the spans still buffered are exported by the graceful
 * shutdown. With it unset, no module of the SDK is loaded (the process writes its loaded modules
 * when it exits: LOADED_MODULES_PROBE).
 */

const REST = '/wp-json/checkout/v1';
const PUBLIC_BASE_URL = 'http://checkout.test';
const REQUEST_ID = 'checkout.request_id';

interface OtlpValue {
  stringValue?: string;
  intValue?: number | string;
  boolValue?: boolean;
}
interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  attributes?: Array<{ key: string; value: OtlpValue }>;
}
interface CollectedSpan {
  scope: string;
  resource: Record<string, unknown>;
  span: OtlpSpan;
  attributes: Record<string, unknown>;
}

const SPAN_KIND_SERVER = 2;
const SPAN_KIND_CLIENT = 3;

function attributesOf(list: Array<{ key: string; value: OtlpValue }> | undefined): Record<string, unknown> {
  return Object.fromEntries((list ?? []).map(({ key, value }) => [key, value.stringValue ?? (value.intValue !== undefined ? Number(value.intValue) : value.boolValue)]));
}

/** An OTLP/HTTP JSON receiver: every span posted to /v1/traces. */
async function startCollector(): Promise<{ url: string; spans: CollectedSpan[]; contentTypes: string[]; close(): Promise<void> }> {
  const spans: CollectedSpan[] = [];
  const contentTypes: string[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      contentTypes.push(String(req.headers['content-type']));
      if (req.method === 'POST' && req.url === '/v1/traces') {
        const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as {
          resourceSpans: Array<{ resource: { attributes: Array<{ key: string; value: OtlpValue }> }; scopeSpans: Array<{ scope: { name: string }; spans: OtlpSpan[] }> }>;
        };
        for (const resourceSpans of body.resourceSpans) {
          const resource = attributesOf(resourceSpans.resource.attributes);
          for (const scopeSpans of resourceSpans.scopeSpans) {
            for (const span of scopeSpans.spans) spans.push({ scope: scopeSpans.scope.name, resource, span, attributes: attributesOf(span.attributes) });
          }
        }
      }
      res.writeHead(200, { 'Content-Type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    spans,
    contentTypes,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** Written to NODE_OPTIONS' --require: the process writes the modules it loaded when it exits. */
const PROBE = `process.on('exit', () => require('node:fs').writeFileSync(process.env.LOADED_MODULES_FILE, JSON.stringify(Object.keys(require.cache))));\n`;
/** The SDK's packages (the API, `@opentelemetry/api`, is loaded by prom-client whatever the setting). */
const SDK_MODULE = /node_modules\/@opentelemetry\/(?!api\/)[^/]+\//;

describe('OpenTelemetry traces (OTEL_EXPORTER_OTLP_ENDPOINT)', () => {
  let build: ServiceBuild;
  let fake: FakeGatewayA;
  let form: PaymentForm;
  let databaseUrl: string;
  let redis: RedisNamespace;
  const dirs: string[] = [];

  const start = (name: string, env: Record<string, string>) => {
    const dataDir = mkdtempSync(join(tmpdir(), `checkout-tracing-${name}-`));
    dirs.push(dataDir);
    writeFileSync(join(dataDir, 'probe.js'), PROBE);
    const modulesFile = join(dataDir, 'modules.json');
    const started = ServiceProcess.start(
      name,
      {
        DATABASE_URL: databaseUrl,
        CHECKOUT_SECRET: TEST_SECRET,
        CHECKOUT_ADMIN_PASSWORD: TEST_ADMIN_PASSWORD,
        PUBLIC_BASE_URL,
        CHECKOUT_PROXY_URL: fake.url,
        GATEWAY_A_API_BASE: fake.url,
        DATA_DIR: dataDir,
        LOG_LEVEL: 'warn',
        RECONCILE_INTERVAL_SECONDS: '0',
        SHUTDOWN_DRAIN_SECONDS: '0',
        NODE_OPTIONS: `--require ${join(dataDir, 'probe.js')}`,
        LOADED_MODULES_FILE: modulesFile,
        ...redis.env,
        ...env,
      },
      build.main,
    ).then((instance) => instance.ready());
    return { started, loadedModules: () => JSON.parse(readFileSync(modulesFile, 'utf8')) as string[] };
  };

  /** A new payment (sync-details: reads the form and the settings, writes the payment) and its gateway-A intent (calls the provider). */
  const pay = async (instance: ServiceProcess, ids: { db: string; provider: string }) => {
    const sync = await fetch(`${instance.url}${REST}/payment/sync-details`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-Request-Id': ids.db },
      body: JSON.stringify({ form_id: form.id, payment_gateway: 'gateway_a', payment_method: 'ccard', email_address: 'payer@example.test' }),
    });
    expect(sync.status).toBe(201);
    const reference = referenceOf((await sync.json()) as SyncAnswer, form.id, 'gateway_a', 'ccard');
    const intent = await fetch(`${instance.url}${REST}/gateway-a/payment-intent-or-setup`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-Request-Id': ids.provider },
      body: JSON.stringify(reference),
    });
    expect(intent.status).toBe(200);
    expect(intent.headers.get('x-request-id')).toBe(ids.provider);
  };

  beforeAll(async () => {
    build = buildServiceForTest();
    databaseUrl = sharedDatabaseUrl();
    redis = redisNamespace('tracing');
    // The installation as an admin left it: gateway A connected and its webhook verified, a form.
    const bed = await startGatewayATestBed({ DATABASE_URL: databaseUrl, PUBLIC_BASE_URL });
    fake = bed.fake;
    try {
      const landing = await connectThroughProxy(bed, 'test');
      expect(landing.searchParams.get('gateway_a_webhook')).toBe('verified');
      await bed.t.app.get(GatewayStateService).setActiveMethods('gateway_a', ['ccard']);
      form = await createPaymentForm(bed.t);
    } finally {
      await bed.t.close();
    }
  }, 120_000);

  afterAll(async () => {
    await stopAllServices();
    await fake?.stop();
    await redis?.clear();
    build?.remove();
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  it('exports the spans of a database request and of a provider call, each with its request id, flushed by the graceful shutdown', async () => {
    const collector = await startCollector();
    try {
      const { started, loadedModules } = start('traced', {
        OTEL_EXPORTER_OTLP_ENDPOINT: collector.url,
        OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
        // Nothing is exported before the shutdown: the spans reach the collector through its flush.
        OTEL_BSP_SCHEDULE_DELAY: '600000',
      });
      const instance = await started;
      const ids = { db: 'trace-db-request-0001', provider: 'trace-provider-request-0002' };
      await pay(instance, ids);
      expect(collector.spans).toEqual([]);
      await instance.stop();
      expect((await instance.exited).code).toBe(0);
      expect(instance.errors()).toEqual([]);

      const spans = collector.spans;
      expect(collector.contentTypes).toContain('application/json');
      expect(spans.length).toBeGreaterThan(0);
      expect(spans[0].resource['service.name']).toBe('checkout-api');
      // Every span belongs to one of the two requests and says which (probes such as /readyz are not traced).
      const withoutId = spans.filter((s) => s.attributes[REQUEST_ID] !== ids.db && s.attributes[REQUEST_ID] !== ids.provider);
      expect(withoutId.map((s) => `${s.scope} ${s.span.name} ${JSON.stringify(s.attributes)}`)).toEqual([]);
      const of = (id: string) => spans.filter((s) => s.attributes[REQUEST_ID] === id);
      const scopes = (id: string) => new Set(of(id).map((s) => s.scope));

      for (const [id, route] of [
        [ids.db, `${REST}/payment/sync-details`],
        [ids.provider, `${REST}/gateway-a/payment-intent-or-setup`],
      ]) {
        // One trace per request, rooted at its HTTP server span, with the Express route template.
        const server = of(id).filter((s) => s.span.kind === SPAN_KIND_SERVER);
        expect(server).toHaveLength(1);
        expect(server[0].attributes).toMatchObject({ 'http.request.method': 'POST', 'http.route': route, 'http.response.status_code': expect.any(Number) });
        expect(new Set(of(id).map((s) => s.span.traceId))).toEqual(new Set([server[0].span.traceId]));
        expect(scopes(id)).toContain('@opentelemetry/instrumentation-express');
        expect(of(id).some((s) => s.scope === '@opentelemetry/instrumentation-express' && s.attributes['express.type'] === 'request_handler')).toBe(true);
      }

      // The database: mysql2's spans on MariaDB, the service's own better-sqlite3 spans on SQLite.
      const dbSpans = of(ids.db).filter((s) => s.span.kind === SPAN_KIND_CLIENT && (s.attributes['db.system.name'] !== undefined || s.attributes['db.system'] !== undefined));
      expect(dbSpans.length).toBeGreaterThan(0);
      if (/^(mysql|mariadb):/.test(databaseUrl)) expect(dbSpans.some((s) => s.scope === '@opentelemetry/instrumentation-mysql2')).toBe(true);
      else expect(dbSpans.some((s) => s.attributes['db.system.name'] === 'sqlite' && /^(SELECT|INSERT|UPDATE)$/.test(s.span.name))).toBe(true);
      expect(dbSpans.every((s) => typeof s.attributes['db.query.text'] === 'string')).toBe(true);
      // Redis (the rate limits and the idempotency store live there when REDIS_URL is set).
      expect([...scopes(ids.db), ...scopes(ids.provider)]).toContain('@opentelemetry/instrumentation-ioredis');

      // The provider call: gateway A's SDK over node's http, a client span to the fake's port.
      const fakePort = Number(new URL(fake.url).port);
      const outgoing = of(ids.provider).filter((s) => s.span.kind === SPAN_KIND_CLIENT && s.attributes['server.port'] === fakePort);
      expect(outgoing.length).toBeGreaterThan(0);
      expect(outgoing.some((s) => String(s.attributes['url.full']).includes('/v1/payment_intents'))).toBe(true);

      // The SDK was loaded (the probe sees it: the check of the unset case below can fail).
      expect(loadedModules().filter((path) => SDK_MODULE.test(path)).length).toBeGreaterThan(0);
    } finally {
      await collector.close();
    }
  }, 120_000);

  it('loads nothing of the OpenTelemetry SDK when OTEL_EXPORTER_OTLP_ENDPOINT is unset', async () => {
    const { started, loadedModules } = start('untraced', {});
    const instance = await started;
    await pay(instance, { db: 'untraced-db-request-0001', provider: 'untraced-provider-request-0002' });
    await instance.stop();
    expect((await instance.exited).code).toBe(0);
    const modules = loadedModules();
    expect(modules.some((path) => path.includes('/node_modules/express/'))).toBe(true);
    expect(modules.filter((path) => SDK_MODULE.test(path))).toEqual([]);
  }, 120_000);
});
