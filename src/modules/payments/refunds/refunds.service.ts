import { Injectable, Logger } from '@nestjs/common';
import { Clock } from '../../../common/clock/index.js';
import { ConflictError, DomainError, InvalidParamsError, NotFoundError } from '../../../common/errors/index.js';
import { GatewayRegistry, type GatewayRefunds, type ProviderRefund, ProviderRefundConflict, type RefundTarget } from '../../gateways/index.js';
import type { AppliedRefund } from '../provider-aftermath.js';
import { type IdempotencyCompletion, type IdempotentRequest, IdempotencyService } from '../../idempotency/index.js';
import { PaymentAftermathService } from '../payment-aftermath.service.js';
import { PaymentLogRepository } from '../payment-log.repository.js';
import type { PaymentEntity } from '../payment.entity.js';
import { PaymentRepository } from '../payment.repository.js';
import { PaymentTransactions } from '../payment-transactions.js';
import type { RefundEntity, RefundReason, RefundSource } from './refund.entity.js';
import { RefundRepository } from './refund.repository.js';
import { refundableAmount } from './refundable.js';

/** Dispute states that are over: a refund is possible again (a lost one took its amount already at the provider). */
const CLOSED_DISPUTE_STATUSES: readonly string[] = ['won', 'lost', 'warning_closed', 'prevented'];

export interface RefundInput {
  amount?: number;
  reason?: RefundReason;
  note?: string;
}

export interface RefundActor {
  userId: number;
  source: Exclude<RefundSource, 'provider'>;
}

/** What a refund request ends with: the refund row and the payment row after it. */
export interface RefundOutcome {
  refund: RefundEntity;
  payment: PaymentEntity;
}


/**
 * Refunds of payments (docs/payments.md, "Refunds and the ledger"). The amount is reserved by one
 * conditional UPDATE of the payment row committed with the pending refund row before the
 * provider is called (never inside a transaction); the provider's idempotency key is derived from
 * that row, so a repeat of the call never refunds twice. The answer goes through the ledger's one
 * applier (PaymentAftermathService), as the sweep's reads do: it moves the reservation to
 * `amount_refunded` (succeeded), gives it back (failed, canceled), or leaves it (pending, or no
 * answer: the provider may have refunded; a reconcile settles it). The gateway is reached only
 * through the port's `refunds` capability.
 */
@Injectable()
export class RefundsService {
  private readonly logger = new Logger(RefundsService.name);

  constructor(
    private readonly payments: PaymentRepository,
    private readonly refunds: RefundRepository,
    private readonly logs: PaymentLogRepository,
    private readonly transactions: PaymentTransactions,
    private readonly registry: GatewayRegistry,
    private readonly aftermath: PaymentAftermathService,
    private readonly idempotency: IdempotencyService,
    private readonly clock: Clock,
  ) {}

  /** POST /administration/payments/{id}/refunds, under the caller's `Idempotency-Key` when it sent one. */
  create(paymentId: number, input: RefundInput, actor: RefundActor, idempotent: IdempotentRequest | null): Promise<RefundOutcome> {
    return this.idempotency.run(idempotent, {
      execute: (complete) => this.refund(paymentId, input, actor, complete),
      resultIds: (outcome) => ({ refund_id: outcome.refund.id }),
      replay: async (stored) => this.current(Number(stored.refund_id)),
    });
  }

  /** A payment's refunds, newest first. */
  listOf(paymentId: number): Promise<RefundEntity[]> {
    return this.refunds.listOf(paymentId);
  }

  private async refund(paymentId: number, input: RefundInput, actor: RefundActor, complete: IdempotencyCompletion | null): Promise<RefundOutcome> {
    const payment = await this.payments.findById(paymentId);
    if (!payment) throw new NotFoundError('Payment');
    const gateway = this.refundsOf(payment);
    const target = toRefundTarget(payment);
    const refundable = refundableAmount(payment);
    if (refundable === 0) throw new ConflictError('checkout_invalid_state', 'Nothing is left to refund on this payment.');
    const amount = input.amount ?? refundable;
    if (amount > refundable) throw new InvalidParamsError({ amount: `amount must be at most ${refundable} (what is left to refund, in minor units)` });
    // The application's clock (as the sweeps read it), so the provider's time limit moves with it.
    const refusal = gateway.adapter.refusal(target, amount, this.clock.now());
    if (refusal?.kind === 'amount') throw new InvalidParamsError({ amount: refusal.message });
    if (refusal) throw new ConflictError('checkout_invalid_state', refusal.message);
    if (!(await gateway.isConnected(target.mode))) {
      throw new ConflictError('checkout_invalid_state', `${gateway.label} is not connected in ${payment.mode} mode, the mode this payment was made in: reconnect it to refund.`);
    }

    // The reservation and the pending row commit together, before the provider hears of them.
    const reserved = await this.transactions.run(async (manager) => {
      const now = new Date();
      if (!(await this.payments.reserveRefund(manager, paymentId, amount, now))) return null;
      const row = await this.refunds.insert(
        manager,
        {
          paymentId,
          gateway: payment.gateway,
          mode: payment.mode,
          amount,
          currency: payment.currency,
          status: 'pending',
          reason: input.reason ?? null,
          note: input.note ?? null,
          source: actor.source,
          providerRefundId: null,
          applicationFeeRefunded: null,
          createdBy: actor.userId,
          failureCode: null,
          failureMessage: null,
        },
        now,
      );
      await this.logs.record({ paymentId, level: 'info', event: 'refund_requested', message: `Refund ${row.id} of ${amount} requested by user ${actor.userId}.`, context: { refund_id: row.id, amount, source: actor.source } }, manager);
      if (complete) await complete({ refund_id: row.id }, manager);
      return row;
    });
    if (!reserved) {
      // Another refund took part of what was left since the read above.
      const now = await this.payments.findById(paymentId);
      const left = now ? refundableAmount(now) : 0;
      if (left === 0 || now?.status !== 'completed') throw new ConflictError('checkout_invalid_state', 'Nothing is left to refund on this payment.');
      throw new InvalidParamsError({ amount: `amount must be at most ${left} (what is left to refund, in minor units)` });
    }

    let answer: ProviderRefund;
    try {
      answer = await gateway.adapter.refund({ target, refundId: reserved.id, amount, reason: input.reason === undefined || input.reason === 'other' ? null : input.reason });
    } catch (error) {
      await this.providerFailed(reserved, error, target, gateway.adapter);
      throw error instanceof ProviderRefundConflict
        ? new ConflictError('checkout_invalid_state', 'The payment was refunded at the provider meanwhile; its refunds were read again. Reload the payment and try again.')
        : error;
    }
    await this.settle(reserved, answer);
    return this.current(reserved.id);
  }

