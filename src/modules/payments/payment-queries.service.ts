import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { InvalidParamsError, NotFoundError } from '../../common/errors/index.js';
import { decodeKeysetCursor, type KeysetPosition } from '../../common/http/index.js';
import { fromMinorUnits } from '../../common/money/index.js';
import type { JsonValue } from '../../common/openapi/index.js';
import type { CheckoutGateway, GatewayMode } from '../gateways/index.js';
import { CORE_FIELDS, FormsService } from '../forms/index.js';
import {
  type AdminPaymentDetailDto,
  type AdminPaymentDto,
  type AdminPaymentsFilterDto,
  type DailyPaymentTotalsDto,
  PAYMENT_LOG_TAIL,
  PAYMENT_RENEWALS_TAIL,
  type PaymentLogEntryDto,
  type PaymentTotalsDto,
} from './admin-payments.dto.js';
import type { CustomFields } from './custom-fields.js';
import { PaymentAftermathService } from './payment-aftermath.service.js';
import { PaymentEntity } from './payment.entity.js';
import type { PaymentLogEntity } from './payment-log.entity.js';
import { type PaymentLogLevel, PaymentLogRepository } from './payment-log.repository.js';
import { customFieldsOf, type PaymentRecord, toPaymentRecord } from './payment-record.js';
import type { PaymentStatus } from './payment-status.js';
import type { PaymentStatusResponseDto, TransactionStatusDto } from './payment-status.dto.js';
import { type AdminPaymentColumns, type LedgerSums, type PaymentExportBatchRow, type PaymentListFilter, PaymentRepository, type PaymentSweepCursor } from './payment.repository.js';
import { netAmount } from './provider-aftermath.js';
import { type RefundDto, toRefundDto } from './refunds/refund.dto.js';
import { RefundRepository } from './refunds/refund.repository.js';
import { refundableAmount } from './refunds/refundable.js';

/** One payment of the CSV export: the list's fields plus what the ledger columns of the file need. */
export interface PaymentExportRow extends AdminPaymentDto {
  amount_received: number | null;
  application_fee_amount: number | null;
  /** The provider's payment object (`pi_…`, `seti_…`, gateway B's order id) */
  provider_payment_reference: string | null;
  custom_fields: CustomFields;
  /** Succeeded refunds, minor units */
  amount_refunded: number;
  /** The application fee the provider gave back with succeeded refunds, minor units */
  application_fee_refunded: number;
  /** What lost disputes took back, minor units */
  lost_disputes: number;
  /** The payment has a dispute (open or settled) */
  disputed: boolean;
}

/** A filtered export of the admin list, read in batches (keyset paging, never the whole set in memory). */
export interface PaymentExport {
  /** Rows that matched when the export started */
  total: number;
  /** More rows matched than the export writes: only the newest `limit` are in it */
  truncated: boolean;
  limit: number;
  /**
   * With a `form_id` filter: the form's own field names that land in `custom_fields` (its fields
   * but the payer's email and names), in the form's order; empty otherwise or for a deleted form.
   */
  customFieldKeys: string[];
  /** The rows, newest first, a batch at a time; at most `limit` in all */
  batches(): AsyncGenerator<PaymentExportRow[]>;
}

/**
 * How many matching payments the admin list counts exactly: past it, X-WP-Total is an estimate
 * (X-Checkout-Total-Estimated), so that no request counts a million index entries.
 */
export const ADMIN_LIST_EXACT_COUNT_CAP = 10_000;

/** Reads of the payment records: the public status answer, section B status and history, lookups by provider id. */
@Injectable()
export class PaymentQueriesService {
  constructor(
    private readonly payments: PaymentRepository,
    private readonly logs: PaymentLogRepository,
    private readonly forms: FormsService,
    private readonly aftermath: PaymentAftermathService,
    private readonly refunds: RefundRepository,
  ) {}

  /** How many records each gateway, mode and status holds (the operator's metrics). */
  countByGatewayModeStatus(): Promise<Array<{ gateway: string; mode: string; status: string; count: number }>> {
    return this.payments.countByGatewayModeStatus();
  }

