import { Inject, Injectable, Logger } from '@nestjs/common';
import { isEmail } from 'class-validator';
import { createHash } from 'node:crypto';
import { InvalidParamsError } from '../../../common/errors/index.js';
import { APP_CONFIG, type AppConfig } from '../../../config/index.js';
import type { HeldProviderPayment } from '../../gateways/index.js';
import { IdempotencyService, type IdempotentRequest } from '../../idempotency/index.js';
import { InvalidPaymentStateError, type PaymentPatch, type PaymentRecord, PaymentLedgerService } from '../../payments/index.js';
import { GatewayACatalogService } from '../catalog/gateway-a-catalog.service.js';
import { type GatewayAAccount, GatewayAClientFactory, PAYER_WAITING } from '../client/gateway-a-client.factory.js';
import { describeGatewayFailure } from '../client/gateway-a-errors.js';
import { GatewayAFailures } from '../client/gateway-a-failures.js';
import { type GatewayAIntent, type GatewayAPaymentIntent, type GatewayASetupIntent, MalformedGatewayAAnswer, parsePaymentIntent, parseSetupIntent } from '../client/gateway-a-answers.js';
import { gatewayAFees } from '../client/fee-policy.js';
import { InstallationScope } from '../client/installation-scope.js';
import { isRecurring } from '../client/recurring-interval.js';
import { GatewayAContractService } from '../webhook/gateway-a-contract.service.js';
import type { GatewayAIntentResponseDto } from './gateway-a-checkout.dto.js';
import { INTENT_CAPTURE_METHOD, methodChoice, type MethodChoice, SETUP_INTENT_USAGE } from './payment-method-types.js';

/** What a SetupIntent is for; stored in its metadata so the checkout and webhooks can tell. */
export type SetupPurpose = 'subscription';

/** Intent statuses in which the payer can still confirm it (so it may be handed out again). */
const OPEN_STATUSES = ['requires_payment_method', 'requires_confirmation', 'requires_action'];
/** The payer already paid (or is paying) with this intent: no new one. */
const PAID_STATUSES = ['processing', 'requires_capture', 'succeeded'];

/**
 * POST /gateway-a/payment-intent-or-setup. One-time price → PaymentIntent (with
 * `setup_future_usage: off_session` when the payer asks to save the method: the card is charged
 * and saved at once); recurring price → SetupIntent with a customer, its product and price.
 * A SetupIntent alone never completes a one-time payment: nothing would have been charged. Every create carries an idempotency key; an open intent that still matches the record
 * is handed out again instead of a new one. Gateway calls happen outside any transaction; the
 * record is only written once the gateway answered.
 */
