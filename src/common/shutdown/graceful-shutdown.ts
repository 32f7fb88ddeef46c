import { type INestApplication, Inject, Injectable, Logger } from '@nestjs/common';
import type { Server } from 'node:http';
import { APP_CONFIG, type AppConfig } from '../../config/index.js';
import { HttpDrain } from './http-drain.js';
import { ShutdownState } from './shutdown-state.js';

export const SHUTDOWN_SIGNALS = ['SIGTERM', 'SIGINT'] as const;
export type ShutdownSignal = (typeof SHUTDOWN_SIGNALS)[number];

/** Of the timeout, the part kept after the HTTP drain for the rest (tasks, pool, Redis): a fifth, at most 5 s. */
const CLOSE_RESERVE_MAX_MS = 5000;

export interface ShutdownOutcome {
  signal: string;
  durationMs: number;
  connectionsClosed: number;
  closedForcibly: number;
  requestsAnswered: number;
}

/**
 * What SIGTERM and SIGINT do (docs/scaling.md, "Rolling deploys"), in this order:
 *
 * 1. At once: `/readyz` answers 503 (the load balancer stops sending new requests), every answer
 *    from now on carries `Connection: close`, and the background tasks start nothing new
 *    (ShutdownState). Logged with the number of open connections.
 * 2. SIGTERM only: SHUTDOWN_DRAIN_SECONDS more of accepting connections, for the balancer to see
 *    the 503 (or the orchestrator to take the instance out of its endpoints); each request still
 *    sent here is answered, and its connection closed. SIGINT (a person at a terminal, no
 *    balancer) skips it.
 * 3. The listener closes: idle connections at once, the others after their answer.
 * 4. Once every connection is closed, or at the timeout less a reserve, whichever is first (the
 *    connections still open then are closed forcibly and the log says how many), Nest's hooks run:
 *    background tasks wait for their work in flight, the outbox for its attempt, then the
 *    database pool and Redis close; then the steps given to `atTheEnd` (the tracing's export of
 *    the spans still buffered), last.
 * 5. Logged with its duration and the connections closed; exit 0. Had it not finished within
 *    SHUTDOWN_TIMEOUT_SECONDS, it logs that and exits 1 then, whatever is still running.
 *
 * Nest's own `enableShutdownHooks` is not used: it closes the application, pool included, as soon
 * as the signal comes, while requests are still arriving.
 */
@Injectable()
export class GracefulShutdown {
  private readonly logger = new Logger('Shutdown');
  private app?: INestApplication;
  private drain?: HttpDrain;
  private running: Promise<ShutdownOutcome> | null = null;
  private readonly lastSteps: Array<{ name: string; run: () => Promise<void> }> = [];

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly state: ShutdownState,
  ) {}

  /** Starts counting the application's connections (configureApp; before it listens). */
  attach(app: INestApplication): void {
    this.app = app;
    this.drain = new HttpDrain(app.getHttpServer() as Server);
  }

  /**
   * A step run after the application is closed, within the timeout (main.ts: the tracing's flush
   * of the spans still buffered). A step that fails is logged; the shutdown carries on.
   */
  atTheEnd(name: string, run: () => Promise<void>): void {
    this.lastSteps.push({ name, run });
  }

  /** main.ts: SIGTERM and SIGINT shut the process down; a repeated signal changes nothing (npm passes Ctrl-C on as a second SIGINT). */
  handleSignals(exit: (code: number) => void = (code) => process.exit(code)): void {
    for (const signal of SHUTDOWN_SIGNALS) {
      process.on(signal, () => {
        if (this.running) {
          this.logger.log({ signal }, `${signal} received while shutting down: the shutdown carries on`);
          return;
        }
        void this.shutdown(signal, exit).then(
          () => exit(0),
          () => exit(1),
        );
      });
    }
  }

  /** Runs the sequence above once (later calls join it). `exit` is called only when the timeout strikes. */
  shutdown(signal: string, exit: (code: number) => void = (code) => process.exit(code)): Promise<ShutdownOutcome> {
    this.running ??= this.run(signal, exit);
    return this.running;
  }

  private async run(signal: string, exit: (code: number) => void): Promise<ShutdownOutcome> {
    const startedAt = Date.now();
    const timeoutMs = this.config.shutdown.timeoutSeconds * 1000;
    const drainMs = signal === 'SIGINT' ? 0 : this.config.shutdown.drainSeconds * 1000;
    const drain = this.drain;
    this.state.begin();
    drain?.startDraining();
    const open = drain?.openConnections ?? 0;
    this.logger.log(
      { signal, open_connections: open, requests_in_flight: drain?.requestsInFlight ?? 0, drain_seconds: drainMs / 1000, timeout_seconds: timeoutMs / 1000 },
      `Shutting down on ${signal}: /readyz answers 503 and every answer closes its connection (${open} open); ` +
        `the listener closes in ${drainMs / 1000} s; exit within ${timeoutMs / 1000} s`,
    );
    const deadline = setTimeout(() => {
      const still = drain?.openConnections ?? 0;
      this.logger.error(
        { signal, duration_ms: Date.now() - startedAt, open_connections: still },
        `Shutdown did not finish within ${timeoutMs / 1000} s: exiting now, ${still} connection(s) still open`,
      );
      exit(1);
    }, timeoutMs);
    try {
      if (drainMs > 0) await new Promise((resolve) => setTimeout(resolve, drainMs));
      const reserve = Math.min(CLOSE_RESERVE_MAX_MS, timeoutMs / 5);
      const { forced } = drain ? await drain.close(startedAt + timeoutMs - reserve - Date.now()) : { forced: 0 };
      if (forced > 0) {
        this.logger.warn(
          { signal, closed_forcibly: forced, waited_ms: Date.now() - startedAt },
          `${forced} connection(s) still had a request in flight ${Math.round((Date.now() - startedAt) / 100) / 10} s after ${signal}: closed forcibly, without their answer`,
        );
      }
      await this.app?.close();
      for (const step of this.lastSteps) {
        await step.run().catch((error: unknown) => this.logger.warn({ signal, step: step.name, err: error instanceof Error ? error.message : String(error) }, `Shutdown step ${step.name} failed`));
      }
      const counts = drain?.counts ?? { connectionsClosed: 0, requestsAnswered: 0 };
      const outcome: ShutdownOutcome = { signal, durationMs: Date.now() - startedAt, connectionsClosed: counts.connectionsClosed, closedForcibly: forced, requestsAnswered: counts.requestsAnswered };
      this.logger.log(
        { signal, duration_ms: outcome.durationMs, connections_closed: outcome.connectionsClosed, closed_forcibly: forced, requests_answered: outcome.requestsAnswered },
        `Shutdown complete in ${outcome.durationMs} ms: ${outcome.connectionsClosed} connection(s) closed (${forced} forcibly), ${outcome.requestsAnswered} request(s) answered meanwhile`,
      );
      return outcome;
    } catch (error) {
      this.logger.error({ signal, err: error instanceof Error ? error.message : String(error) }, 'Shutdown failed');
      throw error;
    } finally {
      clearTimeout(deadline);
    }
  }
}