  /**
   * GET /administration/payments: a page of the filtered list, newest first (created_at, then id):
   * the page after `after` (keyset), else page `page` (offset). `next` is the last row's position
   * when more rows follow; `total` is counted up to ADMIN_LIST_EXACT_COUNT_CAP, estimated past it
   * (and for a search of common words only, docs/decisions.md §32).
   */
  async adminList(
    filter: AdminPaymentsFilterDto,
    paging: { page: number; perPage: number; after?: string },
  ): Promise<{ entries: AdminPaymentDto[]; total: number; estimated: boolean; next: KeysetPosition | null }> {
    const { page, perPage } = paging;
    if (paging.after !== undefined && page > 1) throw new InvalidParamsError({ page: 'page cannot be combined with after (the cursor names the page)' });
    const after = paging.after === undefined ? null : decodeKeysetCursor(paging.after);
    const listFilter = toListFilter(filter);
    const rows = after ? await this.payments.listAfter(listFilter, after, perPage + 1) : await this.payments.listPage(listFilter, (page - 1) * perPage, perPage + 1);
    const more = rows.length > perPage;
    if (more) rows.pop();
    const last = rows[rows.length - 1];
    // The last page of an offset listing (the first included) says the total itself: no count.
    const offset = (page - 1) * perPage;
    const { total, estimated } =
      !after && !more && (rows.length > 0 || page === 1)
        ? { total: offset + rows.length, estimated: false }
        : await this.payments.countUpTo(listFilter, ADMIN_LIST_EXACT_COUNT_CAP, { sampleCommonSearch: true });
    return { entries: await this.withFormTitles(rows), total, estimated, next: more && last ? { createdAt: last.createdAt, id: last.id } : null };
  }

  /** The newest `limit` payments the filter selects (the dashboard's lists): no count. */
  async adminNewest(filter: AdminPaymentsFilterDto, limit: number): Promise<AdminPaymentDto[]> {
    return this.withFormTitles(await this.payments.listAfter(toListFilter(filter), null, limit));
  }

  /**
   * GET /administration/payments/totals: what the filtered payments add up to per mode and currency
   * (the list's filters, parsed by the list's own parser), summed by the database.
   */
  async adminTotals(filter: AdminPaymentsFilterDto): Promise<PaymentTotalsDto[]> {
    const sums = await this.payments.ledgerSums(toListFilter(filter), false);
    return sums.map(toTotals).sort(byModeAndCurrency);
  }

  /**
   * The same totals per UTC day (the dashboard's chart, oldest day first) and for the whole period,
   * from one pass over the period's payments: the period's totals are its days added up, so the
   * dashboard does not read every payment of the period twice.
   */
  async adminTotalsByDay(filter: AdminPaymentsFilterDto): Promise<{ totals: PaymentTotalsDto[]; daily: DailyPaymentTotalsDto[] }> {
    const days = await this.payments.ledgerSums(toListFilter(filter), true);
    const periods = new Map<string, LedgerSums>();
    for (const day of days) {
      const key = `${day.mode} ${day.currency}`;
      const sum = periods.get(key);
      periods.set(key, sum ? addLedgerSums(sum, day) : { ...day, day: null });
    }
    return {
      totals: [...periods.values()].map(toTotals).sort(byModeAndCurrency),
      daily: days.map((row) => ({ day: row.day ?? '', ...toTotals(row) })).sort((a, b) => a.day.localeCompare(b.day) || byModeAndCurrency(a, b)),
    };
  }

  /**
   * GET /administration/payments/{id}: the record without its secrets, its provider ids, the tail
   * of its log, and the names of the users it mentions (`userNames`: identity's lookup, which the
   * caller passes: payments does not read the users table).
   */
  async adminDetail(id: number, userNames: UserNames): Promise<AdminPaymentDetailDto> {
    const row = await this.payments.findById(id);
    if (!row) throw new NotFoundError('Payment');
    const { entries, total } = await this.logs.tailOf(id, PAYMENT_LOG_TAIL);
    const fields = await this.adminFields(row);
    const log = entries.map(toLogEntry);
    const names = await userNames(mentionedUsers(fields.refunds, log));
    return { ...fields, log, log_total: total, user_names: Object.fromEntries([...names].map(([userId, name]) => [String(userId), name])) };
  }

