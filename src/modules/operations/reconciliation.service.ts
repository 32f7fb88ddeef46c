import { Injectable, Logger } from '@nestjs/common';
import { Clock } from '../../common/clock/index.js';
import { DomainError } from '../../common/errors/index.js';
import { CHECKOUT_ALIAS } from '../../config/index.js';
import { GatewayRegistry, type ProviderAftermathReader, type ReconcileResult } from '../gateways/index.js';
import { type AftermathChange, PaymentAftermathService, PaymentQueriesService, type PaymentSweepCursor } from '../payments/index.js';
import { OptionsService } from '../settings/index.js';

/** A record untouched for this long has missed its webhook (deliveries normally arrive within seconds). */
export const RECONCILE_MIN_AGE_MS = 5 * 60_000;
/** How far back the sweep looks by default. */
export const RECONCILE_DEFAULT_WINDOW_MS = 30 * 24 * 3600_000;
/** At most this many records per run: a big backlog is worked off over several runs. */
export const RECONCILE_MAX_PER_RUN = 200;
/** Records read per statement (a keyset page of the window, oldest first). */
export const RECONCILE_PAGE = 50;
/** At most five provider reads a second. */
export const RECONCILE_PAUSE_MS = 200;
/**
 * Where the next default pass starts: the last record the previous one walked when it stopped at
 * its bound (`{ created_at, id }`), or null (from the window's start).
 */
export const RECONCILE_CURSOR_OPTION = `${CHECKOUT_ALIAS}_reconcile_cursor`;

interface StoredCursor {
  created_at: string;
  id: number;
}

/** The stored cursor, or null when there is none, it does not read as one, or it lies before the window. */
function cursorOf(stored: unknown, since: Date): PaymentSweepCursor | null {
  if (typeof stored !== 'object' || stored === null) return null;
  const { created_at: createdAt, id } = stored as Partial<StoredCursor>;
  const at = typeof createdAt === 'string' ? new Date(createdAt) : null;
  if (!at || Number.isNaN(at.getTime()) || at.getTime() < since.getTime() || !Number.isSafeInteger(id) || (id as number) < 1) return null;
  return { createdAt: at, id: id as number };
}

/** The sweep's order: creation time, then id. */
function compareKeys(a: PaymentSweepCursor, b: PaymentSweepCursor): number {
  return a.createdAt.getTime() - b.createdAt.getTime() || a.id - b.id;
}

export interface ReconcileChange extends ReconcileResult {
  payment_id: number;
  gateway: string;
}

export interface ReconcileReport {
  examined: number;
  changes: ReconcileChange[];
  /** Refunds and disputes made at the providers that changed a payment (a second pass finds none). */
  aftermath: Array<AftermathChange & { gateway: string }>;
  /** Why the run stopped early: a provider failed (the sweep backs off). */
  stoppedBy: string | null;
}

