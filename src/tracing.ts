import { ConfigError } from './config/index.js';
import type * as TracingSdk from './tracing-sdk.js';

/** What main.ts keeps of the tracing: flushed and stopped last in the graceful shutdown. */
export interface Tracing {
  shutdown(): Promise<void>;
}

/**
 * OpenTelemetry traces are on when `OTEL_EXPORTER_OTLP_ENDPOINT` is set (and `OTEL_SDK_DISABLED`
 * is not `true`, the specification's switch). docs/operations.md, "Traces".
 */
export function tracingEnabled(env: NodeJS.ProcessEnv): boolean {
  return (env.OTEL_EXPORTER_OTLP_ENDPOINT ?? '').trim() !== '' && (env.OTEL_SDK_DISABLED ?? '').trim().toLowerCase() !== 'true';
}

/**
 * Starts the tracing when it is on, and returns null otherwise. The SDK, its exporter and its
 * instrumentations live in tracing-sdk.ts, required here only when the tracing is on: with the
 * variable unset, none of `@opentelemetry/*`'s SDK is loaded and nothing is patched (a test reads
 * the loaded modules). The require is synchronous on purpose: main.ts imports this file first, so
 * the instrumentations hook `http`, `express`, `mysql2` and `ioredis` before the application's
 * imports require them (an `await import()` would come after them).
 */
export function startTracing(env: NodeJS.ProcessEnv = process.env): Tracing | null {
  if (!tracingEnabled(env)) return null;
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded only when tracing is on (see above)
  const sdk = require('./tracing-sdk.js') as typeof TracingSdk;
  return sdk.startTracingSdk(env);
}

/**
 * The tracing of this process: main.ts imports this module before any other of the application,
 * so the SDK starts before anything it instruments is loaded. A bad OTEL_* value stops the boot
 * with the same one-line message as the other settings.
 */
export const tracing: Tracing | null = startOrExit();

function startOrExit(): Tracing | null {
  try {
    return startTracing();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
}
