import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { type EntityManager, In, Repository } from 'typeorm';
import type { PaymentAftermath, ProviderDispute } from '../gateways/index.js';
import { PaymentDisputeEntity } from './payment-dispute.entity.js';
import { PaymentLogRepository } from './payment-log.repository.js';
import { PaymentTransactions } from './payment-transactions.js';
import { PaymentRepository } from './payment.repository.js';
import { isOpenDispute, lostDisputeAmount, shownDispute } from './provider-aftermath.js';

/** What applying one payment's aftermath changed (nothing on a second pass). */
export interface AftermathChange {
  payment_id: number;
  changed: boolean;
  refunds_changed: number;
  disputes_changed: number;
  detail: string;
}

/** A payment's dispute as the admin screens show it. */
export interface PaymentDisputeView {
  status: string;
  amount: number;
  reason: string | null;
  evidence_due_by: string | null;
  provider_dispute_id: string;
  /** The provider's page for it */
  dashboard_url: string;
}

/**
 * Applies what a provider reports after a payment (refunds and disputes made at the provider) to
 * the ledger, idempotently: each provider object is upserted by its provider id, in one
 * transaction per payment holding the payment's row lock (so a webhook, a refund from the console
 * and the sweep never interleave on one payment), with a payment-log line per change. Nothing here
 * calls a provider.
 */
@Injectable()
export class PaymentAftermathService {
  constructor(
    @InjectRepository(PaymentDisputeEntity) private readonly disputes: Repository<PaymentDisputeEntity>,
    private readonly transactions: PaymentTransactions,
    private readonly payments: PaymentRepository,
    private readonly logs: PaymentLogRepository,
  ) {}

  async apply(found: PaymentAftermath, source: string): Promise<AftermathChange> {
    return this.transactions.run(async (manager) => {
      const payment = await this.payments.lockById(manager, found.paymentId);
      if (!payment) return { payment_id: found.paymentId, changed: false, refunds_changed: 0, disputes_changed: 0, detail: 'no such payment' };
      let disputesChanged = 0;
      for (const dispute of found.disputes) if (await this.applyDispute(manager, payment.id, payment.gateway, dispute, source)) disputesChanged += 1;
      const changed = disputesChanged > 0;
      const detail = changed ? `${disputesChanged} dispute change(s)` : 'the provider agrees with the ledger';
      return { payment_id: payment.id, changed, refunds_changed: 0, disputes_changed: disputesChanged, detail };
    });
  }

  /** Upserts one dispute; true when it is new or changed. */
  private async applyDispute(manager: EntityManager, paymentId: number, gateway: string, dispute: ProviderDispute, source: string): Promise<boolean> {
    const repository = manager.getRepository(PaymentDisputeEntity);
    const stored = await repository.findOne({ where: { gateway, providerDisputeId: dispute.providerDisputeId } });
    if (stored && stored.paymentId !== paymentId) return false;
    const values = {
      status: dispute.status.slice(0, 40),
      amount: dispute.amount,
      currency: dispute.currency,
      reason: dispute.reason?.slice(0, 64) ?? null,
      evidenceDueBy: dispute.evidenceDueBy,
      dashboardUrl: dispute.dashboardUrl.slice(0, 500),
    };
    if (stored && stored.status === values.status && stored.amount === values.amount && (stored.evidenceDueBy?.getTime() ?? null) === (values.evidenceDueBy?.getTime() ?? null)) return false;
    const now = new Date();
    if (stored) await repository.update({ id: stored.id }, { ...values, updatedAt: now });
    else await repository.insert({ paymentId, gateway, providerDisputeId: dispute.providerDisputeId, openedAt: dispute.createdAt, updatedAt: now, ...values });
    await this.logs.record(
      {
        paymentId,
        level: isOpenDispute(values.status) ? 'warning' : 'info',
        event: stored ? 'dispute_updated' : 'dispute_opened',
        message: stored ? `The dispute is now ${values.status} (was ${stored.status}).` : `The payer's bank opened a dispute (${values.status}) for ${dispute.amount} ${dispute.currency}.`,
        context: { source, provider_dispute_id: dispute.providerDisputeId, status: values.status, evidence_due_by: values.evidenceDueBy?.toISOString() ?? null },
      },
      manager,
    );
    return true;
  }

  /** The dispute each payment shows (the latest open one, else the latest), and what lost disputes took. */
  async disputesOf(paymentIds: readonly number[]): Promise<Map<number, { shown: PaymentDisputeView; lost: number }>> {
    const result = new Map<number, { shown: PaymentDisputeView; lost: number }>();
    if (paymentIds.length === 0) return result;
    const rows = await this.disputes.find({ where: { paymentId: In([...paymentIds]) } });
    const byPayment = new Map<number, PaymentDisputeEntity[]>();
    for (const row of rows) byPayment.set(row.paymentId, [...(byPayment.get(row.paymentId) ?? []), row]);
    for (const [paymentId, list] of byPayment) {
      const shown = shownDispute(list.map((row) => ({ row, status: row.status, createdAt: row.openedAt, providerDisputeId: row.providerDisputeId })))!.row;
      result.set(paymentId, { shown: toDisputeView(shown), lost: lostDisputeAmount(list) });
    }
    return result;
  }

  /** Open disputes, newest first (at most `limit`): the dashboard raises a notification for each. */
  async openDisputes(limit: number): Promise<Array<PaymentDisputeView & { payment_id: number; currency: string }>> {
    const rows = await this.disputes.find({ where: { status: In(OPEN_STATUSES) }, order: { openedAt: 'DESC', id: 'DESC' }, take: limit });
    return rows.map((row) => ({ ...toDisputeView(row), payment_id: row.paymentId, currency: row.currency }));
  }
}

/** The open statuses in the card gateway's words (the only ones a provider reader gives). */
const OPEN_STATUSES = ['warning_needs_response', 'warning_under_review', 'needs_response', 'under_review', 'appeal_needs_response', 'appeal_under_review'];

function toDisputeView(row: PaymentDisputeEntity): PaymentDisputeView {
  return {
    status: row.status,
    amount: row.amount,
    reason: row.reason,
    evidence_due_by: row.evidenceDueBy?.toISOString() ?? null,
    provider_dispute_id: row.providerDisputeId,
    dashboard_url: row.dashboardUrl,
  };
}