  /**
   * The admin detail without its log, read through `manager` (a mover's transaction sees its own
   * move): an outgoing event's `data.payment`. No secrets or tokens are in it.
   */
  async adminSnapshot(manager: EntityManager, id: number): Promise<Omit<AdminPaymentDetailDto, DetailOnly>> {
    const row = await manager.findOne(PaymentEntity, { where: { id } });
    if (!row) throw new NotFoundError('Payment');
    return this.adminFields(row, manager);
  }

  private async adminFields(row: PaymentEntity, manager?: EntityManager): Promise<Omit<AdminPaymentDetailDto, DetailOnly>> {
    // Inside a transaction (adminSnapshot) every read goes through its manager: a read on another
    // pooled connection would wait for one while this transaction holds its own, and with every
    // connection so held (a burst of completions) none would ever come back.
    const form = row.formId === null ? null : await this.forms.findById(row.formId, manager);
    const record = toPaymentRecord(row);
    // Renewals hang under the subscription's first payment (their parent_payment_id).
    const [renewals, renewalsTotal] = row.frequency !== 'one-time' && row.parentPaymentId === null ? await this.payments.renewalsOf(row.id, PAYMENT_RENEWALS_TAIL, manager) : [[], 0];
    // A renewal shows its subscription as the first payment holds it.
    const parentId = row.parentPaymentId;
    const first = parentId === null ? row : await (manager ? manager.findOne(PaymentEntity, { where: { id: parentId } }) : this.payments.findById(parentId));
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
      card: record.card_brand && record.card_last4 ? { brand: record.card_brand, last4: record.card_last4 } : null,
      provider_references: {
        payment: record.provider_payment_ref,
        customer: record.provider_customer_ref,
        subscription: record.provider_subscription_ref,
        capture: record.provider_capture_ref,
        subscription_status: record.subscription_status,
      },
      refundable_amount: refundableAmount(row),
      dispute: row.dispute && { ...row.dispute, provider_url: await this.aftermath.disputeUrl(row.id, row.dispute.provider_dispute_id, manager) },
      subscription:
        first && first.frequency !== 'one-time' && first.providerSubscriptionRef !== null
          ? { status: first.subscriptionStatus, cancel_at_period_end: first.subscriptionCancelAtPeriodEnd, cancels_at: first.subscriptionCancelsAt?.toISOString() ?? null }
          : null,
      refunds: (await this.refunds.listOf(row.id, manager)).map(toRefundDto),
      renewals: renewals.map((renewal) => toAdminPayment(renewal, form?.title ?? null)),
      renewals_total: renewalsTotal,
    };
  }

  /**
   * The filtered list for a CSV export: the rows that exist when it starts (a payment created
   * meanwhile is not in it), at most `limit`, read `batchSize` at a time after the previous batch's
   * last (created_at, id), so neither the set nor the file is ever held in memory. One statement
   * per batch (the rows with their refunds' and disputes' sums); a form's title is read once per
   * export, when a batch first names the form.
   */
  async adminExport(filter: AdminPaymentsFilterDto, limit: number, batchSize: number): Promise<PaymentExport> {
    const listFilter = toListFilter(filter);
    const bounded: PaymentListFilter = { ...listFilter, maxId: await this.payments.maxId() };
    // Counted on the filter's own index (not under `id <= maxId`, which would read the primary key,
    // i.e. the table's data) and only up to the limit plus one: enough to know it is cut short.
    const { total, capped } = await this.payments.countUpTo(listFilter, limit);
    const form = filter.form_id === undefined ? null : await this.forms.findById(filter.form_id);
    const customFieldKeys = form ? form.settings.fields.map((field) => field.name).filter((name) => !(CORE_FIELDS as readonly string[]).includes(name)) : [];
    const { payments, forms } = this;
    const titles = new Map<number, string | null>();
    return {
      total,
      truncated: capped,
      limit,
      customFieldKeys,
      async *batches() {
        let written = 0;
        let cursor: { createdAt: Date; id: number } | null = null;
        while (written < limit) {
          const rows = await payments.exportBatch(bounded, cursor, Math.min(batchSize, limit - written));
          if (rows.length === 0) return;
          written += rows.length;
          const last = rows[rows.length - 1].payment;
          cursor = { createdAt: last.createdAt, id: last.id };
          const unnamed = [...new Set(rows.flatMap(({ payment }) => (payment.formId === null || titles.has(payment.formId) ? [] : [payment.formId])))];
          if (unnamed.length > 0) {
            const found = await forms.titlesOf(unnamed);
            for (const id of unnamed) titles.set(id, found.get(id) ?? null);
          }
          yield rows.map((row) => toExportRow(row, row.payment.formId === null ? null : (titles.get(row.payment.formId) ?? null)));
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

  /** A payer's records on this site (any case of the address), newest first, drafts left out; at most `limit`. */
  async findByPayerEmail(email: string, limit: number): Promise<PaymentRecord[]> {
    return (await this.payments.findByPayerEmail(email, limit)).map(toPaymentRecord);
  }

  async findByProviderRef(gateway: string, ref: string): Promise<PaymentRecord | null> {
    const row = await this.payments.findByProviderRef(gateway, ref);
    return row ? toPaymentRecord(row) : null;
  }

  /**
   * Records still waiting for their provider (see PaymentRepository.findWaiting): reconciliation's
   * candidates, oldest first by (created_at, id), after the record `after` (keyset paging).
   */
  async findWaiting(criteria: { olderThan: Date; since: Date; after?: PaymentSweepCursor | null; limit: number }): Promise<PaymentRecord[]> {
    const rows = await this.payments.findWaiting({ ...criteria, after: criteria.after ?? null });
    return rows.map(toPaymentRecord);
  }

  /** The payment an object of the provider took the money of (`provider_payment_ref`, else `provider_charge_ref`). */
  async findByRefundTarget(gateway: string, ref: string): Promise<PaymentRecord | null> {
    const row = await this.payments.findByRefundTarget(gateway, ref);
    return row ? toPaymentRecord(row) : null;
  }

  async findByCaptureRef(gateway: string, ref: string): Promise<PaymentRecord | null> {
    const row = await this.payments.findByCaptureRef(gateway, ref);
    return row ? toPaymentRecord(row) : null;
  }

  /**
   * Completed payments of a gateway with a capture, created since `since`, oldest first by
   * (created_at, id), after the record `after` (the gateway-B refund sweep's rolling cursor).
   */
  async findCaptured(criteria: { gateway: string; since: Date; after: PaymentSweepCursor | null; limit: number }): Promise<PaymentRecord[]> {
    return (await this.payments.findCaptured(criteria)).map(toPaymentRecord);
  }

  /** Captured payments of `gateway` holding a pending refund, oldest id first (at most `limit`). */
  async findHoldingPendingRefunds(criteria: { gateway: string; limit: number }): Promise<PaymentRecord[]> {
    return (await this.payments.findHoldingPendingRefunds(criteria)).map(toPaymentRecord);
  }

  /** The first payment of a provider subscription. */
  async findSubscriptionPayment(gateway: string, subscriptionRef: string): Promise<PaymentRecord | null> {
    const row = await this.payments.findBySubscriptionRef(gateway, subscriptionRef);
    return row ? toPaymentRecord(row) : null;
  }
}

/**
 * One group's sums as the API answers them. Net is `netAmount`, the CSV export's one definition,
 * applied to the sums over the payments that received something: it is linear in its facts, so
 * this is the sum of those payments' nets.
 */
function toTotals(sums: LedgerSums): PaymentTotalsDto {
  const applicationFees = sums.applicationFeesKept;
  return {
    mode: sums.mode as GatewayMode,
    currency: sums.currency,
    payments: sums.matched,
    paid: sums.paid,
    failed: sums.failed,
    gross: sums.received,
    refunded: sums.refunded,
    application_fees: applicationFees,
    lost_disputes: sums.lostDisputes,
    net: netAmount({ amountReceived: sums.received, amountRefunded: sums.refunded, applicationFeeKept: applicationFees, lostDisputes: sums.lostDisputes }) ?? 0,
  };
}

/** Live before test (real money first), then by currency code. */
/** Two sums of the same mode and currency, added (a period from its days). */
function addLedgerSums(a: LedgerSums, b: LedgerSums): LedgerSums {
  return {
    mode: a.mode,
    currency: a.currency,
    day: null,
    matched: a.matched + b.matched,
    paid: a.paid + b.paid,
    failed: a.failed + b.failed,
    received: a.received + b.received,
    refunded: a.refunded + b.refunded,
    applicationFeesKept: a.applicationFeesKept + b.applicationFeesKept,
    lostDisputes: a.lostDisputes + b.lostDisputes,
  };
}

function byModeAndCurrency(a: Pick<PaymentTotalsDto, 'mode' | 'currency'>, b: Pick<PaymentTotalsDto, 'mode' | 'currency'>): number {
  return (a.mode === b.mode ? 0 : a.mode === 'live' ? -1 : 1) || a.currency.localeCompare(b.currency);
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

/** The query's filters as the repository takes them: instants parsed; the search as given (the repository normalises its words as the terms are). */
function toListFilter(query: AdminPaymentsFilterDto): PaymentListFilter {
  const createdFrom = query.created_from === undefined ? undefined : new Date(query.created_from);
  const createdBefore = query.created_before === undefined ? undefined : new Date(query.created_before);
  if (createdFrom && createdBefore && createdFrom >= createdBefore) throw new InvalidParamsError({ created_before: 'created_before must be later than created_from' });
  return {
    status: query.status,
    gateway: query.gateway,
    mode: query.mode,
    currency: query.currency,
    formId: query.form_id,
    createdFrom,
    createdBefore,
    search: query.search ? query.search : undefined,
    refunded: query.refunded,
    disputed: query.disputed === undefined ? undefined : query.disputed === 'true',
  };
}

function toAdminPayment(row: AdminPaymentColumns, formTitle: string | null): AdminPaymentDto {
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
    failure_reason: row.failureReason,
    amount_refunded: row.amountRefunded,
    disputed: row.dispute !== null,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

/** A payment of the export: the list's fields, then the ledger's and the provider's facts the file's columns need. */
function toExportRow({ payment: row, feeRefunded, lostDisputes }: PaymentExportBatchRow, formTitle: string | null): PaymentExportRow {
  const exported = toAdminPayment(row, formTitle) as PaymentExportRow;
  exported.amount_received = row.amountReceived;
  exported.application_fee_amount = row.applicationFeeAmount;
  exported.provider_payment_reference = row.providerPaymentRef;
  exported.custom_fields = customFieldsOf(row);
  exported.application_fee_refunded = feeRefunded;
  exported.lost_disputes = lostDisputes;
  return exported;
}

/** What the admin detail has that an outgoing event's `data.payment` has not: the log and the users' names. */
type DetailOnly = 'log' | 'log_total' | 'user_names';

/** Display names of users by id; an id that is no user (any more) is absent. */
export type UserNames = (ids: readonly number[]) => Promise<ReadonlyMap<number, string>>;

/** The users a payment's refunds and log lines name (`created_by`, `context.user_id`), each once. */
function mentionedUsers(refunds: readonly RefundDto[], log: readonly PaymentLogEntryDto[]): number[] {
  const ids = new Set<number>();
  for (const refund of refunds) if (refund.created_by !== null) ids.add(refund.created_by);
  for (const line of log) {
    const userId = line.context?.user_id;
    if (typeof userId === 'number' && Number.isInteger(userId)) ids.add(userId);
  }
  return [...ids];
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
