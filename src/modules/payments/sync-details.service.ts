import { Injectable } from '@nestjs/common';
import { InvalidParamsError, NotFoundError } from '../../common/errors/index.js';
import { isPlainText, PLAIN_TEXT_MESSAGE } from '../../common/validation/index.js';
import { CORE_FIELDS, type PaymentForm } from '../forms/index.js';
import { type CheckoutGateway, type GatewayMode, GatewayRegistry } from '../gateways/index.js';
import { type IdempotencyCompletion, IdempotencyService, type IdempotentRequest } from '../idempotency/index.js';
import { type CheckoutContext, CheckoutContextService, FormNotPublishedError } from './checkout-context.service.js';
import { type CustomFields, normaliseCustomFields } from './custom-fields.js';
import type { PaymentEntity } from './payment.entity.js';
import { InvalidPaymentStateError, PaymentLedgerService } from './payment-ledger.service.js';
import { PaymentLogRepository } from './payment-log.repository.js';
import { toPaymentRecord } from './payment-record.js';
import { InvalidPaymentReferenceError, PaymentReferenceService } from './payment-reference.service.js';
import type { PaymentStatus } from './payment-status.js';
import { PaymentTransactions } from './payment-transactions.js';
import { PaymentRepository } from './payment.repository.js';
import type { SyncDetailsDto, SyncDetailsResponseDto } from './sync-details.dto.js';

export interface SyncDetailsResult {
  /** 201 (a new record) or 200 (an update) */
  created: boolean;
  body: SyncDetailsResponseDto;
}

/** Statuses in which sync-details may still change a record (failed: a retry moves it back to pending). */
const EDITABLE: readonly PaymentStatus[] = ['pending', 'failed'];

/**
 * POST /payment/sync-details: the payer's browser creates a partial record, then updates it while
 * the payer types. The amount always comes from the form on the server; updates need the record's
 * secret and stop once the record is paid or being paid.
 */
@Injectable()
export class SyncDetailsService {
  constructor(
    private readonly payments: PaymentRepository,
    private readonly logs: PaymentLogRepository,
    private readonly transactions: PaymentTransactions,
    private readonly ledger: PaymentLedgerService,
    private readonly references: PaymentReferenceService,
    private readonly context: CheckoutContextService,
    private readonly registry: GatewayRegistry,
    private readonly idempotency: IdempotencyService,
  ) {}

  /**
   * Creates (no payment_id) or updates a partial record. With an `Idempotency-Key`, a repeat of a
   * request that succeeded answers its record again (the secret derived again, a fresh token),
   * without writing; a creation keeps its payment id in the same transaction as the new row.
   */
  async syncDetails(input: SyncDetailsDto, clientIp: string | undefined, idempotent: IdempotentRequest | null = null): Promise<SyncDetailsResult> {
    return this.idempotency.run(idempotent, {
      execute: (complete) => this.sync(input, clientIp, complete),
      resultIds: (result) => ({ payment_id: result.body.payment_id }),
      replay: (stored) => this.replay(input, Number(stored.payment_id)),
    });
  }

  private async sync(input: SyncDetailsDto, clientIp: string | undefined, complete: IdempotencyCompletion | null): Promise<SyncDetailsResult> {
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
    if (existing) await this.refuseWhileUnderway(existing);
    const row = existing
      ? await this.updateDetails(existing.id, input, checkout, customFields)
      : await this.createRecord(input, checkout, customFields ?? {}, clientIp, complete);
    return { created: !existing, body: this.answer(row) };
  }

  /**
   * A repeat of a request that succeeded: its record as it is now, nothing written. The secret is
   * derived again from the record and a new token issued (neither was stored with the key).
   */
  private async replay(input: SyncDetailsDto, paymentId: number): Promise<SyncDetailsResult> {
    const row = await this.payments.findById(paymentId);
    if (!row) throw new NotFoundError('Payment');
    // A replay hands out a fresh checkout token: none for a form that was unpublished meanwhile.
    if (row.formId === null || !(await this.context.isPublished(row.formId))) throw new FormNotPublishedError();
    return { created: input.payment_id === undefined, body: this.answer(row) };
  }