  /** The refund and its payment as they are now (an answer, or the replay of a repeated key). */
  private async current(refundId: number): Promise<RefundOutcome> {
    const refund = await this.refunds.findById(refundId);
    const payment = refund ? await this.payments.findById(refund.paymentId) : null;
    if (!refund || !payment) throw new NotFoundError('Refund');
    return { refund, payment };
  }

  private refundsOf(payment: PaymentEntity): { adapter: GatewayRefunds; label: string; isConnected: (mode: RefundTarget['mode']) => Promise<boolean> } {
    if (payment.status !== 'completed') throw new ConflictError('checkout_invalid_state', `Only a completed payment can be refunded; this one is ${payment.status}.`);
    if (!payment.amountReceived) throw new ConflictError('checkout_invalid_state', 'This payment took no money (a saved payment method or a trial): there is nothing to refund.');
    if (payment.dispute && !CLOSED_DISPUTE_STATUSES.includes(payment.dispute.status)) {
      throw new ConflictError('checkout_invalid_state', `This payment has an open dispute (${payment.dispute.status}): it cannot be refunded until the dispute is closed.`);
    }
    const adapter = this.registry.find(payment.gateway);
    if (!adapter?.refunds) throw new ConflictError('checkout_invalid_state', 'This payment\'s gateway cannot refund.');
    return { adapter: adapter.refunds, label: adapter.label, isConnected: (mode) => adapter.isConnected(mode) };
  }

  /**
   * The provider did not refund: a refusal (or a changed payment) gives the reservation back; no
   * answer at all leaves the refund pending, because the provider may have made it (the reconcile
   * finds it by the idempotency key's refund id and settles it).
   */
  private async providerFailed(refund: RefundEntity, error: unknown, target: RefundTarget, adapter: GatewayRefunds): Promise<void> {
    const refused = error instanceof ProviderRefundConflict || (error instanceof DomainError && error.status !== 503);
    if (!refused) {
      await this.logs.record({ paymentId: refund.paymentId, level: 'warning', event: 'refund_unknown', message: `Refund ${refund.id}: the provider did not answer; it stays pending until a reconcile reads it.`, context: { refund_id: refund.id } });
      return;
    }
    const code = error instanceof ProviderRefundConflict ? error.providerCode : error instanceof DomainError ? error.code : 'unknown';
    // The provider made nothing: the refund failed here (no provider id), its reservation is given back.
    await this.settle(refund, { providerRefundId: null, status: 'failed', amount: refund.amount, currency: refund.currency, reason: null, applicationFeeRefunded: null, ownRefundId: refund.id, failureCode: code });
    if (error instanceof ProviderRefundConflict) {
      try {
        // What the provider holds now, through the same applier: a refund found there is bounded by what was received.
        await this.aftermath.apply({ paymentId: refund.paymentId, refunds: await adapter.list(target), disputes: [] }, 'admin:refund_conflict');
      } catch (readError) {
        this.logger.warn({ err: readError, payment_id: refund.paymentId }, 'could not read the refunds of a payment again after a conflict');
      }
    }
  }

  /** Applies the provider's answer to our own refund row (matched by its id: the answer is to our request). */
  private async settle(refund: RefundEntity, answer: AppliedRefund): Promise<void> {
    await this.aftermath.apply({ paymentId: refund.paymentId, refunds: [{ ...answer, ownRefundId: refund.id }], disputes: [] }, 'admin:refund');
  }
}

/** The refund target of a payment row: the part the gateways read. */
export function toRefundTarget(payment: PaymentEntity): RefundTarget {
  return {
    payment_id: payment.id,
    mode: payment.mode as RefundTarget['mode'],
    currency: payment.currency.toUpperCase(),
    amount_received: payment.amountReceived ?? 0,
    application_fee_amount: payment.applicationFeeAmount,
    provider_payment_ref: payment.providerPaymentRef,
    provider_charge_ref: payment.providerChargeRef,
    provider_capture_ref: payment.providerCaptureRef,
    created_at: payment.createdAt.toISOString(),
  };
}
