import type { ProviderDispute, ProviderRefund } from '../gateways/index.js';

/**
 * The rules that turn what a provider reports after a payment (refunds, disputes) into the ledger's
 * numbers, without the database: which dispute the payment shows, what a lost dispute takes, what
 * applying a provider refund changes. PaymentAftermathService applies them in one transaction.
 */

/** Dispute statuses that are settled (in the card gateway's words; gateway B's are mapped onto them). */
const CLOSED_DISPUTES = new Set(['won', 'lost', 'warning_closed', 'prevented']);

export function isOpenDispute(status: string): boolean {
  return !CLOSED_DISPUTES.has(status);
}

/** The dispute a payment shows: the latest open one, else the latest (null when there is none). */
export function shownDispute<T extends Pick<ProviderDispute, 'status' | 'createdAt' | 'providerDisputeId'>>(disputes: readonly T[]): T | null {
  const newestFirst = [...disputes].sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime() || b.providerDisputeId.localeCompare(a.providerDisputeId));
  return newestFirst.find((dispute) => isOpenDispute(dispute.status)) ?? newestFirst[0] ?? null;
}

/** The dispute status whose amount the provider took back for good (counts against net). */
export const LOST_DISPUTE_STATUS = 'lost';

/** What lost disputes took back, in minor units (counts against net). */
export function lostDisputeAmount(disputes: ReadonlyArray<Pick<ProviderDispute, 'status' | 'amount'>>): number {
  return disputes.filter((dispute) => dispute.status === LOST_DISPUTE_STATUS).reduce((sum, dispute) => sum + dispute.amount, 0);
}

/**
 * The application fee a payment keeps: its fee less what succeeded refunds gave back of it, never
 * below 0. (PaymentRepository.ledgerSums sums the same rule per payment in SQL.)
 */
export function applicationFeeKept(fee: number | null, feeRefunded: number): number {
  return Math.max(0, (fee ?? 0) - feeRefunded);
}

/**
 * Net of a payment: the amount received, less refunds that succeeded, less the application fee kept
 * (the fee less what refunds returned of it), less what lost disputes took. Null while nothing was received.
 * It is linear in its facts, so the net of the sums over payments that received something is the
 * sum of their nets: the totals (PaymentQueriesService.ledgerTotals) call it with SQL sums.
 */
export function netAmount(facts: { amountReceived: number | null; amountRefunded: number; applicationFeeKept: number; lostDisputes: number }): number | null {
  if (facts.amountReceived === null) return null;
  return facts.amountReceived - facts.amountRefunded - facts.applicationFeeKept - facts.lostDisputes;
}

/**
 * A provider's refund as the applier takes it: the provider id is null only for the refunds
 * route's own verdict on a refusal (the provider made nothing, the refund failed here).
 */
export type AppliedRefund = Omit<ProviderRefund, 'providerRefundId'> & { providerRefundId: string | null };

/** A refund of ours as the ledger holds it (the part the rules read). */
export interface KnownRefund {
  id: number;
  amount: number;
  status: ProviderRefund['status'];
  providerRefundId: string | null;
}

/**
 * What applying one provider refund does: `insert` a refund the provider made (source `provider`),
 * `update` ours (found by provider id, or by our id in its metadata/idempotency key: the route's
 * own pending refund, or the crash repair of a refund whose commit was lost), or `none` when
 * nothing changes (a second pass). The deltas move `amount_refunded` (succeeded refunds) and
 * `refund_reserved` (pending ones) so that every refund counts once, in one place.
 */
export type RefundApplication =
  | { kind: 'none' }
  | { kind: 'insert'; refunded: number; reserved: number }
  | { kind: 'update'; refund: KnownRefund; refunded: number; reserved: number };

export function planRefund(known: readonly KnownRefund[], reported: AppliedRefund): RefundApplication {
  const match =
    (reported.providerRefundId !== null ? known.find((refund) => refund.providerRefundId === reported.providerRefundId) : undefined) ??
    (reported.ownRefundId !== null ? known.find((refund) => refund.id === reported.ownRefundId && refund.providerRefundId === null) : undefined);
  const weight = (status: ProviderRefund['status'], amount: number) => ({ refunded: status === 'succeeded' ? amount : 0, reserved: status === 'pending' ? amount : 0 });
  const after = weight(reported.status, reported.amount);
  if (!match) return reported.providerRefundId === null ? { kind: 'none' } : { kind: 'insert', ...after };
  const sameId = reported.providerRefundId === null || match.providerRefundId === reported.providerRefundId;
  if (match.status === reported.status && sameId && match.amount === reported.amount) return { kind: 'none' };
  // A succeeded refund goes back only to failed or canceled (the gateway says so when the payer's bank returns it: its amount is refundable again); a pending answer after it is stale.
  if (match.status === 'succeeded' && reported.status === 'pending') return { kind: 'none' };
  // The provider's word wins otherwise: a refund we marked failed after a lost answer may have gone through.
  const before = weight(match.status, match.amount);
  return { kind: 'update', refund: match, refunded: after.refunded - before.refunded, reserved: after.reserved - before.reserved };
}
