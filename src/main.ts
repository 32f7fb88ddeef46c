import 'reflect-metadata';
// First: when OTEL_EXPORTER_OTLP_ENDPOINT is set this starts OpenTelemetry, whose instrumentations
// must hook http, express, mysql2 and ioredis before the imports below require them (tracing.ts).
import { tracing } from './tracing.js';
import { BootError } from './common/errors/index.js';
import { ConfigError, loadConfig } from './config/index.js';
import { AppLogger } from './common/logging/index.js';
import { GracefulShutdown } from './common/shutdown/index.js';
import { bootMessage, createApp, serviceUrls } from './bootstrap.js';
import { limitHeapGrowth } from './heap-growth.js';
import { checkGatewaySliceConfig } from './modules/gateways/index.js';

async function main(): Promise<void> {
  limitHeapGrowth();
  let config;
  try {
    config = loadConfig();
    // The gateway slices' own variables (registered when bootstrap.js loaded the application's modules).
    checkGatewaySliceConfig(process.env);
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
  try {
    const app = await createApp();
    await app.listen(config.port, config.host);
    // From here SIGTERM / SIGINT drain the instance and exit within SHUTDOWN_TIMEOUT_SECONDS. (A
    // signal during the boot ends the process at once: nothing has been served yet.)
    const shutdown = app.get(GracefulShutdown);
    // The spans still buffered are exported once the application is closed.
    const spans = tracing;
    if (spans) shutdown.atTheEnd('tracing', () => spans.shutdown());
    shutdown.handleSignals();
    // One line with everything a person opens (and the same as fields, for a log search).
    const urls = serviceUrls(config);
    app.get(AppLogger).log({ urls }, bootMessage(config, urls), 'Checkout');
  } catch (error) {
    // A refusal to start (e.g. the master secret does not match the database): the message says
    // what to fix and holds no secret; a stack trace would only bury it.
    if (error instanceof BootError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
}

void main();