@Injectable()
export class GatewayAIntentsService {
  private readonly logger = new Logger(GatewayAIntentsService.name);
  private readonly fees;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly contract: GatewayAContractService,
    private readonly clients: GatewayAClientFactory,
    private readonly catalog: GatewayACatalogService,
    private readonly ledger: PaymentLedgerService,
    private readonly failures: GatewayAFailures,
    private readonly scope: InstallationScope,
    private readonly idempotency: IdempotencyService,
  ) {
    this.fees = gatewayAFees(config.plan);
  }

  /**
   * With an `Idempotency-Key`, a repeat of a request that succeeded answers the intent it created,
   * read back from the gateway (a read, never a second create): its client secret comes from the
   * gateway each time and is never stored with the key.
   */
  async createIntent(payment: PaymentRecord, request: { savePaymentMethod: boolean }, idempotent: IdempotentRequest | null = null): Promise<GatewayAIntentResponseDto> {
    return this.idempotency.run(idempotent, {
      execute: () => this.create(payment, request),
      resultIds: (answered) => ({ payment_id: payment.id, intent_id: answered.intent_id }),
      replay: (stored) => this.readBack(payment, String(stored.intent_id)),
    });
  }

  /** The intent a repeated request created, as it is now (open, paid or canceled since). */
  private async readBack(payment: PaymentRecord, intentId: string): Promise<GatewayAIntentResponseDto> {
    // A paused mode hands out no client secret, not even a known one.
    await this.contract.assertCheckoutAvailable(payment.mode);
    const account = await this.clients.forMode(payment.mode, PAYER_WAITING);
    try {
      // The intent must still be this payment's, made by this installation (its metadata), with a client secret to hand out.
      const expected = { id: intentId, metadata: this.scope.metadata(intentMetadata(payment)), clientSecret: true };
      return intentId.startsWith('seti_')
        ? answer(parseSetupIntent(await account.client.setupIntents.retrieve(intentId), 'setupIntents.retrieve', expected), 'setupIntents.retrieve')
        : answer(parsePaymentIntent(await account.client.paymentIntents.retrieve(intentId), 'paymentIntents.retrieve', { ...expected, amount: payment.amount, currency: payment.currency }), 'paymentIntents.retrieve');
    } catch (error) {
      throw await this.failures.record(payment.id, error, { event: 'intent_read_failed', what: 'Reading the intent of a repeated request', source: 'checkout:gateway_a' });
    }
  }

  private async create(payment: PaymentRecord, request: { savePaymentMethod: boolean }): Promise<GatewayAIntentResponseDto> {
    await this.contract.assertCheckoutAvailable(payment.mode);
    if (!payment.email_address || !isEmail(payment.email_address)) {
      throw new InvalidParamsError({ email_address: 'the payment needs a valid email_address (send it with payment/sync-details) before an intent is created' });
    }
    if (payment.status !== 'pending') throw new InvalidPaymentStateError(`This payment is ${payment.status}; no new intent can be created for it.`);
    const choice = methodChoice(payment.payment_method, payment.currency, this.config.plan);
    const account = await this.clients.forMode(payment.mode, PAYER_WAITING);
    const purpose: SetupPurpose | null = isRecurring(payment.frequency) ? 'subscription' : null;
    try {
      return purpose === null
        ? await this.paymentIntent(account, payment, payment.email_address, choice, request.savePaymentMethod)
        : await this.setupIntent(account, payment, payment.email_address, purpose, choice);
    } catch (error) {
      throw await this.failures.record(payment.id, error, {
        event: 'intent_failed',
        what: 'Creating the gateway A intent',
        source: 'checkout:gateway_a',
        context: { purpose: purpose ?? 'payment' },
      });
    }
  }

  private async paymentIntent(
    account: GatewayAAccount,
    payment: PaymentRecord,
    email: string,
    choice: MethodChoice,
    saveMethod: boolean,
  ): Promise<GatewayAIntentResponseDto> {
    const customer = await this.catalog.ensureCustomer(account, email);
    const previous = payment.provider_payment_ref;
    if (previous?.startsWith('pi_')) {
      const existing = parsePaymentIntent(await account.client.paymentIntents.retrieve(previous), 'paymentIntents.retrieve', { id: previous });
      if (PAID_STATUSES.includes(existing.status)) {
        throw new InvalidPaymentStateError('This payment already has a paid or processing intent; finish it with gateway-a/checkout.');
      }
      if (OPEN_STATUSES.includes(existing.status) && this.matchesPayment(existing, payment, customer, saveMethod)) return answer(existing, 'paymentIntents.retrieve');
    }
    const fee = this.fees.applicationFeeAmount(payment.amount);
    const metadata = this.scope.metadata(intentMetadata(payment));
    const created = await account.client.paymentIntents.create(
      {
        amount: payment.amount,
        currency: payment.currency.toLowerCase(),
        customer,
        capture_method: INTENT_CAPTURE_METHOD,
        ...choice,
        ...(saveMethod ? { setup_future_usage: 'off_session' as const } : {}),
        metadata,
        ...(fee !== null ? { application_fee_amount: fee } : {}),
      },
      {
        idempotencyKey: this.scope.keys.paymentIntent(payment.id, payment.amount, payment.currency, variant(payment.payment_method, customer, previous, saveMethod)),
      },
    );
    // Checked before anything is stored: an answer that is not this intent must never reach the payer.
    const intent = parsePaymentIntent(created, 'paymentIntents.create', { amount: payment.amount, currency: payment.currency, customer, metadata, clientSecret: true });
    await this.storeIntent(account, payment, previous, intent, { providerPaymentRef: intent.id, providerCustomerRef: customer, applicationFeeAmount: fee });
    await this.retire(account, payment, previous, intent.id);
    return answer(intent, 'paymentIntents.create');
  }

  private async setupIntent(
    account: GatewayAAccount,
    payment: PaymentRecord,
    email: string,
    purpose: SetupPurpose,
    choice: MethodChoice,
  ): Promise<GatewayAIntentResponseDto> {
    const customer = await this.catalog.ensureCustomer(account, email);
    // The subscription is created after the setup succeeds; its product and price exist from now on.
    if (purpose === 'subscription') await this.catalog.ensureRecurringPrice(account, payment);
    const previous = payment.provider_payment_ref;
    if (previous?.startsWith('seti_')) {
      const existing = parseSetupIntent(await account.client.setupIntents.retrieve(previous), 'setupIntents.retrieve', { id: previous });
      if (existing.status === 'succeeded' || existing.status === 'processing') {
        throw new InvalidPaymentStateError('This payment method setup already succeeded or is processing; finish it with gateway-a/checkout.');
      }
      if (OPEN_STATUSES.includes(existing.status) && this.matchesSetup(existing, payment, customer, purpose)) return answer(existing, 'setupIntents.retrieve');
    }
    const metadata = this.scope.metadata({ ...intentMetadata(payment), checkout_purpose: purpose });
    // `automatic_payment_methods` is a PaymentIntent/SetupIntent option alike; the rest maps 1:1.
    const created = await account.client.setupIntents.create(
      {
        customer,
        usage: SETUP_INTENT_USAGE,
        ...choice,
        metadata,
      },
      { idempotencyKey: this.scope.keys.setupIntent(payment.id, `${purpose}-${variant(payment.payment_method, customer, previous)}`) },
    );
    const intent = parseSetupIntent(created, 'setupIntents.create', { customer, metadata, clientSecret: true });
    await this.storeIntent(account, payment, previous, intent, { providerPaymentRef: intent.id, providerCustomerRef: customer });
    await this.retire(account, payment, previous, intent.id);
    return answer(intent, 'setupIntents.create');
  }

  /**
   * True while the intent the record holds is paid or being paid (succeeded, processing,
   * authorised): sync-details must not change the amount under it. Read from the gateway, not
   * from the record, which learns it only with the webhook.
   */
  async paymentUnderway(payment: HeldProviderPayment): Promise<boolean> {
    const ref = payment.provider_payment_ref;
    if (!ref || !(ref.startsWith('pi_') || ref.startsWith('seti_'))) return false;
    const account = await this.clients.forMode(payment.mode, PAYER_WAITING);
    try {
      const intent = ref.startsWith('pi_')
        ? parsePaymentIntent(await account.client.paymentIntents.retrieve(ref), 'paymentIntents.retrieve', { id: ref })
        : parseSetupIntent(await account.client.setupIntents.retrieve(ref), 'setupIntents.retrieve', { id: ref });
      return PAID_STATUSES.includes(intent.status);
    } catch (error) {
      throw await this.failures.record(payment.id, error, { event: 'intent_read_failed', what: 'Reading the intent before a change of the payment', source: 'sync-details' });
    }
  }

  /**
   * Links the new intent to the record, but only if the record is still pending, still holds the
   * intent this one replaces (or already this one: a concurrent double click) and still asks for
   * the amount and currency the intent was made for. Otherwise the record moved on while the
   * gateway answered (its previous intent was paid and a webhook completed it, or sync-details
   * changed the amount): the new intent is canceled so it can never be paid, and the caller gets 409.
   */
  private async storeIntent(
    account: GatewayAAccount,
    payment: PaymentRecord,
    previous: string | null,
    intent: GatewayAIntent,
    patch: PaymentPatch,
  ): Promise<void> {
    const { applied, payment: current } = await this.ledger.recordProviderDetailsIf(payment.id, patch, 'checkout:gateway_a', async (_manager, latest) =>
      latest.status === 'pending' &&
      latest.amount === payment.amount &&
      latest.currency === payment.currency &&
      (latest.provider_payment_ref === previous || latest.provider_payment_ref === intent.id),
    );
    if (applied) return;
    await this.retire(account, payment, intent.id, current.provider_payment_ref ?? '');
    throw new InvalidPaymentStateError(`This payment changed (now ${current.status}, ${current.amount} ${current.currency}) while its intent was being created; read its status before paying again.`);
  }

  private matchesPayment(intent: GatewayAPaymentIntent, payment: PaymentRecord, customer: string, saveMethod: boolean): boolean {
    return (
      (intent.setup_future_usage ?? null) === (saveMethod ? 'off_session' : null) &&
      intent.amount === payment.amount &&
      intent.currency === payment.currency.toLowerCase() &&
      intent.customer === customer &&
      intent.metadata.checkout_payment_id === String(payment.id) &&
      intent.metadata.checkout_payment_method === payment.payment_method
    );
  }

  private matchesSetup(intent: GatewayASetupIntent, payment: PaymentRecord, customer: string, purpose: SetupPurpose): boolean {
    return (
      intent.customer === customer &&
      intent.metadata.checkout_payment_id === String(payment.id) &&
      intent.metadata.checkout_payment_method === payment.payment_method &&
      intent.metadata.checkout_purpose === purpose
    );
  }

  /**
   * Cancels the intent a new one replaced (amount, method or payer changed), so that it cannot be
   * paid any more. Best effort, after the new reference is stored: a late event for the old
   * intent then finds no payment.
   */
  private async retire(account: GatewayAAccount, payment: PaymentRecord, previous: string | null, replacement: string): Promise<void> {
    if (!previous || previous === replacement) return;
    try {
      if (previous.startsWith('pi_')) {
        const old = parsePaymentIntent(await account.client.paymentIntents.retrieve(previous), 'paymentIntents.retrieve', { id: previous });
        if (OPEN_STATUSES.includes(old.status)) {
          parsePaymentIntent(await account.client.paymentIntents.cancel(previous, {}, { idempotencyKey: this.scope.keys.retire(previous) }), 'paymentIntents.cancel', { id: previous });
        }
      } else if (previous.startsWith('seti_')) {
        const old = parseSetupIntent(await account.client.setupIntents.retrieve(previous), 'setupIntents.retrieve', { id: previous });
        if (OPEN_STATUSES.includes(old.status)) {
          parseSetupIntent(await account.client.setupIntents.cancel(previous, {}, { idempotencyKey: this.scope.keys.retire(previous) }), 'setupIntents.cancel', { id: previous });
        }
      }
    } catch (error) {
      this.logger.warn(`Could not cancel the replaced intent of payment ${payment.id}: ${describeGatewayFailure(error)}`);
      await this.ledger.log({ paymentId: payment.id, level: 'warning', event: 'intent_retire_failed', message: `The replaced intent could not be canceled: ${describeGatewayFailure(error)}.`, context: { source: 'checkout:gateway_a' } });
    }
  }
}

