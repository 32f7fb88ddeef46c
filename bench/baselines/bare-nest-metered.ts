/**
 * Baseline 4 of `npm run bench`: baseline 3 (bare Nest + request log) plus the service's metrics,
 * the same `Metrics` the service builds (prom-client's default collectors and the request duration
 * histogram) with its middleware installed on every request as bootstrap.ts installs it. Its CPU
 * per request minus baseline 3's is what the metrics cost each request; the report gives it as a
 * share of every hot route's CPU per request (issue 34: at most 3 %).
 */
import { Metrics } from '../../src/common/metrics/index.js';
import { createLoggedApp } from './logged-app.js';

async function main(): Promise<void> {
  const app = await createLoggedApp();
  app.use(new Metrics().httpMiddleware());
  await app.listen(Number(process.env.PORT ?? 0), '127.0.0.1');
}

void main();
