import { isDeepStrictEqual } from 'node:util';
import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { ConflictError, NotFoundError } from '../../common/errors/index.js';
import { isDuplicateKeyError } from '../../database/index.js';
import type { PaymentEntity } from './payment.entity.js';
import { type PaymentLogEntry, PaymentLogRepository } from './payment-log.repository.js';
import { PATCHABLE_FIELDS, type PaymentPatch, type PaymentRecord, toPaymentRecord } from './payment-record.js';
import { PaymentReferenceService } from './payment-reference.service.js';
import { decideTransition, type PaymentStatus } from './payment-status.js';
import { PaymentCompletionEmails } from './payment-completion-emails.js';
import { PaymentEvents, statusEventType } from './payment-events.js';
import { PaymentTransactions } from './payment-transactions.js';
import { type RenewalAttempt, RenewalNotices } from './renewal-notices.js';
import { type PaymentChanges, PaymentRepository } from './payment.repository.js';

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
  /** The provider object that took the money (gateway A: the invoice's PaymentIntent), where refunds go */
  providerChargeRef?: string | null;
  /** A failed invoice's attempt as the provider counts it: the payer is told once per attempt (RenewalNotices) */
  failedAttempt?: RenewalAttempt;
  source: string;
}

export interface RenewalResult {
  /** `created`: a new renewal row; otherwise what the status machine did to the existing one. */
  outcome: 'created' | TransitionOutcome;
  payment: PaymentRecord;
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

/** Decides, inside the transaction and with the row locked, whether provider facts are still news. */
export type CurrentCheck = (manager: EntityManager, payment: PaymentRecord) => Promise<boolean>;

export class InvalidPaymentStateError extends ConflictError {
  constructor(message: string) {
    super('checkout_invalid_state', message);
  }
}

/**
 * The row no longer had the status it was read with under its lock: the lock did not hold (an
 * engine without row locks, or a writer that bypassed the ledger). Nothing is written (the
 * transaction rolls back) and the request fails (500) rather than move a payment from a status it
 * is not in.
 */
export class LockedPaymentChangedError extends Error {
  constructor(paymentId: number, expected: string) {
    super(`Payment ${paymentId} is no longer ${expected} although its row was locked; nothing was written.`);
    this.name = 'LockedPaymentChangedError';
  }
}

/**
 * The one writer of a payment's status and provider facts: the status machine (every move in a
 * transaction with the row locked, refusals and backward moves logged), provider details,
 * renewal rows, admin-charge rows and the payment log. Gateways call it after, never during, a
 * provider request.
 */
@Injectable()
export class PaymentLedgerService {
  constructor(
    private readonly payments: PaymentRepository,
    private readonly logs: PaymentLogRepository,
    private readonly transactions: PaymentTransactions,
    private readonly completionEmails: PaymentCompletionEmails,
    private readonly references: PaymentReferenceService,
    private readonly events: PaymentEvents,
    private readonly renewalNotices: RenewalNotices,
  ) {}

  /**
   * The status machine. Locks the row, then: a legal move is applied (with `patch`) and logged;
   * a repeat of the current status applies `patch` only; a backward move (a late event) is logged
   * and ignored; an illegal move is logged and refused with 409 (unless `tolerateRefusal`).
   */
  async transition(paymentId: number, to: PaymentStatus, options: TransitionOptions): Promise<TransitionResult> {
    const result = await this.transactions.run(async (manager) => {
      const row = await this.payments.lockById(manager, paymentId);
      if (!row) throw new NotFoundError('Payment');
      const from = row.status as PaymentStatus;
      const outcome = await this.moveLocked(manager, row, to, options);
      const payment = toPaymentRecord(row);
      // The emails are due in the same commit as the completion: a crash after it cannot lose them.
      if (outcome === 'applied' && to === 'completed') await this.completionEmails.schedule(manager, payment);
      if (outcome === 'applied') await this.announceStatus(manager, payment, to);
      return { outcome, from, payment };
    });
    if (result.outcome === 'refused' && !options.tolerateRefusal) {
      throw new InvalidPaymentStateError(`A ${result.from} payment cannot become ${to}.`);
    }
    return result;
  }

