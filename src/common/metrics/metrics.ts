import { Injectable } from '@nestjs/common';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { performance } from 'node:perf_hooks';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { RequestDurationHistogram } from './request-duration.js';

/** The `route` label of an answer no route handled (a 404, a body parser's refusal, a static file). */
export const UNMATCHED_ROUTE = 'unmatched';

/** When the metrics middleware saw the request, on its response (a symbol: no clash, one hidden class). */
const STARTED = Symbol('metrics: request started');
type TimedResponse = Response & { [STARTED]?: number };

/** One row of a family collected at scrape time: its labels and value. */
export interface Sample<L extends string> {
  labels: Record<L, string>;
  value: number;
}

/**
 * The service's Prometheus metrics (prom-client), one registry per application (tests start
 * several in one process). Families recorded as things happen live here; those read from the
 * database at scrape time are added by their owner with `scrapedGauge` (modules/metrics).
 * docs/operations.md lists every family.
 */
@Injectable()
export class Metrics {
  readonly registry = new Registry();
  private readonly httpDuration = new RequestDurationHistogram(
    'http_request_duration_seconds',
    'Time to answer an HTTP request, by method, Express route template and status class',
    this.registry,
  );
  private readonly webhookEvents = new Counter({
    name: 'checkout_webhook_events_total',
    help: 'Provider webhook deliveries taken in, by gateway and outcome (processed, ignored, rejected, duplicate, ...)',
    labelNames: ['gateway', 'outcome'] as const,
    registers: [this.registry],
  });
  private readonly providerDuration = new Histogram({
    name: 'checkout_provider_request_duration_seconds',
    help: 'Time of a call to a payment provider, by gateway and operation',
    labelNames: ['gateway', 'operation'] as const,
    buckets: [0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10, 30],
    registers: [this.registry],
  });
  private readonly providerErrors = new Counter({
    name: 'checkout_provider_request_errors_total',
    help: 'Calls to a payment provider that failed (threw), by gateway and operation',
    labelNames: ['gateway', 'operation'] as const,
    registers: [this.registry],
  });

  constructor() {
    collectDefaultMetrics({ register: this.registry });
  }

  /**
   * Observes every answer: installed first (bootstrap.ts), read when the answer is finished. The
   * route is the template Express matched (`/wp-json/checkout/v1/administration/payments/:id`),
   * never the raw path, so ids and junk paths add no series.
   *
   * Per request this is one clock read and one shared `finish` listener (no closure, no `once`
   * wrapper: the start time rides on the response); the histogram finds its series without
   * building a label object (request-duration.ts).
   */
  httpMiddleware(): RequestHandler {
    const histogram = this.httpDuration;
    function finished(this: TimedResponse): void {
      const started = this[STARTED];
      if (started === undefined) return;
      const req = this.req;
      const route = (req.route as { path?: unknown } | undefined)?.path;
      histogram.observe(req.method, typeof route === 'string' ? route : UNMATCHED_ROUTE, Math.floor(this.statusCode / 100), (performance.now() - started) / 1000);
    }
    return (_req: Request, res: TimedResponse, next: NextFunction) => {
      res[STARTED] = performance.now();
      res.on('finish', finished);
      next();
    };
  }

  /** One webhook delivery's outcome at the intake. */
  webhookEvent(gateway: string, outcome: string): void {
    this.webhookEvents.labels(gateway, outcome).inc();
  }

  /**
   * Times one provider call (`gateway_a`, `payment_intents.create`): its duration whatever the
   * outcome, and an error when it throws. The answer or error passes through unchanged.
   */
  async timeProviderCall<T>(gateway: string, operation: string, call: () => Promise<T>): Promise<T> {
    const start = performance.now();
    try {
      return await call();
    } catch (error) {
      this.providerErrors.labels(gateway, operation).inc();
      throw error;
    } finally {
      this.providerDuration.labels(gateway, operation).observe((performance.now() - start) / 1000);
    }
  }

  /** One provider call timed by the provider's own client (gateway A's SDK reports each attempt's time). */
  observeProviderCall(gateway: string, operation: string, seconds: number, failed: boolean): void {
    this.providerDuration.labels(gateway, operation).observe(seconds);
    if (failed) this.providerErrors.labels(gateway, operation).inc();
  }

  /** A gauge whose samples are read at each scrape (from the database): cheap on the hot path. */
  scrapedGauge<L extends string>(name: string, help: string, labelNames: readonly L[], read: () => Promise<Array<Sample<L>>>): void {
    new Gauge<L>({
      name,
      help,
      labelNames,
      registers: [this.registry],
      async collect() {
        const samples = await read();
        this.reset();
        for (const sample of samples) this.set(sample.labels as never, sample.value);
      },
    });
  }

  /** The Prometheus text exposition of every family. */
  async exposition(): Promise<{ contentType: string; body: string }> {
    return { contentType: this.registry.contentType, body: await this.registry.metrics() };
  }
}
