import { Injectable, Logger } from '@nestjs/common';
import { Clock } from '../../common/clock/index.js';
import { DomainError } from '../../common/errors/index.js';
import { GatewayRegistry, type ReconcileResult } from '../gateways/index.js';
import { PaymentQueriesService } from '../payments/index.js';

/** A record untouched for this long has missed its webhook (deliveries normally arrive within seconds). */
export const RECONCILE_MIN_AGE_MS = 5 * 60_000;
/** How far back the sweep looks by default. */
export const RECONCILE_DEFAULT_WINDOW_MS = 30 * 24 * 3600_000;
/** At most this many records per run: a big backlog is worked off over several runs. */
export const RECONCILE_MAX_PER_RUN = 200;
const PAGE = 50;
/** At most five provider reads a second. */
export const RECONCILE_PAUSE_MS = 200;

export interface ReconcileChange extends ReconcileResult {
  payment_id: number;
  gateway: string;
}

export interface ReconcileReport {
  examined: number;
  changes: ReconcileChange[];
  /** Why the run stopped early: a provider failed (the sweep backs off). */
  stoppedBy: string | null;
}

export interface ReconcileOptions {
  /** Records created since then (default 30 days). */
  since?: Date;
  maxRecords?: number;
  pauseMs?: number;
}

/**
 * One reconciliation pass (issue: payments stuck when a webhook never arrives): every record still
 * `pending` or `processing` with a provider object, older than a few minutes, is read back from its
 * provider through its gateway's reconciler and moved as its webhook would have moved it. Bounded in
 * size and provider call rate; a provider failure stops the pass so the caller can back off.
 */
@Injectable()
export class ReconciliationService {
  private readonly logger = new Logger('Reconciliation');

  constructor(
    private readonly payments: PaymentQueriesService,
    private readonly registry: GatewayRegistry,
    private readonly clock: Clock,
  ) {}

  async runOnce(options: ReconcileOptions = {}): Promise<ReconcileReport> {
    const now = this.clock.now();
    const since = options.since ?? new Date(now.getTime() - RECONCILE_DEFAULT_WINDOW_MS);
    const olderThan = new Date(now.getTime() - RECONCILE_MIN_AGE_MS);
    const maxRecords = options.maxRecords ?? RECONCILE_MAX_PER_RUN;
    const pauseMs = options.pauseMs ?? RECONCILE_PAUSE_MS;
    const report: ReconcileReport = { examined: 0, changes: [], stoppedBy: null };
    let afterId = 0;
    while (report.examined < maxRecords) {
      const batch = await this.payments.findWaiting({ olderThan, since, afterId, limit: Math.min(PAGE, maxRecords - report.examined) });
      if (batch.length === 0) break;
      for (const payment of batch) {
        afterId = payment.id;
        const reconciler = this.registry.get(payment.gateway).reconciler;
        if (!reconciler) continue;
        report.examined += 1;
        try {
          const result = await reconciler.reconcile(payment.id);
          if (result.outcome !== 'unchanged' && result.outcome !== 'skipped') report.changes.push({ payment_id: payment.id, gateway: payment.gateway, ...result });
        } catch (error) {
          if (error instanceof DomainError && (error.status === 502 || error.status === 503)) {
            report.stoppedBy = `${payment.gateway}: ${error.code}`;
            this.logger.warn({ payment_id: payment.id, gateway: payment.gateway, code: error.code }, 'reconciliation stopped: the provider failed');
            return report;
          }
          throw error;
        }
        if (pauseMs > 0) await new Promise((resolve) => setTimeout(resolve, pauseMs));
      }
    }
    if (report.examined > 0) this.logger.log({ examined: report.examined, moved: report.changes.filter((change) => change.outcome === 'moved').length }, 'reconciliation pass');
    return report;
  }
}