/** Metadata linking an intent to its record (checked again by gateway-a/checkout and webhooks). */
function intentMetadata(payment: PaymentRecord): Record<string, string> {
  return {
    checkout_payment_id: String(payment.id),
    checkout_payment_method: payment.payment_method,
    ...(payment.form_id !== null ? { checkout_form_id: String(payment.form_id) } : {}),
  };
}

/**
 * What besides payment id, amount and currency makes a create different: the method, the customer
 * and the intent it replaces. Equal requests (a retry, a concurrent double click) get equal keys
 * and so one intent; a changed request gets a new key instead of an idempotency error.
 */
function variant(method: string, customer: string, previous: string | null, saveMethod = false): string {
  return createHash('sha256').update(JSON.stringify([method, customer, previous, ...(saveMethod ? ['save'] : [])])).digest('base64url').slice(0, 16);
}

/** What the payer's browser needs to confirm the intent; an intent without its client secret is no answer. */
function answer(intent: GatewayAIntent, operation: string): GatewayAIntentResponseDto {
  if (!intent.client_secret) throw new MalformedGatewayAAnswer(operation, `${intent.object}.client_secret is missing`);
  return {
    intent_type: intent.object,
    intent_id: intent.id,
    client_secret: intent.client_secret,
    requires_action: intent.status === 'requires_action',
  };
}
