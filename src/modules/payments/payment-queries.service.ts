import { Injectable } from '@nestjs/common';
import { NotFoundError } from '../../common/errors/index.js';
import { fromMinorUnits } from '../../common/money/index.js';
import type { PaymentEntity } from './payment.entity.js';
import { PaymentLogRepository } from './payment-log.repository.js';
import { type PaymentRecord, toPaymentRecord } from './payment-record.js';
import type { PaymentStatus } from './payment-status.js';
import type { PaymentStatusResponseDto, TransactionStatusDto } from './payment-status.dto.js';
import { PaymentRepository } from './payment.repository.js';

/** Reads of the payment records: the public status answer, section B status and history, lookups by provider id. */
@Injectable()
export class PaymentQueriesService {
  constructor(
    private readonly payments: PaymentRepository,
    private readonly logs: PaymentLogRepository,
  ) {}

  /** POST /payment/status: the local outcome of a verified reference. */
  statusOf(payment: PaymentRecord): PaymentStatusResponseDto {
    return {
      payment_id: payment.id,
      status: payment.status,
      amount: payment.amount,
      currency: payment.currency,
      mode: payment.mode,
      gateway: payment.gateway,
      updated_at: payment.updated_at,
    };
  }

  /** Section B GET /payment/status. */
  async transactionStatus(transactionId: string): Promise<TransactionStatusDto> {
    const row = await this.payments.findByTransactionId(transactionId);
    if (!row) throw new NotFoundError('Payment');
    return toTransactionStatus(row);
  }

  /** Section B GET /payment/history: newest first. */
  async history(page: number, perPage: number): Promise<{ entries: TransactionStatusDto[]; total: number; totalPages: number }> {
    const [rows, total] = await this.payments.page((page - 1) * perPage, perPage);
    return { entries: rows.map(toTransactionStatus), total, totalPages: Math.ceil(total / perPage) };
  }

  /** The record section B's `transaction_id` names: its provider payment id, or the local id while it has none. */
  async findByTransactionId(transactionId: string): Promise<PaymentRecord | null> {
    const row = await this.payments.findByTransactionId(transactionId);
    return row ? toPaymentRecord(row) : null;
  }

  /** How many lines of the payment's log carry one of `events` (e.g. refusals a gateway counts its attempts by). */
  async countLogEvents(paymentId: number, events: readonly string[]): Promise<number> {
    return this.logs.count(paymentId, events);
  }

  async findById(id: number): Promise<PaymentRecord | null> {
    const row = await this.payments.findById(id);
    return row ? toPaymentRecord(row) : null;
  }

  async findByProviderRef(gateway: string, ref: string): Promise<PaymentRecord | null> {
    const row = await this.payments.findByProviderRef(gateway, ref);
    return row ? toPaymentRecord(row) : null;
  }

  /** Records still waiting for their provider (see PaymentRepository.findWaiting): reconciliation's candidates. */
  async findWaiting(criteria: { olderThan: Date; since: Date; afterId?: number; limit: number }): Promise<PaymentRecord[]> {
    const rows = await this.payments.findWaiting({ ...criteria, afterId: criteria.afterId ?? 0 });
    return rows.map(toPaymentRecord);
  }

  /** The first payment of a provider subscription. */
  async findSubscriptionPayment(gateway: string, subscriptionRef: string): Promise<PaymentRecord | null> {
    const row = await this.payments.findBySubscriptionRef(gateway, subscriptionRef);
    return row ? toPaymentRecord(row) : null;
  }
}

function toTransactionStatus(row: PaymentEntity): TransactionStatusDto {
  return {
    transaction_id: row.providerPaymentRef ?? String(row.id),
    status: row.status as PaymentStatus,
    amount: fromMinorUnits(row.amount, row.currency),
    currency: row.currency,
    date: row.createdAt.toISOString(),
  };
}
