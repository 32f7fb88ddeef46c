import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { ConflictError, InvalidParamsError, NotFoundError } from '../../common/errors/index.js';
import { fromMinorUnits } from '../../common/money/index.js';
import { isDuplicateKeyError } from '../../database/index.js';
import { CORE_FIELDS, type PaymentForm } from '../forms/index.js';
import { type CheckoutContext, CheckoutContextService } from './checkout-context.service.js';
import { type CustomFields, normaliseCustomFields } from './custom-fields.js';
import type { PaymentEntity } from './payment.entity.js';
import { type PaymentLogEntry, PaymentLogRepository } from './payment-log.repository.js';
import { PATCHABLE_FIELDS, type PaymentPatch, type PaymentRecord, toPaymentRecord } from './payment-record.js';
import { InvalidPaymentReferenceError, PaymentReferenceService } from './payment-reference.service.js';
import { decideTransition, type PaymentStatus } from './payment-status.js';
import type { PaymentStatusResponseDto, TransactionStatusDto } from './payment-status.dto.js';
import { PaymentCompletionEmails } from './payment-completion-emails.js';
import { PaymentTransactions } from './payment-transactions.js';
import { PaymentRepository } from './payment.repository.js';
import type { SyncDetailsDto, SyncDetailsResponseDto } from './sync-details.dto.js';

export type TransitionOutcome = 'applied' | 'unchanged' | 'ignored' | 'refused';

export interface TransitionOptions {
  /** Who asks, for the log: `webhook:gateway_a`, `checkout:gateway_b`, `sync-details`... */
  source: string;
  reason?: string;
  /** Provider facts stored with the move (also on an `unchanged` repeat, never on a refused or ignored one). */
  patch?: PaymentPatch;
  /** A refused (illegal) move throws 409 `checkout_invalid_state` unless this is true (webhooks answer 200). */
  tolerateRefusal?: boolean;
}

export interface TransitionResult {
  outcome: TransitionOutcome;
  from: PaymentStatus;
  payment: PaymentRecord;
}

/** One paid or failed invoice of a subscription after its first one. */
export interface RenewalFacts {
  /** The provider's invoice id: one renewal row per invoice (stored as `provider_payment_ref`). */
  invoiceRef: string;
  /** Minor units */
  amount: number;
  currency: string;
  status: 'completed' | 'failed';
  applicationFeeAmount?: number | null;
  source: string;
}

export interface RenewalResult {
  /** `created`: a new renewal row; otherwise what the status machine did to the existing one. */
  outcome: 'created' | TransitionOutcome;
  payment: PaymentRecord;
}

export class InvalidPaymentStateError extends ConflictError {
  constructor(message: string) {
    super('checkout_invalid_state', message);
  }
}

/** An admin charge without a form (section B `POST /gateway-a/payment`, `POST /payment/process`). */
export interface AdminChargeInput {
  gateway: PaymentRecord['gateway'];
  method: string;
  mode: PaymentRecord['mode'];
  /** Minor units of `currency` */
  amount: number;
  currency: string;
  description?: string;
  userId: number;
  /** For the log: the route that asked */
  source: string;
}

/** Statuses in which sync-details may still change a record (failed: a retry moves it back to pending). */
const EDITABLE: readonly PaymentStatus[] = ['pending', 'failed'];

/**
 * Owns the payment records and their log: creation and updates from the public checkout,
 * the status machine (every move in a transaction with the row locked, refusals logged), and
 * the section B reads.
 */
@Injectable()
export class PaymentsService {
  constructor(
    private readonly payments: PaymentRepository,
    private readonly logs: PaymentLogRepository,
    private readonly transactions: PaymentTransactions,
    private readonly completionEmails: PaymentCompletionEmails,
    private readonly references: PaymentReferenceService,
    private readonly context: CheckoutContextService,
  ) {}

