import type { INestApplicationContext } from '@nestjs/common';
import { DomainError } from './common/errors/index.js';
import { type ReconcileChange, ReconciliationService, ReconciliationTask } from './modules/operations/index.js';

/** A reconcile option the CLI cannot use: printed with the usage, exit 2. */
export class ReconcileUsageError extends Error {}

export interface ReconcileArguments {
  /** `--payment <id>`: that payment only, at once, whatever its age. */
  payment?: string;
  /** `--since <date|age>`: payments created since then (the sweep's default is 30 days). */
  since?: string;
  /** `--min-age <age>`: payments untouched for at least this long (the sweep's default is five minutes). */
  minAge?: string;
}

/** What to reconcile, checked before the application starts. */
export type ReconcileRequest = { paymentId: number } | { paymentId?: undefined; since?: Date; minAgeMs?: number };

export interface ReconcileIo {
  out(line: string): void;
  err(line: string): void;
}

const UNIT_MS: Record<string, number> = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** An age such as `30s`, `10m`, `2h`, `7d`, in milliseconds. */
export function parseDuration(value: string, option: string): number {
  const age = /^(\d{1,6})([smhd])$/.exec(value);
  if (!age) throw new ReconcileUsageError(`--${option} must be an age such as 30s, 10m, 2h or 7d`);
  return Number(age[1]) * UNIT_MS[age[2]];
}

/** `2026-11-01` (a date, UTC) or an age such as `7d`, `24h`, `30m`, counted back from `now`. */
export function parseSince(value: string, now = new Date()): Date {
  if (/^\d{1,6}[smhd]$/.test(value)) return new Date(now.getTime() - parseDuration(value, 'since'));
  const date = new Date(value);
  if (!/^\d{4}-\d{2}-\d{2}/.test(value) || Number.isNaN(date.getTime())) throw new ReconcileUsageError('--since must be a date (2026-11-01) or an age (7d, 24h, 30m)');
  return date;
}

function parsePaymentId(value: string): number {
  if (!/^[1-9]\d{0,9}$/.test(value) || Number(value) > 2_147_483_647) throw new ReconcileUsageError('--payment must be a payment id (a positive integer)');
  return Number(value);
}

function describe(change: ReconcileChange): string {
  const move = change.outcome === 'skipped' ? '' : ` ${change.from} -> ${change.to}`;
  return `payment ${change.payment_id} (${change.gateway}): ${change.outcome}${move}${change.detail ? ` (${change.detail})` : ''}`;
}

/** The command line's options as a request; a ReconcileUsageError names the one that is wrong. */
export function parseReconcileArguments(args: ReconcileArguments, now = new Date()): ReconcileRequest {
  if (args.payment !== undefined) {
    if (args.since !== undefined || args.minAge !== undefined) throw new ReconcileUsageError('--payment settles one payment whatever its age: it takes neither --since nor --min-age');
    return { paymentId: parsePaymentId(args.payment) };
  }
  return {
    ...(args.since === undefined ? {} : { since: parseSince(args.since, now) }),
    ...(args.minAge === undefined ? {} : { minAgeMs: parseDuration(args.minAge, 'min-age') }),
  };
}

/**
 * `npm run cli -- reconcile [--since <date|age>] [--min-age <age>] | --payment <id>`, in an
 * application context with every gateway slice. Without `--payment`: one pass of the sweep under
 * the background task's lease. With it: that payment only, at once, whatever its age and without
 * the lease (a pass that holds it may run for minutes; the ledger serialises moves of one record,
 * as it does for a webhook that arrives at the same time). Exit 0 when done, 1 when something is
 * left to look at (a provider failure, a mismatch, no such payment, the lease busy).
 */
export async function runReconcileCommand(app: INestApplicationContext, request: ReconcileRequest, io: ReconcileIo): Promise<number> {
  if (request.paymentId !== undefined) return reconcileOne(app, request.paymentId, io);
  const outcome = await app.get(ReconciliationTask).runLeased({ since: request.since, minAgeMs: request.minAgeMs });
  if (!outcome.ran) {
    io.err('Another instance is reconciling right now; try again in a few minutes (or name one payment with --payment <id>).');
    return 1;
  }
  const { report } = outcome;
  for (const change of report.changes) io.out(describe(change));
  io.out(`Examined ${report.examined} waiting payment(s); ${report.changes.filter((change) => change.outcome === 'moved').length} moved.`);
  if (report.stoppedBy) {
    io.err(`Stopped early: ${report.stoppedBy}. Run it again once the provider answers.`);
    return 1;
  }
  return 0;
}

async function reconcileOne(app: INestApplicationContext, paymentId: number, io: ReconcileIo): Promise<number> {
  let change: ReconcileChange | null;
  try {
    change = await app.get(ReconciliationService).reconcileOne(paymentId);
  } catch (error) {
    if (error instanceof DomainError && (error.status === 502 || error.status === 503)) {
      io.err(`payment ${paymentId}: the provider did not answer (${error.code}); nothing changed. Run it again once the provider answers.`);
      return 1;
    }
    throw error;
  }
  if (!change) {
    io.err(`No payment ${paymentId}.`);
    return 1;
  }
  io.out(describe(change));
  return change.outcome === 'mismatch' ? 1 : 0;
}
