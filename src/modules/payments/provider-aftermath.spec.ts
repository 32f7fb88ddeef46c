import type { ProviderRefund } from '../gateways/index.js';
import { type AppliedRefund, applicationFeeKept, isOpenDispute, lostDisputeAmount, netAmount, planRefund, shownDispute } from './provider-aftermath.js';

const at = (day: number) => new Date(Date.UTC(2026, 10, day));
const dispute = (id: string, status: string, day: number, amount = 1000) => ({ providerDisputeId: id, status, createdAt: at(day), amount });
const reported = (fields: Partial<ProviderRefund> = {}): ProviderRefund => ({
  providerRefundId: 're_1',
  amount: 300,
  currency: 'USD',
  status: 'succeeded',
  reason: null,
  applicationFeeRefunded: null,
  ownRefundId: null,
  failureCode: null,
  ...fields,
});

describe('provider aftermath rules', () => {
  it('shows the latest open dispute, else the latest', () => {
    expect(shownDispute([])).toBeNull();
    expect(shownDispute([dispute('du_a', 'lost', 1), dispute('du_b', 'won', 3)])?.providerDisputeId).toBe('du_b');
    expect(shownDispute([dispute('du_a', 'needs_response', 1), dispute('du_b', 'won', 3)])?.providerDisputeId).toBe('du_a');
    expect(shownDispute([dispute('du_a', 'under_review', 1), dispute('du_b', 'warning_needs_response', 2), dispute('du_c', 'lost', 5)])?.providerDisputeId).toBe('du_b');
    expect(['needs_response', 'under_review', 'warning_needs_response'].every(isOpenDispute)).toBe(true);
    expect(['won', 'lost', 'warning_closed', 'prevented'].some(isOpenDispute)).toBe(false);
  });

  it('counts lost disputes against net, with refunds and the fee kept', () => {
    expect(lostDisputeAmount([dispute('du_a', 'lost', 1, 400), dispute('du_b', 'won', 2, 600), dispute('du_c', 'lost', 3, 100)])).toBe(500);
    expect(netAmount({ amountReceived: 1000, amountRefunded: 300, applicationFeeKept: 14, lostDisputes: 500 })).toBe(186);
    expect(applicationFeeKept(20, 6)).toBe(14);
    expect(applicationFeeKept(null, 0)).toBe(0);
    // A refund that reports more fee given back than the payment carried keeps nothing, never a negative fee.
    expect(applicationFeeKept(10, 30)).toBe(0);
    expect(netAmount({ amountReceived: null, amountRefunded: 0, applicationFeeKept: 0, lostDisputes: 0 })).toBeNull();
  });

  it('inserts a refund made at the provider, once: a second pass changes nothing', () => {
    expect(planRefund([], reported())).toEqual({ kind: 'insert', refunded: 300, reserved: 0 });
    expect(planRefund([], reported({ status: 'pending' }))).toEqual({ kind: 'insert', refunded: 0, reserved: 300 });
    expect(planRefund([], reported({ status: 'failed' }))).toEqual({ kind: 'insert', refunded: 0, reserved: 0 });
    const stored = { id: 7, amount: 300, status: 'succeeded' as const, providerRefundId: 're_1' };
    expect(planRefund([stored], reported())).toEqual({ kind: 'none' });
  });

  it('settles our pending refund by its provider id or, after a lost commit, by our id in its metadata', () => {
    const pendingOurs = { id: 7, amount: 300, status: 'pending' as const, providerRefundId: null };
    // No provider id stored (the commit after the provider's answer was lost): matched by our id.
    expect(planRefund([pendingOurs], reported({ ownRefundId: 7 }))).toEqual({ kind: 'update', refund: pendingOurs, refunded: 300, reserved: -300 });
    // Without our id it would be a second refund: the metadata is what keeps it from counting twice.
    expect(planRefund([pendingOurs], reported())).toEqual({ kind: 'insert', refunded: 300, reserved: 0 });
    const withId = { ...pendingOurs, providerRefundId: 're_1' };
    expect(planRefund([withId], reported({ status: 'failed' }))).toEqual({ kind: 'update', refund: withId, refunded: 0, reserved: -300 });
    expect(planRefund([withId], reported({ status: 'pending' }))).toEqual({ kind: 'none' });
  });

  it('takes the provider\'s word over a refund we marked failed; a succeeded one that fails later gives its amount back', () => {
    const failed = { id: 8, amount: 300, status: 'failed' as const, providerRefundId: null };
    expect(planRefund([failed], reported({ ownRefundId: 8 }))).toEqual({ kind: 'update', refund: failed, refunded: 300, reserved: 0 });
    const succeeded = { id: 9, amount: 300, status: 'succeeded' as const, providerRefundId: 're_1' };
    expect(planRefund([succeeded], reported({ status: 'failed' }))).toEqual({ kind: 'update', refund: succeeded, refunded: -300, reserved: 0 });
    expect(planRefund([succeeded], reported({ status: 'canceled' }))).toEqual({ kind: 'update', refund: succeeded, refunded: -300, reserved: 0 });
    // A pending answer after it is stale (the route's own answer read after the sweep's).
    expect(planRefund([succeeded], reported({ status: 'pending' }))).toEqual({ kind: 'none' });
  });

  it('settles the refunds route\'s own refund by our id when the provider made nothing (no provider id)', () => {
    const pendingOurs = { id: 7, amount: 300, status: 'pending' as const, providerRefundId: null };
    const refused: AppliedRefund = { ...reported({ status: 'failed', ownRefundId: 7, failureCode: 'amount_too_large' }), providerRefundId: null };
    expect(planRefund([pendingOurs], refused)).toEqual({ kind: 'update', refund: pendingOurs, refunded: 0, reserved: -300 });
    // Never matched to another refund without a provider id, never inserted.
    expect(planRefund([{ ...pendingOurs, id: 6 }], refused)).toEqual({ kind: 'none' });
  });
});
