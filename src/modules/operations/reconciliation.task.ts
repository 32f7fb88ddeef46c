import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { Clock } from '../../common/clock/index.js';
import { ShutdownState } from '../../common/shutdown/index.js';
import { APP_CONFIG, type AppConfig } from '../../config/index.js';
import { TaskLeaseRepository } from '../tasks/index.js';
import { type ReconcileOptions, type ReconcileReport, ReconciliationService } from './reconciliation.service.js';

export const RECONCILE_TASK = 'reconcile_waiting_payments';
/** Longer than a run can take (200 records at five a second, plus provider timeouts). */
const LEASE_TTL_MS = 10 * 60_000;
const MAX_BACKOFF_MS = 60 * 60_000;
/** The CLI's runs back off like the default interval when the background sweep is off. */
const DEFAULT_INTERVAL_SECONDS = 300;

export type LeasedRun = { ran: true; report: ReconcileReport } | { ran: false; reason: 'busy' };

/**
 * Runs the reconciliation pass every RECONCILE_INTERVAL_SECONDS (0: off) on one instance at a time
 * (the task lease of the upgrade task), backing off exponentially while a provider fails. The
 * first pass runs one interval after boot. The CLI's `reconcile` uses the same lease.
 */
@Injectable()
export class ReconciliationTask implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('Reconciliation');
  readonly owner = `${hostname().slice(0, 40)}:${process.pid}:${randomUUID().slice(0, 8)}`;
  private timer?: NodeJS.Timeout;
  private running: Promise<unknown> | null = null;
  private failures = 0;
  private stopped = false;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly reconciliation: ReconciliationService,
    private readonly leases: TaskLeaseRepository,
    private readonly clock: Clock,
    shutdown: ShutdownState,
  ) {
    // From the signal on: no further pass, and the one running stops after the record in hand.
    shutdown.onShutdown(() => this.stop());
  }

  onApplicationBootstrap(): void {
    if (this.config.reconcileIntervalSeconds > 0) this.schedule(this.config.reconcileIntervalSeconds * 1000);
  }

  async onModuleDestroy(): Promise<void> {
    this.stop();
    await this.running?.catch(() => undefined);
  }

  private stop(): void {
    this.stopped = true;
    clearTimeout(this.timer);
  }

  /** One pass under the lease (the CLI and the timer); `busy` while another instance runs one. */
  async runLeased(options: ReconcileOptions = {}): Promise<LeasedRun> {
    if (!(await this.leases.tryAcquire(RECONCILE_TASK, this.owner, this.clock.now(), LEASE_TTL_MS))) return { ran: false, reason: 'busy' };
    try {
      return { ran: true, report: await this.reconciliation.runOnce(options) };
    } finally {
      await this.leases.release(RECONCILE_TASK, this.owner).catch(() => undefined);
    }
  }

  /** The delay before the next pass after one that ended like `report` (exponential while a provider fails). */
  nextDelayMs(report: ReconcileReport | null): number {
    const interval = (this.config.reconcileIntervalSeconds || DEFAULT_INTERVAL_SECONDS) * 1000;
    this.failures = report?.stoppedBy ? this.failures + 1 : 0;
    return this.failures === 0 ? interval : Math.min(interval * 2 ** this.failures, Math.max(MAX_BACKOFF_MS, interval));
  }

  private schedule(delayMs: number): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => void this.tick(), delayMs);
    this.timer.unref();
  }

  private async tick(): Promise<void> {
    let report: ReconcileReport | null = null;
    const run = this.runLeased({ shouldStop: () => this.stopped });
    this.running = run;
    try {
      const outcome = await run;
      if (outcome.ran) report = outcome.report;
    } catch (error) {
      this.logger.error({ err: error instanceof Error ? error.message : String(error) }, 'reconciliation pass failed');
      report = { examined: 0, changes: [], aftermath: [], stoppedBy: 'error' };
    } finally {
      this.running = null;
    }
    this.schedule(this.nextDelayMs(report));
  }
}