  /**
   * Whether `transition(payment.id, to, { patch })` would change nothing for the record as read:
   * the same status and no provider fact to record. A caller may then skip the transaction: the
   * event is applied at the moment of that read (linearised there), so no lock is needed.
   */
  changesNothing(payment: PaymentRecord, to: PaymentStatus, patch: PaymentPatch): boolean {
    return decideTransition(payment.status, to) === 'unchanged' && changedNames(patch).length === 0;
  }

  /**
   * Stores provider facts (ids, fee, amount received, subscription status) without a status
   * change. A provider id already linked to another payment is 409.
   */
  async recordProviderDetails(paymentId: number, patch: PaymentPatch, source: string): Promise<PaymentRecord> {
    return (await this.recordProviderDetailsIf(paymentId, patch, source, async () => true)).payment;
  }

  /**
   * `recordProviderDetails` for facts that may be stale: `isCurrent` runs in the same transaction
   * with the row locked (e.g. against the caller's own event-order table, written through the
   * manager) and decides whether `patch` is still news.
   */
  async recordProviderDetailsIf(paymentId: number, patch: PaymentPatch, source: string, isCurrent: CurrentCheck): Promise<{ applied: boolean; payment: PaymentRecord }> {
    try {
      return await this.transactions.run(async (manager) => {
        const row = await this.payments.lockById(manager, paymentId);
        if (!row) throw new NotFoundError('Payment');
        if (!(await isCurrent(manager, toPaymentRecord(row)))) return { applied: false, payment: toPaymentRecord(row) };
        const previousStatus = row.subscriptionStatus;
        const changes = this.patchChanges(row, patch);
        if (changes) {
          await this.writeLocked(manager, row, { ...changes, updatedAt: new Date() });
          await this.logs.record({ paymentId, level: 'info', event: 'provider_details', message: `Provider details recorded by ${source}.`, context: { source, fields: changedNames(patch) } }, manager);
          if (changes.subscriptionStatus === 'canceled') await this.events.announce(manager, { type: 'subscription.canceled', payment: toPaymentRecord(row) });
          if (changes.subscriptionStatus) await this.renewalNotices.statusChanged(manager, toPaymentRecord(row), previousStatus, changes.subscriptionStatus);
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
   * the first payment locked, so concurrent deliveries of one invoice create one row; the
   * invoice's row is read under the lock too (FOR UPDATE), so the decision sees a row another
   * delivery committed while this one waited.
   */
  async recordRenewal(parentId: number, facts: RenewalFacts): Promise<RenewalResult> {
    const attempt = () =>
      this.transactions.run(async (manager): Promise<RenewalResult> => {
        const parent = await this.payments.lockById(manager, parentId);
        if (!parent) throw new NotFoundError('Payment');
        const received = facts.status === 'completed' ? facts.amount : null;
        const existing = await this.payments.lockByProviderRef(manager, parent.gateway, facts.invoiceRef);
        if (existing) {
          if (existing.parentPaymentId !== parent.id) throw new InvalidPaymentStateError('That invoice is already linked to another payment.');
          const patch = received === null ? undefined : { amountReceived: received, ...(facts.providerChargeRef ? { providerChargeRef: facts.providerChargeRef } : {}) };
          const outcome = await this.moveLocked(manager, existing, facts.status, { source: facts.source, reason: 'renewal invoice', patch });
          if (outcome === 'applied') await this.announceStatus(manager, toPaymentRecord(existing), facts.status);
          // Another failed attempt of an invoice still unpaid: told once per attempt.
          if (facts.failedAttempt && existing.status === 'failed') await this.renewalNotices.failed(manager, toPaymentRecord(parent), toPaymentRecord(existing), facts.invoiceRef, facts.failedAttempt);
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
          providerChargeRef: facts.providerChargeRef ?? null,
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
        await this.announceStatus(manager, toPaymentRecord(row), facts.status);
        if (facts.failedAttempt && facts.status === 'failed') await this.renewalNotices.failed(manager, toPaymentRecord(parent), toPaymentRecord(row), facts.invoiceRef, facts.failedAttempt);
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

  /**
   * A form-less pending record for an admin charge (section B virtual terminal): no payer
   * fields, no client IP; the charge's outcome is recorded with `transition` afterwards.
   */
  async openAdminCharge(input: AdminChargeInput): Promise<PaymentRecord> {
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

  /** Tells listeners (outgoing webhooks) of a status move merchants hear about, in the move's transaction. */
  private async announceStatus(manager: EntityManager, payment: PaymentRecord, to: PaymentStatus): Promise<void> {
    const type = statusEventType(payment, to);
    if (type) await this.events.announce(manager, { type, payment });
  }

  /** Adds a line to the payment log (for gateway and webhook modules). */
  async log(entry: PaymentLogEntry): Promise<void> {
    await this.logs.record(entry);
  }

  /**
   * Applies one move to a row locked by the caller's transaction, and logs it: the only code that
   * writes a payment's status after creation. `transition` uses it; sync-details uses it for the
   * failed → pending retry inside its own update. A move is one
   * `UPDATE ... SET status = <to>, ... WHERE id = ? AND status = <from>` (writeLocked).
   */
  async moveLocked(manager: EntityManager, row: PaymentEntity, to: PaymentStatus, options: Omit<TransitionOptions, 'tolerateRefusal'>): Promise<TransitionOutcome> {
    const from = row.status as PaymentStatus;
    const detail = { from, to, source: options.source, reason: options.reason ?? null };
    switch (decideTransition(from, to)) {
      case 'apply':
        await this.writeLocked(manager, row, { ...this.patchChanges(row, options.patch), status: to, updatedAt: new Date() });
        await this.logs.record({ paymentId: row.id, level: 'info', event: 'status_changed', message: `Status ${from} → ${to} (${options.source}).`, context: detail }, manager);
        return 'applied';
      case 'unchanged': {
        const changes = this.patchChanges(row, options.patch);
        if (changes) await this.writeLocked(manager, row, { ...changes, updatedAt: new Date() });
        return 'unchanged';
      }
      case 'backward':
        await this.logs.record({ paymentId: row.id, level: 'info', event: 'transition_ignored', message: `Ignored a backward move ${from} → ${to} (${options.source}).`, context: detail }, manager);
        return 'ignored';
      case 'illegal':
        await this.logs.record({ paymentId: row.id, level: 'warning', event: 'transition_refused', message: `Refused the move ${from} → ${to} (${options.source}).`, context: detail }, manager);
        return 'refused';
    }
  }

  /**
   * Writes columns other than the status (sync-details' checkout and payer columns) to a row the
   * caller's transaction locked: one UPDATE that requires the status the row was read with.
   */
  async updateLocked(manager: EntityManager, row: PaymentEntity, changes: Omit<PaymentChanges, 'status'>): Promise<void> {
    await this.writeLocked(manager, row, changes);
  }

  /**
   * The defined fields of `patch` that differ from the row, or null when none does. A value a
   * column stores in another form (JSON text of an object, bounded) is compared as it would read back.
   */
  private patchChanges(row: PaymentEntity, patch: PaymentPatch | undefined): PaymentPatch | null {
    const changes: PaymentPatch = {};
    let changed = false;
    for (const field of PATCHABLE_FIELDS) {
      const value = patch?.[field];
      if (value === undefined || row[field] === value) continue;
      if (typeof value === 'object' && value !== null && isDeepStrictEqual(row[field], this.payments.asStored(field, value))) continue;
      (changes as Record<string, unknown>)[field] = value;
      changed = true;
    }
    return changed ? changes : null;
  }

  /**
   * Writes `changes` to a row the caller's transaction locked, in one explicit UPDATE that also
   * requires the status it was read with, then onto `row` itself; an undefined change is no change.
   */
  private async writeLocked(manager: EntityManager, row: PaymentEntity, changes: PaymentChanges): Promise<void> {
    if (!(await this.payments.update(manager, row.id, changes, row.status))) throw new LockedPaymentChangedError(row.id, row.status);
    for (const property of Object.keys(changes) as Array<keyof PaymentChanges>) {
      const value = changes[property];
      if (value !== undefined) (row as unknown as Record<string, unknown>)[property] = this.payments.asStored(property, value);
    }
  }
}

function changedNames(patch: PaymentPatch): string[] {
  return PATCHABLE_FIELDS.filter((field) => patch[field] !== undefined);
}