export interface ReconcileOptions {
  /** Records created since then (default 30 days). */
  since?: Date;
  /** Records untouched for at least this long (default RECONCILE_MIN_AGE_MS). */
  minAgeMs?: number;
  maxRecords?: number;
  pauseMs?: number;
  /** Asked before each record: true ends the pass there (the instance is shutting down). */
  shouldStop?: () => boolean;
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
    private readonly aftermath: PaymentAftermathService,
    private readonly options: OptionsService,
  ) {}

  async runOnce(options: ReconcileOptions = {}): Promise<ReconcileReport> {
    const now = this.clock.now();
    const since = options.since ?? new Date(now.getTime() - RECONCILE_DEFAULT_WINDOW_MS);
    const olderThan = new Date(now.getTime() - (options.minAgeMs ?? RECONCILE_MIN_AGE_MS));
    const maxRecords = options.maxRecords ?? RECONCILE_MAX_PER_RUN;
    const pauseMs = options.pauseMs ?? RECONCILE_PAUSE_MS;
    const report: ReconcileReport = { examined: 0, changes: [], aftermath: [], stoppedBy: null };
    // The default pass (the background task, a plain `reconcile`) goes on where the previous one
    // stopped at its bound, and once at the window's end starts over from the window's start up to
    // there: payments still waiting after a read (an intent the payer left) cannot hold back the
    // newer ones, however many there are. A pass with its own window or age walks it from its start.
    const rolling = options.since === undefined && options.minAgeMs === undefined;
    const start = rolling ? cursorOf(await this.options.get<unknown>(RECONCILE_CURSOR_OPTION, null), since) : null;
    // Keyset pages in (created_at, id) order over the window: each page is an index range from the last record on.
    let after: PaymentSweepCursor | null = start;
    let wrapped = start === null;
    let complete = false;
    walk: while (report.examined < maxRecords) {
      const batch = await this.payments.findWaiting({ olderThan, since, after, limit: Math.min(RECONCILE_PAGE, maxRecords - report.examined) });
      if (batch.length === 0) {
        if (wrapped) {
          complete = true;
          break;
        }
        wrapped = true;
        after = null;
        continue;
      }
      for (const payment of batch) {
        if (options.shouldStop?.()) return report;
        const key = { createdAt: new Date(payment.created_at), id: payment.id };
        // Back where this pass began: the whole window was walked.
        if (wrapped && start && compareKeys(key, start) >= 0) {
          complete = true;
          break walk;
        }
        after = key;
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
    if (rolling) {
      const next: StoredCursor | null = complete || !after ? null : { created_at: after.createdAt.toISOString(), id: after.id };
      if (next !== null || start !== null) await this.options.set(RECONCILE_CURSOR_OPTION, next);
    }
    if (options.shouldStop?.()) return report;
    if (!(await this.sweepAftermath(report))) return report;
    if (report.examined > 0 || report.aftermath.length > 0) {
      this.logger.log({ examined: report.examined, moved: report.changes.filter((change) => change.outcome === 'moved').length, aftermath: report.aftermath.length }, 'reconciliation pass');
    }
    return report;
  }

  /**
   * Each gateway's news about refunds and disputes made at the provider, applied payment by payment
   * (idempotent: the same news again changes nothing); the gateway's cursor moves only after all of
   * it was applied. False when a provider failed (the pass stops there, the caller backs off).
   */
  private async sweepAftermath(report: ReconcileReport): Promise<boolean> {
    for (const adapter of this.registry.all()) {
      const reader = adapter.providerAftermath;
      if (!reader) continue;
      try {
        // Payments the reconciler just moved were read from their provider in this run already.
        const sweep = await reader.sweep(new Set(report.changes.filter((change) => change.outcome === 'moved').map((change) => change.payment_id)));
        for (const found of sweep.payments) {
          const change = await this.aftermath.apply(found, 'reconcile');
          if (change.changed) report.aftermath.push({ ...change, gateway: adapter.id });
        }
        await sweep.commit();
      } catch (error) {
        if (error instanceof DomainError && (error.status === 502 || error.status === 503)) {
          report.stoppedBy = `${adapter.id}: ${error.code}`;
          this.logger.warn({ gateway: adapter.id, code: error.code }, 'refund and dispute sweep stopped: the provider failed');
          return false;
        }
        throw error;
      }
    }
    return true;
  }

  /**
   * One named payment, at once, whatever its age (an operator who knows its webhook was lost): read
   * back from its provider and moved exactly as the sweep would move it. `null` when there is no
   * such payment; `skipped` with the reason when it is not waiting for its provider (no provider
   * object yet, or already settled). A provider failure is thrown (502/503 DomainError).
   */
  async reconcileOne(paymentId: number): Promise<ReconcileChange | null> {
    const payment = await this.payments.findById(paymentId);
    if (!payment) return null;
    const base = { payment_id: payment.id, gateway: payment.gateway, from: payment.status, to: payment.status };
    const reader = this.registry.get(payment.gateway).providerAftermath;
    if (payment.status === 'completed' && reader) return this.readAftermath(payment.id, payment.gateway, payment.status, reader);
    if (payment.status !== 'pending' && payment.status !== 'processing') return { ...base, outcome: 'skipped', detail: `not waiting for its provider: it is ${payment.status}` };
    if (!payment.provider_payment_ref) return { ...base, outcome: 'skipped', detail: 'the payer has not reached the provider yet: there is nothing to read' };
    const reconciler = this.registry.get(payment.gateway).reconciler;
    if (!reconciler) return { ...base, outcome: 'skipped', detail: `${payment.gateway} cannot be read back` };
    const result = await reconciler.reconcile(payment.id);
    this.logger.log({ payment_id: payment.id, gateway: payment.gateway, outcome: result.outcome, from: result.from, to: result.to }, 'reconciled one payment');
    return { payment_id: payment.id, gateway: payment.gateway, ...result };
  }

  /** A completed payment: every refund and dispute its provider holds for it, applied at once. */
  private async readAftermath(paymentId: number, gateway: string, status: string, reader: ProviderAftermathReader): Promise<ReconcileChange> {
    const base = { payment_id: paymentId, gateway, from: status, to: status };
    const found = await reader.readPayment(paymentId);
    if (!found) return { ...base, outcome: 'skipped', detail: 'the provider holds nothing this gateway can read for it' };
    const change = await this.aftermath.apply(found, 'reconcile');
    this.logger.log({ payment_id: paymentId, gateway, changed: change.changed, detail: change.detail }, 'read back the refunds and disputes of one payment');
    return { ...base, outcome: change.changed ? 'moved' : 'unchanged', detail: change.detail };
  }
}
