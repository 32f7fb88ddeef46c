import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { InvalidParamsError, NotFoundError } from '../../common/errors/index.js';
import { fromMinorUnits } from '../../common/money/index.js';
import type { JsonValue } from '../../common/openapi/index.js';
import type { CheckoutGateway, GatewayMode } from '../gateways/index.js';
import { FormsService } from '../forms/index.js';
import { type AdminPaymentDetailDto, type AdminPaymentDto, type AdminPaymentsFilterDto, PAYMENT_LOG_TAIL, type PaymentLogEntryDto } from './admin-payments.dto.js';
import type { CustomFields } from './custom-fields.js';
import { PaymentEntity } from './payment.entity.js';
import type { PaymentLogEntity } from './payment-log.entity.js';
import { type PaymentLogLevel, PaymentLogRepository } from './payment-log.repository.js';
import { type PaymentRecord, toPaymentRecord } from './payment-record.js';
import type { PaymentStatus } from './payment-status.js';
import type { PaymentStatusResponseDto, TransactionStatusDto } from './payment-status.dto.js';
import { type PaymentListFilter, PaymentRepository } from './payment.repository.js';

/** A filtered export of the admin list, read in batches (keyset paging, never the whole set in memory). */
export interface PaymentExport {
  /** Rows that matched when the export started */
  total: number;
  /** More rows matched than the export writes: only the newest `limit` are in it */
  truncated: boolean;
  limit: number;
  /** The rows, newest first, a batch at a time; at most `limit` in all */
  batches(): AsyncGenerator<AdminPaymentDto[]>;
}

/** Reads of the payment records: the public status answer, section B status and history, lookups by provider id. */
@Injectable()
export class PaymentQueriesService {
  constructor(
    private readonly payments: PaymentRepository,
    private readonly logs: PaymentLogRepository,
    private readonly forms: FormsService,
  ) {}

  /** How many records each gateway, mode and status holds (the operator's metrics). */
  countByGatewayModeStatus(): Promise<Array<{ gateway: string; mode: string; status: string; count: number }>> {
    return this.payments.countByGatewayModeStatus();
  }

  /** GET /administration/payments: a page of the filtered list, newest first (created_at, then id). */
  async adminList(filter: AdminPaymentsFilterDto, page: number, perPage: number): Promise<{ entries: AdminPaymentDto[]; total: number }> {
    const [rows, total] = await this.payments.listPage(toListFilter(filter), (page - 1) * perPage, perPage);
    return { entries: await this.withFormTitles(rows), total };
  }

  /** GET /administration/payments/{id}: the record without its secrets, its provider ids and the tail of its log. */
  async adminDetail(id: number): Promise<AdminPaymentDetailDto> {
    const row = await this.payments.findById(id);
    if (!row) throw new NotFoundError('Payment');
    const { entries, total } = await this.logs.tailOf(id, PAYMENT_LOG_TAIL);
    return { ...(await this.adminFields(row)), log: entries.map(toLogEntry), log_total: total };
  }

  /**
   * The admin detail without its log, read through `manager` (a mover's transaction sees its own
   * move): an outgoing event's `data.payment`. No secrets or tokens are in it.
   */
  async adminSnapshot(manager: EntityManager, id: number): Promise<Omit<AdminPaymentDetailDto, 'log' | 'log_total'>> {
    const row = await manager.findOne(PaymentEntity, { where: { id } });
    if (!row) throw new NotFoundError('Payment');
    return this.adminFields(row);
  }

  private async adminFields(row: PaymentEntity): Promise<Omit<AdminPaymentDetailDto, 'log' | 'log_total'>> {
    const form = row.formId === null ? null : await this.forms.findById(row.formId);
    const record = toPaymentRecord(row);
    return {
      ...toAdminPayment(row, form?.title ?? null),
      amount_received: record.amount_received,
      application_fee_amount: record.application_fee_amount,
      setup_amount: record.setup_amount,
      plan_index: record.plan_index,
      price_index: record.price_index,
      plan_title: record.plan_index === null ? null : (form?.settings.plans[record.plan_index]?.title ?? null),
      frequency: record.frequency,
      custom_fields: record.custom_fields satisfies CustomFields,
      provider_references: {
        payment: record.provider_payment_ref,
        customer: record.provider_customer_ref,
        subscription: record.provider_subscription_ref,
        capture: record.provider_capture_ref,
        subscription_status: record.subscription_status,
      },
    };
  }

  /**
   * The filtered list for a CSV export: the rows that exist when it starts (a payment created
   * meanwhile is not in it), at most `limit`, read `batchSize` at a time after the previous batch's
   * last (created_at, id), so neither the set nor the file is ever held in memory.
   */
  async adminExport(filter: AdminPaymentsFilterDto, limit: number, batchSize: number): Promise<PaymentExport> {
    const bounded: PaymentListFilter = { ...toListFilter(filter), maxId: await this.payments.maxId() };
    const total = await this.payments.count(bounded);
    const payments = this.payments;
    const withTitles = (rows: PaymentEntity[]) => this.withFormTitles(rows);
    return {
      total,
      truncated: total > limit,
      limit,
      async *batches() {
        let written = 0;
        let cursor: { createdAt: Date; id: number } | null = null;
        while (written < limit) {
          const rows = await payments.listAfter(bounded, cursor, Math.min(batchSize, limit - written));
          if (rows.length === 0) return;
          written += rows.length;
          const last = rows[rows.length - 1];
          cursor = { createdAt: last.createdAt, id: last.id };
          yield await withTitles(rows);
        }
      },
    };
  }

  private async withFormTitles(rows: PaymentEntity[]): Promise<AdminPaymentDto[]> {
    const titles = await this.forms.titlesOf(rows.flatMap((row) => (row.formId === null ? [] : [row.formId])));
    return rows.map((row) => toAdminPayment(row, row.formId === null ? null : (titles.get(row.formId) ?? null)));
  }

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

/** The query's filters as the repository takes them: instants parsed, the search lower-cased (it is matched against LOWER(column)). */
function toListFilter(query: AdminPaymentsFilterDto): PaymentListFilter {
  const createdFrom = query.created_from === undefined ? undefined : new Date(query.created_from);
  const createdBefore = query.created_before === undefined ? undefined : new Date(query.created_before);
  if (createdFrom && createdBefore && createdFrom >= createdBefore) throw new InvalidParamsError({ created_before: 'created_before must be later than created_from' });
  return {
    status: query.status,
    gateway: query.gateway,
    mode: query.mode,
    formId: query.form_id,
    createdFrom,
    createdBefore,
    search: query.search ? query.search.toLowerCase() : undefined,
  };
}

function toAdminPayment(row: PaymentEntity, formTitle: string | null): AdminPaymentDto {
  return {
    id: row.id,
    status: row.status as PaymentStatus,
    amount: row.amount,
    currency: row.currency,
    gateway: row.gateway as CheckoutGateway,
    payment_method: row.paymentMethod,
    mode: row.mode as GatewayMode,
    email_address: row.emailAddress,
    first_name: row.firstName,
    last_name: row.lastName,
    form_id: row.formId,
    form_title: formTitle,
    parent_payment_id: row.parentPaymentId,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

function toLogEntry(row: PaymentLogEntity): PaymentLogEntryDto {
  return {
    id: row.id,
    level: row.level as PaymentLogLevel,
    event: row.event,
    message: row.message,
    context: row.context ? (JSON.parse(row.context) as { [key: string]: JsonValue }) : null,
    created_at: row.createdAt.toISOString(),
  };
}