  private answer(row: PaymentEntity): SyncDetailsResponseDto {
    const payment = toPaymentRecord(row);
    const { token, expiresAt } = this.references.issueToken(payment);
    return {
      payment_id: payment.id,
      payment_secret: this.references.secretOf(row),
      checkout_token: token,
      checkout_token_expires_at: expiresAt.toISOString(),
      amount: payment.amount,
      currency: payment.currency,
      setup_amount: payment.setup_amount,
      mode: payment.mode,
      status: payment.status,
    };
  }

  /**
   * A record whose provider payment is paid or being paid at the gateway (the record learns it
   * only with the webhook) must not change under it: 409, read from the gateway, nothing written.
   */
  private async refuseWhileUnderway(row: PaymentEntity): Promise<void> {
    if (!row.providerPaymentRef || !EDITABLE.includes(row.status as PaymentStatus)) return;
    const held = { id: row.id, mode: row.mode as GatewayMode, provider_payment_ref: row.providerPaymentRef };
    if (!(await this.registry.get(row.gateway as CheckoutGateway).paymentUnderway(held))) return;
    await this.logs.record({
      paymentId: row.id,
      level: 'warning',
      event: 'update_refused',
      message: 'sync-details refused: the payment is being paid at the gateway.',
      context: { source: 'sync-details', status: row.status, underway: true },
    });
    throw new InvalidPaymentStateError('This payment is being paid at the gateway and can no longer be changed; read its status.');
  }

  /** The record to update, if id and secret match (403 otherwise, with nothing written). */
  private async authorisedRecord(input: SyncDetailsDto): Promise<PaymentEntity> {
    const row = await this.payments.findById(input.payment_id!);
    if (!row || !this.references.hasSecret(row, input.payment_secret)) throw new InvalidPaymentReferenceError();
    // A record belongs to the form it was created for.
    if (row.formId !== input.form_id) throw new InvalidPaymentReferenceError();
    return row;
  }

  private async createRecord(
    input: SyncDetailsDto,
    checkout: CheckoutContext,
    customFields: CustomFields,
    clientIp: string | undefined,
    complete: IdempotencyCompletion | null,
  ): Promise<PaymentEntity> {
    return this.transactions.run(async (manager) => {
      const row = await this.payments.insert(manager, {
        formId: checkout.form.id,
        status: 'pending',
        ...checkoutColumns(checkout),
        emailAddress: blankToNull(input.email_address),
        firstName: blankToNull(input.first_name),
        lastName: blankToNull(input.last_name),
        customFields: JSON.stringify(customFields),
        locale: input.locale ?? null,
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
      // The key's payment id commits with the row: no crash can leave a created payment without it.
      if (complete) await complete({ payment_id: row.id }, manager);
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
      if (status === 'failed') await this.ledger.moveLocked(manager, locked, 'pending', { source: 'sync-details', reason: 'retry after a failed attempt' });

      const before = { gateway: locked.gateway, method: locked.paymentMethod, amount: locked.amount, currency: locked.currency, mode: locked.mode };
      // One UPDATE of the payer's and the checkout's columns, while the record is still in the
      // editable status it was read with under the lock (undefined: a field not sent is kept).
      await this.ledger.updateLocked(manager, locked, {
        ...checkoutColumns(checkout),
        emailAddress: input.email_address === undefined ? undefined : blankToNull(input.email_address),
        firstName: input.first_name === undefined ? undefined : blankToNull(input.first_name),
        lastName: input.last_name === undefined ? undefined : blankToNull(input.last_name),
        customFields: customFields === undefined ? undefined : JSON.stringify(customFields),
        locale: input.locale,
        updatedAt: new Date(),
      });

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
    // Line feeds only where the payer can type lines (the emails keep them inside their row).
    if (!isPlainText(value, field.type === 'textarea')) throw new InvalidParamsError({ [`custom_fields.${key}`]: `${key} ${PLAIN_TEXT_MESSAGE}` });
    if (field.type === 'select' && value !== '' && !(field.options ?? []).includes(value)) {
      throw new InvalidParamsError({ [`custom_fields.${key}`]: `${key} must be one of the field's options` });
    }
  }
  return normalised;
}

/** The payment columns the checkout decides: the same on a new record and on an update of one. */
function checkoutColumns(checkout: CheckoutContext) {
  return {
    gateway: checkout.gateway,
    paymentMethod: checkout.method,
    mode: checkout.mode,
    amount: checkout.amount,
    currency: checkout.currency,
    planIndex: checkout.planIndex,
    priceIndex: checkout.priceIndex,
    frequency: checkout.frequency,
    setupAmount: checkout.setupAmount,
  };
}