  /** POST /payment/sync-details: creates (no payment_id) or updates a partial record. */
  async syncDetails(input: SyncDetailsDto, clientIp: string | undefined): Promise<{ created: boolean; body: SyncDetailsResponseDto }> {
    const existing = input.payment_id === undefined ? null : await this.authorisedRecord(input);
    const checkout = await this.context.resolve({
      formId: input.form_id,
      gateway: input.payment_gateway,
      method: input.payment_method,
      planIndex: input.plan_index ?? 0,
      priceIndex: input.price_index ?? 0,
      amount: input.amount,
    });
    const customFields = input.custom_fields === undefined ? undefined : checkedCustomFields(checkout.form, input.custom_fields);
    const row = existing
      ? await this.updateDetails(existing.id, input, checkout, customFields)
      : await this.createRecord(input, checkout, customFields ?? {}, clientIp);
    const payment = toPaymentRecord(row);
    const { token, expiresAt } = this.references.issueToken(payment);
    return {
      created: !existing,
      body: {
        payment_id: payment.id,
        payment_secret: this.references.secretOf(row),
        checkout_token: token,
        checkout_token_expires_at: expiresAt.toISOString(),
        amount: payment.amount,
        currency: payment.currency,
        setup_amount: payment.setup_amount,
        mode: payment.mode,
        status: payment.status,
      },
    };
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

  /**
   * A form-less pending record for an admin charge (section B virtual terminal): no payer
   * fields, no client IP; the charge's outcome is recorded with `transition` afterwards.
   */
  async createAdminCharge(input: AdminChargeInput): Promise<PaymentRecord> {
    const row = await this.transactions.run(async (manager) => {
      const created = await this.payments.insert(manager, {
        gateway: input.gateway,
        paymentMethod: input.method,
        mode: input.mode,
        status: 'pending',
        amount: input.amount,
        currency: input.currency,
        frequency: 'one-time',
        secretNonce: this.references.newNonce(),
      });
      await this.logs.record(
        {
          paymentId: created.id,
          level: 'info',
          event: 'payment_created',
          message: `Admin charge created by user ${input.userId} (${input.source}).`,
          context: { source: input.source, user_id: input.userId, gateway: input.gateway, amount: input.amount, currency: input.currency, mode: input.mode, description: input.description ?? null },
        },
        manager,
      );
      return created;
    });
    return toPaymentRecord(row);
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

  async findById(id: number): Promise<PaymentRecord | null> {
    const row = await this.payments.findById(id);
    return row ? toPaymentRecord(row) : null;
  }

  async getById(id: number): Promise<PaymentRecord> {
    const payment = await this.findById(id);
    if (!payment) throw new NotFoundError('Payment');
    return payment;
  }

  async findByProviderRef(gateway: string, ref: string): Promise<PaymentRecord | null> {
    const row = await this.payments.findByProviderRef(gateway, ref);
    return row ? toPaymentRecord(row) : null;
  }

  /**
   * The status machine. Locks the row, then: a legal move is applied (with `patch`) and logged;
   * a repeat of the current status applies `patch` only; a backward move (a late event) is logged
   * and ignored; an illegal move is logged and refused with 409 (unless `tolerateRefusal`).
   * Call it after, never during, a provider request.
   */
  async transition(paymentId: number, to: PaymentStatus, options: TransitionOptions): Promise<TransitionResult> {
    const result = await this.transactions.run(async (manager) => {
      const row = await this.payments.lockById(manager, paymentId);
      if (!row) throw new NotFoundError('Payment');
      const from = row.status as PaymentStatus;
      const outcome = await this.move(manager, row, to, options);
      return { outcome, from, payment: toPaymentRecord(row) };
    });
    if (result.outcome === 'refused' && !options.tolerateRefusal) {
      throw new InvalidPaymentStateError(`A ${result.from} payment cannot become ${to}.`);
    }
    if (result.outcome === 'applied' && to === 'completed') this.completionEmails.notify(result.payment);
    return result;
  }

  /** Stores provider facts (ids, fee, amount received) without a status change. */
  async recordProviderDetails(paymentId: number, patch: PaymentPatch, source: string): Promise<PaymentRecord> {
    try {
      return await this.transactions.run(async (manager) => {
        const row = await this.payments.lockById(manager, paymentId);
        if (!row) throw new NotFoundError('Payment');
        if (applyPatch(row, patch)) {
          row.updatedAt = new Date();
          await this.payments.save(manager, row);
          await this.logs.record({ paymentId, level: 'info', event: 'provider_details', message: `Provider details recorded by ${source}.`, context: { source, fields: changedNames(patch) } }, manager);
        }
        return toPaymentRecord(row);
      });
    } catch (error) {
      if (isDuplicateKeyError(error)) throw new InvalidPaymentStateError('That provider payment is already linked to another payment.');
      throw error;
    }
  }

  /** Adds a line to the payment log (for gateway and webhook modules). */
  async log(entry: PaymentLogEntry): Promise<void> {
    await this.logs.record(entry);
  }

  /** The first payment of a provider subscription. */
  async findSubscriptionPayment(gateway: string, subscriptionRef: string): Promise<PaymentRecord | null> {
    const row = await this.payments.findBySubscriptionRef(gateway, subscriptionRef);
    return row ? toPaymentRecord(row) : null;
  }

  /**
   * `recordProviderDetails` for facts that may arrive out of order: `isCurrent` runs in the same
   * transaction, with the row locked, and decides (e.g. from the caller's own event-order table,
   * written through the manager) whether `patch` is still news.
   */
  async recordProviderDetailsIf(
    paymentId: number,
    patch: PaymentPatch,
    source: string,
    isCurrent: (manager: EntityManager, payment: PaymentRecord) => Promise<boolean>,
  ): Promise<{ applied: boolean; payment: PaymentRecord }> {
    try {
      return await this.transactions.run(async (manager) => {
        const row = await this.payments.lockById(manager, paymentId);
        if (!row) throw new NotFoundError('Payment');
        if (!(await isCurrent(manager, toPaymentRecord(row)))) return { applied: false, payment: toPaymentRecord(row) };
        if (applyPatch(row, patch)) {
          row.updatedAt = new Date();
          await this.payments.save(manager, row);
          await this.logs.record({ paymentId, level: 'info', event: 'provider_details', message: `Provider details recorded by ${source}.`, context: { source, fields: changedNames(patch) } }, manager);
        }
        return { applied: true, payment: toPaymentRecord(row) };
      });
    } catch (error) {
      if (isDuplicateKeyError(error)) throw new InvalidPaymentStateError('That provider payment is already linked to another payment.');
      throw error;
    }
  }

  /**
   * A subscription renewal: one row per invoice, pointing at the first payment (`parent_payment_id`)
   * and copying what it pays for. A repeat for the same invoice moves the existing row instead
   * (a failed attempt paid later completes it; backward moves are ignored). One transaction with
   * the first payment locked, so concurrent deliveries of one invoice create one row.
   */
  async recordRenewal(parentId: number, facts: RenewalFacts): Promise<RenewalResult> {
    const attempt = () =>
      this.transactions.run(async (manager): Promise<RenewalResult> => {
        const parent = await this.payments.lockById(manager, parentId);
        if (!parent) throw new NotFoundError('Payment');
        const received = facts.status === 'completed' ? facts.amount : null;
        const existing = await this.payments.findByProviderRefIn(manager, parent.gateway, facts.invoiceRef);
        if (existing) {
          if (existing.parentPaymentId !== parent.id) throw new InvalidPaymentStateError('That invoice is already linked to another payment.');
          const patch = received === null ? undefined : { amountReceived: received };
          const outcome = await this.move(manager, existing, facts.status, { source: facts.source, reason: 'renewal invoice', patch });
          return { outcome, payment: toPaymentRecord(existing) };
        }
        const row = await this.payments.insert(manager, {
          formId: parent.formId,
          parentPaymentId: parent.id,
          gateway: parent.gateway,
          paymentMethod: parent.paymentMethod,
          mode: parent.mode,
          status: facts.status,
          amount: facts.amount,
          currency: facts.currency,
          applicationFeeAmount: facts.applicationFeeAmount ?? null,
          amountReceived: received,
          planIndex: parent.planIndex,
          priceIndex: parent.priceIndex,
          frequency: parent.frequency,
          emailAddress: parent.emailAddress,
          firstName: parent.firstName,
          lastName: parent.lastName,
          customFields: parent.customFields,
          secretNonce: this.references.newNonce(),
          providerPaymentRef: facts.invoiceRef,
          providerCustomerRef: parent.providerCustomerRef,
          providerSubscriptionRef: parent.providerSubscriptionRef,
        });
        await this.logs.record(
          {
            paymentId: row.id,
            level: 'info',
            event: 'renewal_created',
            message: `Renewal ${facts.status} for subscription payment ${parent.id} (${facts.source}).`,
            context: { source: facts.source, parent_payment_id: parent.id, status: facts.status, amount: facts.amount, currency: facts.currency },
          },
          manager,
        );
        return { outcome: 'created', payment: toPaymentRecord(row) };
      });
    try {
      return await attempt();
    } catch (error) {
      // Another instance inserted the row for this invoice first: the second attempt finds it.
      if (isDuplicateKeyError(error)) return attempt();
      throw error;
    }
  }

  /** The record to update, if id and secret match (403 otherwise, with nothing written). */
  private async authorisedRecord(input: SyncDetailsDto): Promise<PaymentEntity> {
    const row = await this.payments.findById(input.payment_id!);
    if (!row || !this.references.hasSecret(row, input.payment_secret)) throw new InvalidPaymentReferenceError();
    // A record belongs to the form it was created for.
    if (row.formId !== input.form_id) throw new InvalidPaymentReferenceError();
    return row;
  }

  private async createRecord(input: SyncDetailsDto, checkout: CheckoutContext, customFields: CustomFields, clientIp: string | undefined): Promise<PaymentEntity> {
    return this.transactions.run(async (manager) => {
      const row = await this.payments.insert(manager, {
        formId: checkout.form.id,
        gateway: checkout.gateway,
        paymentMethod: checkout.method,
        mode: checkout.mode,
        status: 'pending',
        amount: checkout.amount,
        currency: checkout.currency,
        planIndex: checkout.planIndex,
        priceIndex: checkout.priceIndex,
        frequency: checkout.frequency,
        setupAmount: checkout.setupAmount,
        emailAddress: blankToNull(input.email_address),
        firstName: blankToNull(input.first_name),
        lastName: blankToNull(input.last_name),
        customFields: JSON.stringify(customFields),
        secretNonce: this.references.newNonce(),
        clientIp: clientIp?.slice(0, 45) ?? null,
      });
      await this.logs.record(
        {
          paymentId: row.id,
          level: 'info',
          event: 'payment_created',
          message: `Payment record created for form ${checkout.form.id}.`,
          context: { gateway: row.gateway, payment_method: row.paymentMethod, amount: row.amount, currency: row.currency, mode: row.mode },
        },
        manager,
      );
      return row;
    });
  }

  private async updateDetails(id: number, input: SyncDetailsDto, checkout: CheckoutContext, customFields: CustomFields | undefined): Promise<PaymentEntity> {
    const { row, refusedStatus } = await this.transactions.run(async (manager) => {
      const locked = await this.payments.lockById(manager, id);
      if (!locked) throw new InvalidPaymentReferenceError();
      const status = locked.status as PaymentStatus;
      // A subscription created at the gateway keeps charging the price it was created with (a
      // failed first invoice can still be paid): the record must stay that price.
      const subscribed = locked.providerSubscriptionRef !== null;
      if (!EDITABLE.includes(status) || subscribed) {
        const why = subscribed ? `has a ${status} gateway subscription` : `is ${status}`;
        await this.logs.record(
          { paymentId: id, level: 'warning', event: 'update_refused', message: `sync-details refused: the payment ${why}.`, context: { source: 'sync-details', status, subscribed } },
          manager,
        );
        return { row: locked, refusedStatus: subscribed ? `${status} with a gateway subscription` : status };
      }
      if (status === 'failed') await this.move(manager, locked, 'pending', { source: 'sync-details', reason: 'retry after a failed attempt' });

      const before = { gateway: locked.gateway, method: locked.paymentMethod, amount: locked.amount, currency: locked.currency, mode: locked.mode };
      locked.gateway = checkout.gateway;
      locked.paymentMethod = checkout.method;
      locked.mode = checkout.mode;
      locked.amount = checkout.amount;
      locked.currency = checkout.currency;
      locked.planIndex = checkout.planIndex;
      locked.priceIndex = checkout.priceIndex;
      locked.frequency = checkout.frequency;
      locked.setupAmount = checkout.setupAmount;
      if (input.email_address !== undefined) locked.emailAddress = blankToNull(input.email_address);
      if (input.first_name !== undefined) locked.firstName = blankToNull(input.first_name);
      if (input.last_name !== undefined) locked.lastName = blankToNull(input.last_name);
      if (customFields !== undefined) locked.customFields = JSON.stringify(customFields);
      locked.updatedAt = new Date();
      await this.payments.save(manager, locked);

      const after = { gateway: locked.gateway, method: locked.paymentMethod, amount: locked.amount, currency: locked.currency, mode: locked.mode };
      const changed = (Object.keys(before) as Array<keyof typeof before>).filter((key) => before[key] !== after[key]);
      if (changed.length > 0) {
        await this.logs.record(
          { paymentId: id, level: 'info', event: 'checkout_changed', message: `Checkout details changed: ${changed.join(', ')}.`, context: { source: 'sync-details', before, after } },
          manager,
        );
      }
      return { row: locked, refusedStatus: null };
    });
    if (refusedStatus) throw new InvalidPaymentStateError(`This payment is ${refusedStatus} and can no longer be changed.`);
    return row;
  }

  /** Applies one move to a locked row and logs it; returns what happened. */
  private async move(manager: EntityManager, row: PaymentEntity, to: PaymentStatus, options: Omit<TransitionOptions, 'tolerateRefusal'>): Promise<TransitionOutcome> {
    const from = row.status as PaymentStatus;
    const detail = { from, to, source: options.source, reason: options.reason ?? null };
    switch (decideTransition(from, to)) {
      case 'apply':
        row.status = to;
        applyPatch(row, options.patch);
        row.updatedAt = new Date();
        await this.payments.save(manager, row);
        await this.logs.record({ paymentId: row.id, level: 'info', event: 'status_changed', message: `Status ${from} → ${to} (${options.source}).`, context: detail }, manager);
        return 'applied';
      case 'unchanged':
        if (applyPatch(row, options.patch)) {
          row.updatedAt = new Date();
          await this.payments.save(manager, row);
        }
        return 'unchanged';
      case 'backward':
        await this.logs.record({ paymentId: row.id, level: 'info', event: 'transition_ignored', message: `Ignored a backward move ${from} → ${to} (${options.source}).`, context: detail }, manager);
        return 'ignored';
      case 'illegal':
        await this.logs.record({ paymentId: row.id, level: 'warning', event: 'transition_refused', message: `Refused the move ${from} → ${to} (${options.source}).`, context: detail }, manager);
        return 'refused';
    }
  }
}

/** Copies the defined fields of `patch` onto the row; true when something changed. */
function applyPatch(row: PaymentEntity, patch: PaymentPatch | undefined): boolean {
  let changed = false;
  for (const field of PATCHABLE_FIELDS) {
    const value = patch?.[field];
    if (value === undefined || row[field] === value) continue;
    (row as unknown as Record<string, unknown>)[field] = value;
    changed = true;
  }
  return changed;
}

function changedNames(patch: PaymentPatch): string[] {
  return PATCHABLE_FIELDS.filter((field) => patch[field] !== undefined);
}

function blankToNull(value: string | undefined): string | null {
  return value === undefined || value === '' ? null : value;
}

/** Custom fields must be the form's own fields (not its core fields); select values one of its options. */
function checkedCustomFields(form: PaymentForm, values: Record<string, string | number | boolean>): CustomFields {
  const fields = new Map((form.settings.fields ?? []).filter((field) => !(CORE_FIELDS as readonly string[]).includes(field.name)).map((field) => [field.name, field]));
  const normalised = normaliseCustomFields(values);
  for (const [key, value] of Object.entries(normalised)) {
    const field = fields.get(key);
    if (!field) throw new InvalidParamsError({ [`custom_fields.${key}`]: `${key} is not a field of this form` });
    if (field.type === 'select' && value !== '' && !(field.options ?? []).includes(value)) {
      throw new InvalidParamsError({ [`custom_fields.${key}`]: `${key} must be one of the field's options` });
    }
  }
  return normalised;
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
