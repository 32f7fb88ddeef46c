import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { type EntityManager, In, Repository } from 'typeorm';
import type { ProviderDispute } from '../gateways/index.js';
import type { PaymentEntity } from './payment.entity.js';
import { PaymentDisputeEntity } from './payment-dispute.entity.js';
import { PaymentEvents } from './payment-events.js';
import { PaymentLogRepository } from './payment-log.repository.js';
import { toPaymentRecord } from './payment-record.js';
import { PaymentTransactions } from './payment-transactions.js';
import { PaymentRepository } from './payment.repository.js';
import { type AppliedRefund, isOpenDispute, lostDisputeAmount, planRefund, shownDispute } from './provider-aftermath.js';
import { RefundEmails } from './refunds/refund-emails.js';
import { toRefundDto } from './refunds/refund.dto.js';
import { REFUND_REASONS, RefundEntity, type RefundReason } from './refunds/refund.entity.js';
import { RefundRepository } from './refunds/refund.repository.js';

/** What the provider reports of one payment, as the applier takes it. */
export interface PaymentAftermathReport {
  paymentId: number;
  refunds: readonly AppliedRefund[];
  disputes: readonly ProviderDispute[];
}

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
    private readonly refundEmails: RefundEmails,
    private readonly refunds: RefundRepository,
    private readonly events: PaymentEvents,
  ) {}

  /** Applies a provider's report of one payment in one transaction holding the payment's row lock (a second pass changes nothing). */
  async apply(found: PaymentAftermathReport, source: string): Promise<AftermathChange> {
    return this.transactions.run(async (manager) => {
      const payment = await this.payments.lockById(manager, found.paymentId);
      if (!payment) return { payment_id: found.paymentId, changed: false, refunds_changed: 0, disputes_changed: 0, detail: 'no such payment' };
      let refundsChanged = 0;
      for (const refund of found.refunds) if (await this.applyRefund(manager, payment, refund, source)) refundsChanged += 1;
      let disputesChanged = 0;
      const opened: ProviderDispute[] = [];
      for (const dispute of found.disputes) {
        const change = await this.applyDispute(manager, payment.id, payment.gateway, dispute, source);
        if (change) disputesChanged += 1;
        if (change === 'opened') opened.push(dispute);
      }
      if (disputesChanged > 0) await this.showDispute(manager, payment.id);
      // A new dispute is announced once, after the payment shows it (the event carries the payment's detail).
      for (const dispute of opened) {
        await this.events.announce(manager, { type: 'payment.disputed', payment: toPaymentRecord(payment), data: { dispute: { status: dispute.status, amount: dispute.amount, currency: dispute.currency, reason: dispute.reason, evidence_due_by: dispute.evidenceDueBy?.toISOString() ?? null, provider_dispute_id: dispute.providerDisputeId, provider_url: dispute.dashboardUrl } } });
      }
      const changed = refundsChanged + disputesChanged > 0;
      const detail = changed ? `${refundsChanged} refund change(s), ${disputesChanged} dispute change(s)` : 'the provider agrees with the ledger';
      return { payment_id: payment.id, changed, refunds_changed: refundsChanged, disputes_changed: disputesChanged, detail };
    });
  }

  /**
   * The one place a provider's refund reaches the ledger (the refunds route's answer, its re-read
   * after a conflict, the sweep, `reconcile --payment`): upserts it (by its provider id, or ours by
   * the id in its metadata: the repair of a refund whose commit was lost, or the route's own
   * pending refund) and moves `amount_refunded` / `refund_reserved` by the same amounts in one
   * conditional UPDATE of the payment row, which refuses to let refunds exceed what was received.
   * A refund that becomes succeeded is announced (`payment.refunded`) and mailed to the payer, once.
   * True when something changed.
   */
  private async applyRefund(manager: EntityManager, payment: PaymentEntity, reported: AppliedRefund, source: string): Promise<boolean> {
    const mismatch = async (why: string) => {
      await this.logs.record(
        { paymentId: payment.id, level: 'error', event: 'refund_mismatch', message: `A refund at the provider was not applied: ${why}.`, context: { source, provider_refund_id: reported.providerRefundId, amount: reported.amount, currency: reported.currency } },
        manager,
      );
      return false;
    };
    if (reported.currency.toUpperCase() !== payment.currency.toUpperCase()) return mismatch('its currency differs from the payment');
    if (reported.providerRefundId !== null) {
      const elsewhere = await manager.getRepository(RefundEntity).findOne({ where: { gateway: payment.gateway, providerRefundId: reported.providerRefundId } });
      if (elsewhere && elsewhere.paymentId !== payment.id) return mismatch('the ledger holds it for another payment');
    }
    const known = await this.refunds.listOf(payment.id, manager);
    const plan = planRefund(known, reported);
    if (plan.kind === 'none') return false;
    const now = new Date();
    // The one place the totals move: never past what was received, never below zero.
    if ((plan.refunded !== 0 || plan.reserved !== 0) && !(await this.payments.moveRefundTotals(manager, payment.id, plan.refunded, plan.reserved, now))) {
      return mismatch('it would refund more than the payment received');
    }
    const ended = reported.status === 'failed' || reported.status === 'canceled';
    // What the row was before this change (the row object itself is updated below).
    const was = plan.kind === 'update' ? plan.refund.status : null;
    const facts = {
      status: reported.status,
      amount: reported.amount,
      ...(reported.providerRefundId !== null ? { providerRefundId: reported.providerRefundId } : {}),
      ...(reported.applicationFeeRefunded !== null ? { applicationFeeRefunded: reported.applicationFeeRefunded } : {}),
      ...(ended ? { failureCode: reported.failureCode?.slice(0, 100) ?? null } : {}),
    };
    const row =
      plan.kind === 'insert'
        ? await this.refunds.insert(
            manager,
            { paymentId: payment.id, gateway: payment.gateway, mode: payment.mode, currency: payment.currency, reason: toRefundReason(reported.reason), note: null, source: 'provider', providerRefundId: null, applicationFeeRefunded: null, createdBy: null, failureCode: null, failureMessage: null, ...facts },
            now,
          )
        : Object.assign(known.find((each) => each.id === plan.refund.id)!, facts, { updatedAt: now });
    if (plan.kind === 'update') await this.refunds.update(manager, row.id, facts, now);
    if (reported.status === 'succeeded' && was !== 'succeeded') {
      // The payer hears of every refund that succeeded, made here or at the provider, and so do the merchant's endpoints: with this commit, through the outbox.
      await this.refundEmails.schedule(manager, row.id);
      await this.events.announce(manager, { type: 'payment.refunded', payment: toPaymentRecord(payment), data: { refund: toRefundDto(row) } });
    }
    await this.logs.record(
      {
        paymentId: payment.id,
        level: ended ? 'warning' : 'info',
        event: plan.kind === 'insert' ? 'refund_recorded' : 'refund_updated',
        message:
          plan.kind === 'insert'
            ? `A refund of ${reported.amount} (minor units) made at the provider is ${reported.status}.`
            : `Refund ${row.id} is ${reported.status} at the provider (was ${was}).`,
        context: { source, provider_refund_id: reported.providerRefundId, refund_id: row.id, status: reported.status, amount: reported.amount, failure_code: ended ? (reported.failureCode ?? null) : null },
      },
      manager,
    );
    return true;
  }

  /** The payment's `dispute`: the latest open one of its disputes, else the latest. */
  private async showDispute(manager: EntityManager, paymentId: number): Promise<void> {
    const rows = await manager.getRepository(PaymentDisputeEntity).find({ where: { paymentId } });
    const shown = shownDispute(rows.map((row) => ({ row, status: row.status, createdAt: row.openedAt, providerDisputeId: row.providerDisputeId })))?.row ?? null;
    await this.payments.update(manager, paymentId, {
      updatedAt: new Date(),
      dispute: shown && { status: shown.status, amount: shown.amount, reason: shown.reason, evidence_due_by: shown.evidenceDueBy?.toISOString() ?? null, provider_dispute_id: shown.providerDisputeId },
    });
  }

  /** Upserts one dispute: `opened` when it is new, `updated` when it changed, false otherwise. */
  private async applyDispute(manager: EntityManager, paymentId: number, gateway: string, dispute: ProviderDispute, source: string): Promise<'opened' | 'updated' | false> {
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
    return stored ? 'updated' : 'opened';
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

  /** The provider's page for one of a payment's disputes (the gateway slice's dashboard link, in the payment's mode), or null. */
  async disputeUrl(paymentId: number, providerDisputeId: string, manager: EntityManager = this.disputes.manager): Promise<string | null> {
    const row = await manager.findOne(PaymentDisputeEntity, { where: { paymentId, providerDisputeId } });
    return row?.dashboardUrl || null;
  }

  /** Open disputes, newest first (at most `limit`): the dashboard raises a notification for each. */
  async openDisputes(limit: number): Promise<Array<PaymentDisputeView & { payment_id: number; currency: string }>> {
    const rows = await this.disputes.find({ where: { status: In(OPEN_STATUSES) }, order: { openedAt: 'DESC', id: 'DESC' }, take: limit });
    return rows.map((row) => ({ ...toDisputeView(row), payment_id: row.paymentId, currency: row.currency }));
  }
}

function toRefundReason(reason: string | null): RefundReason | null {
  if (reason === null) return null;
  return (REFUND_REASONS as readonly string[]).includes(reason) ? (reason as RefundReason) : 'other';
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
