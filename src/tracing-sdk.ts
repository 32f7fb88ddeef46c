import { type Attributes, type Context, type Span as ApiSpan, context, DiagConsoleLogger, DiagLogLevel, diag, type Link, propagation, SpanKind, SpanStatusCode, trace, type Tracer } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { CompositePropagator, W3CBaggagePropagator, W3CTraceContextPropagator } from '@opentelemetry/core';
import { OTLPTraceExporter as OTLPJsonTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { OTLPTraceExporter as OTLPProtobufTraceExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { ExpressInstrumentation } from '@opentelemetry/instrumentation-express';
import { HttpInstrumentation } from '@opentelemetry/instrumentation-http';
import { IORedisInstrumentation } from '@opentelemetry/instrumentation-ioredis';
import { MySQL2Instrumentation } from '@opentelemetry/instrumentation-mysql2';
import { UndiciInstrumentation } from '@opentelemetry/instrumentation-undici';
import { detectResources, envDetector, hostDetector, processDetector, resourceFromAttributes } from '@opentelemetry/resources';
import {
  AlwaysOffSampler,
  AlwaysOnSampler,
  BasicTracerProvider,
  BatchSpanProcessor,
  ParentBasedSampler,
  type ReadableSpan,
  type Sampler,
  SamplingDecision,
  type SamplingResult,
  type Span,
  type SpanProcessor,
  TraceIdRatioBasedSampler,
} from '@opentelemetry/sdk-trace-base';
import type { IncomingMessage } from 'node:http';
import { requestIdOf } from './common/request-id/index.js';
import { ConfigError, envInteger, envUrl } from './config/index.js';
import type { Tracing } from './tracing.js';

/**
 * The OpenTelemetry SDK of the service (docs/operations.md, "Traces"), loaded by tracing.ts only
 * when OTEL_EXPORTER_OTLP_ENDPOINT is set. Traces go over OTLP/HTTP (protobuf, or JSON with
 * `OTEL_EXPORTER_OTLP_PROTOCOL=http/json`) to the endpoint; spans: the HTTP server (the request),
 * Express (middleware and route handler), MariaDB/MySQL (mysql2), SQLite (better-sqlite3, by the
 * small wrapper below: there is no official instrumentation), Redis (ioredis), and the outgoing
 * calls (node's http/https: gateway A's SDK; fetch: gateway B's client), each carrying the
 * request's id (`checkout.request_id`, the one of the request log and of `X-Request-Id`).
 *
 * Only work done for a request is traced: a span without a parent other than a request's server
 * span (the outbox, the sweeps, the pool's pings) is not recorded, so every span has a request id.
 */

/** The request log's id of the request (pino-http's `req.id`, the `X-Request-Id` of the answer). */
export const REQUEST_ID_ATTRIBUTE = 'checkout.request_id';
/** The service name when neither OTEL_SERVICE_NAME nor `service.name` in OTEL_RESOURCE_ATTRIBUTES says another. */
export const DEFAULT_SERVICE_NAME = 'checkout-api';
/** Probes and scrapes, asked every few seconds: no trace. */
const UNTRACED_PATHS = new Set(['/healthz', '/readyz', '/metrics']);

const PROTOCOLS = ['http/protobuf', 'http/json'] as const;
type Protocol = (typeof PROTOCOLS)[number];

export interface TracingSettings {
  protocol: Protocol;
  sampler: Sampler;
  batch: { scheduledDelayMillis: number; maxQueueSize: number; maxExportBatchSize: number; exportTimeoutMillis: number };
}

/** The OTEL_* settings this file reads itself (the exporter and the resource detector read theirs), checked: a bad value stops the boot. */
export function readTracingSettings(env: NodeJS.ProcessEnv): TracingSettings {
  envUrl(env, 'OTEL_EXPORTER_OTLP_ENDPOINT', '', ['http:', 'https:']);
  if (env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) envUrl(env, 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT', '', ['http:', 'https:']);
  const protocolVariable = env.OTEL_EXPORTER_OTLP_TRACES_PROTOCOL ? 'OTEL_EXPORTER_OTLP_TRACES_PROTOCOL' : 'OTEL_EXPORTER_OTLP_PROTOCOL';
  const protocol = (env[protocolVariable] ?? '').trim() || 'http/protobuf';
  if (!(PROTOCOLS as readonly string[]).includes(protocol)) throw new ConfigError(protocolVariable, `must be ${PROTOCOLS.join(' or ')} (grpc is not supported)`);
  return {
    protocol: protocol as Protocol,
    sampler: samplerFromEnv(env),
    batch: {
      scheduledDelayMillis: envInteger(env, 'OTEL_BSP_SCHEDULE_DELAY', 5000, { min: 0 }),
      maxQueueSize: envInteger(env, 'OTEL_BSP_MAX_QUEUE_SIZE', 2048, { min: 1 }),
      maxExportBatchSize: envInteger(env, 'OTEL_BSP_MAX_EXPORT_BATCH_SIZE', 512, { min: 1 }),
      exportTimeoutMillis: envInteger(env, 'OTEL_BSP_EXPORT_TIMEOUT', 30000, { min: 1 }),
    },
  };
}

const SAMPLERS = ['always_on', 'always_off', 'traceidratio', 'parentbased_always_on', 'parentbased_always_off', 'parentbased_traceidratio'];

/** OTEL_TRACES_SAMPLER and OTEL_TRACES_SAMPLER_ARG as the specification reads them; default parentbased_always_on. */
function samplerFromEnv(env: NodeJS.ProcessEnv): Sampler {
  const name = (env.OTEL_TRACES_SAMPLER ?? '').trim().toLowerCase() || 'parentbased_always_on';
  if (!SAMPLERS.includes(name)) throw new ConfigError('OTEL_TRACES_SAMPLER', `must be one of ${SAMPLERS.join(', ')}`);
  const ratio = (): number => {
    const raw = (env.OTEL_TRACES_SAMPLER_ARG ?? '').trim();
    const value = raw === '' ? 1 : Number(raw);
    if (!Number.isFinite(value) || value < 0 || value > 1) throw new ConfigError('OTEL_TRACES_SAMPLER_ARG', 'must be a number from 0 to 1');
    return value;
  };
  const root = name.endsWith('always_off') ? new AlwaysOffSampler() : name.endsWith('traceidratio') ? new TraceIdRatioBasedSampler(ratio()) : new AlwaysOnSampler();
  return name.startsWith('parentbased_') ? new ParentBasedSampler({ root }) : root;
}

/**
 * Records a trace only where a request starts it: a span without a parent is recorded only if it
 * is a server span (the configured sampler decides those); the rest follow their parent.
 */
class RequestRootedSampler implements Sampler {
  constructor(private readonly configured: Sampler) {}

  shouldSample(parentContext: Context, traceId: string, name: string, kind: SpanKind, attributes: Attributes, links: Link[]): SamplingResult {
    if (kind !== SpanKind.SERVER && !trace.getSpanContext(parentContext)) return { decision: SamplingDecision.NOT_RECORD };
    return this.configured.shouldSample(parentContext, traceId, name, kind, attributes, links);
  }

  toString(): string {
    return `RequestRooted{${this.configured.toString()}}`;
  }
}

/**
 * Puts the request id on every span of a request: the server span gets it from its request when it
 * starts (the HTTP instrumentation's request hook; `requestIdOf` is the request log's id, made here
 * if the log's middleware has not run yet), each span started under a span of the request inherits it.
 */
export class RequestIdSpanProcessor implements SpanProcessor {
  private readonly ids = new WeakMap<object, string>();

  /** The server span of `request` (the HTTP instrumentation's request hook). */
  serverSpan(span: ApiSpan, request: IncomingMessage): void {
    const id = requestIdOf(request);
    this.ids.set(span, id);
    span.setAttribute(REQUEST_ID_ATTRIBUTE, id);
  }

  onStart(span: Span, parentContext: Context): void {
    const parent = trace.getSpan(parentContext);
    const id = parent && this.ids.get(parent);
    if (id === undefined) return;
    this.ids.set(span, id);
    span.setAttribute(REQUEST_ID_ATTRIBUTE, id);
  }

  onEnd(_span: ReadableSpan): void {}

  forceFlush(): Promise<void> {
    return Promise.resolve();
  }

  shutdown(): Promise<void> {
    return Promise.resolve();
  }
}

/** The query string of an incoming request with every value replaced (OAuth codes and states travel there): names only. */
function redactedQuery(url: string | undefined): string | undefined {
  const query = url?.split('?', 2)[1];
  if (!query) return undefined;
  return [...new URLSearchParams(query).keys()].map((name) => `${encodeURIComponent(name)}=REDACTED`).join('&');
}

/** The SQL's first keyword (`SELECT`, `INSERT`, ...), the span's name as the mysql2 instrumentation names its spans. */
function sqlOperation(sql: string): string {
  return /^\s*([A-Za-z]+)/.exec(sql)?.[1]?.toUpperCase() ?? 'SQL';
}

type StatementMethod = (this: { source: string }, ...args: unknown[]) => unknown;

/**
 * SQLite spans: better-sqlite3 has no OpenTelemetry instrumentation, and its calls are
 * synchronous, so a span around a prepared statement's `run`, `get` and `all` (what TypeORM's
 * driver calls) is its whole time. The statement class is the addon's: its prototype is reached
 * through the first statement prepared. Only inside a request's trace (an active span).
 */
function traceSqliteStatements(tracer: Tracer): void {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- patched only when tracing is on
  const Database = require('better-sqlite3') as { prototype: { prepare(this: unknown, sql: string): object } };
  const prepare = Database.prototype.prepare;
  let patched = false;
  Database.prototype.prepare = function (this: unknown, sql: string): object {
    const statement = prepare.call(this, sql);
    if (!patched) {
      patched = true;
      const proto = Object.getPrototypeOf(statement) as Record<string, StatementMethod>;
      for (const method of ['run', 'get', 'all']) {
        const original = proto[method];
        proto[method] = function (this: { source: string }, ...args: unknown[]): unknown {
          if (!trace.getActiveSpan()) return original.apply(this, args);
          const operation = sqlOperation(this.source);
          const span = tracer.startSpan(operation, {
            kind: SpanKind.CLIENT,
            attributes: { 'db.system.name': 'sqlite', 'db.operation.name': operation, 'db.query.text': this.source },
          });
          try {
            return original.apply(this, args);
          } catch (error) {
            span.recordException(error as Error);
            span.setStatus({ code: SpanStatusCode.ERROR, message: (error as Error).message });
            throw error;
          } finally {
            span.end();
          }
        };
      }
    }
    return statement;
  };
}

/** Starts the SDK and the instrumentations (before the instrumented modules are required: see tracing.ts). */
export function startTracingSdk(env: NodeJS.ProcessEnv): Tracing {
  const settings = readTracingSettings(env);
  const level = (env.OTEL_LOG_LEVEL ?? '').trim().toUpperCase() as keyof typeof DiagLogLevel;
  if (level && level in DiagLogLevel) diag.setLogger(new DiagConsoleLogger(), { logLevel: DiagLogLevel[level] });

  const exporter = settings.protocol === 'http/json' ? new OTLPJsonTraceExporter() : new OTLPProtobufTraceExporter();
  const requestIds = new RequestIdSpanProcessor();
  const resource = resourceFromAttributes({ 'service.name': DEFAULT_SERVICE_NAME }).merge(detectResources({ detectors: [envDetector, hostDetector, processDetector] }));
  const provider = new BasicTracerProvider({
    resource,
    sampler: new RequestRootedSampler(settings.sampler),
    spanProcessors: [requestIds, new BatchSpanProcessor(exporter, settings.batch)],
  });
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  propagation.setGlobalPropagator(new CompositePropagator({ propagators: [new W3CTraceContextPropagator(), new W3CBaggagePropagator()] }));
  trace.setGlobalTracerProvider(provider);

  // Each instrumentation enables itself when constructed: it hooks its module's next require.
  const instrumentations = [
    new HttpInstrumentation({
      ignoreIncomingRequestHook: (request) => UNTRACED_PATHS.has((request.url ?? '').split('?', 1)[0]),
      startIncomingSpanHook: (request): Attributes => {
        const query = redactedQuery(request.url);
        return query ? { 'url.query': query } : {};
      },
      requestHook: (span, request) => {
        if (!('setHeader' in request)) requestIds.serverSpan(span, request as IncomingMessage);
      },
      requireParentforOutgoingSpans: true,
    }),
    new ExpressInstrumentation(),
    new MySQL2Instrumentation(),
    new IORedisInstrumentation({ requireParentSpan: true }),
    new UndiciInstrumentation(),
  ];
  traceSqliteStatements(trace.getTracer('checkout-api-sqlite'));

  return {
    async shutdown() {
      for (const instrumentation of instrumentations) instrumentation.disable();
      await provider.shutdown();
    },
  };
}
