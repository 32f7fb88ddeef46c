import { Injectable } from '@nestjs/common';
import { ConflictError } from '../../../common/errors/index.js';
import { InvalidPaymentStateError, type PaymentPatch, type PaymentRecord, PaymentLedgerService, type PaymentStatus } from '../../payments/index.js';
import { type GatewayAIntent, parsePaymentIntent, parseSetupIntent } from '../client/gateway-a-answers.js';
import { GatewayAClientFactory, PAYER_WAITING } from '../client/gateway-a-client.factory.js';
import { GatewayAFailures } from '../client/gateway-a-failures.js';
import { isRecurring } from '../client/recurring-interval.js';
import { GatewayAContractService } from '../webhook/gateway-a-contract.service.js';
import type { GatewayACheckoutResponseDto } from './gateway-a-checkout.dto.js';
import { GatewayASubscriptionsService } from './gateway-a-subscriptions.service.js';
import { type IntentOutcome, intentOutcome, subscriptionOutcome } from './intent-outcome.js';

/** 409 `checkout_contract_mismatch`: the gateway's intent disagrees with the local payment. */
export class ContractMismatchError extends ConflictError {
  constructor(message: string) {
    super('checkout_contract_mismatch', message);
  }
}

/**
 * POST /gateway-a/checkout: reads the record's intent back from the gateway, checks it against
 * the record (amount, currency, metadata, customer), creates the subscription of a recurring
 * price, and moves the record through the status machine. A repeat answers the same outcome.
 */
@Injectable()
export class GatewayACheckoutService {
  constructor(
    private readonly contract: GatewayAContractService,
    private readonly clients: GatewayAClientFactory,
    private readonly subscriptions: GatewayASubscriptionsService,
    private readonly ledger: PaymentLedgerService,
    private readonly failures: GatewayAFailures,
  ) {}

  async checkout(payment: PaymentRecord, request: { intentId?: string }): Promise<GatewayACheckoutResponseDto> {
    const ref = payment.provider_payment_ref;
    if (!ref || !(ref.startsWith('pi_') || ref.startsWith('seti_'))) {
      // Nothing was paid yet: a paused mode says so first (no intent can exist before verification).
      await this.contract.assertCheckoutAvailable(payment.mode);
      throw new InvalidPaymentStateError('This payment has no gateway A intent yet; create one with gateway-a/payment-intent-or-setup.');
    }
    if (request.intentId !== undefined && request.intentId !== ref) {
      await this.mismatch(payment, ['intent_id']);
    }
    const account = await this.clients.forMode(payment.mode, PAYER_WAITING);
    let intent: GatewayAIntent;
    try {
      intent = ref.startsWith('pi_')
        ? // The charge comes with it: its card's brand and last four digits are stored with the completion.
          parsePaymentIntent(await account.client.paymentIntents.retrieve(ref, { expand: ['latest_charge'] }), 'paymentIntents.retrieve', { id: ref })
        : parseSetupIntent(await account.client.setupIntents.retrieve(ref), 'setupIntents.retrieve', { id: ref });
    } catch (error) {
      throw await this.failures.record(payment.id, error, { event: 'checkout_failed', what: 'gateway-a/checkout reading the intent', source: 'checkout:gateway_a' });
    }
    const differences = contractDifferences(intent, payment);
    if (differences.length > 0) await this.mismatch(payment, differences);

    if (intent.object === 'payment_intent') {
      const outcome = intentOutcome(intent);
      const patch: PaymentPatch =
        outcome.status === 'completed'
          ? { amountReceived: intent.amount_received, providerCaptureRef: intent.latest_charge, ...(intent.card ? { cardBrand: intent.card.brand, cardLast4: intent.card.last4 } : {}) }
          : {};
      return this.settle(payment, outcome, patch);
    }
    if (intent.status === 'succeeded' && isRecurring(payment.frequency)) {
      // Gateway failures there are already logged and a 502.
      const subscription = await this.subscriptions.ensureSubscription(payment);
      return this.settle(payment, subscriptionOutcome(subscription.status), {});
    }
    return this.settle(payment, intentOutcome(intent), {});
  }

  /** Applies the outcome (no move while the payer still has to act) and answers the record's status. */
  private async settle(payment: PaymentRecord, outcome: IntentOutcome, patch: PaymentPatch): Promise<GatewayACheckoutResponseDto> {
    let status: PaymentStatus = payment.status;
    if (outcome.status !== 'pending') {
      const result = await this.ledger.transition(payment.id, outcome.status, { source: 'checkout:gateway_a', reason: 'gateway-a/checkout', patch });
      status = result.payment.status;
    }
    return { status, payment_id: payment.id, requires_action: outcome.requiresAction && status === 'pending' };
  }

  private async mismatch(payment: PaymentRecord, fields: string[]): Promise<never> {
    await this.ledger.log({
      paymentId: payment.id,
      level: 'warning',
      event: 'contract_mismatch',
      message: `The gateway A intent disagrees with the payment: ${fields.join(', ')}.`,
      context: { source: 'checkout:gateway_a', fields },
    });
    throw new ContractMismatchError(`The gateway's intent does not match this payment (${fields.join(', ')}).`);
  }

}

/** The fields in which an intent disagrees with the record it claims to pay for. */
export function contractDifferences(intent: GatewayAIntent, payment: PaymentRecord): string[] {
  const differences: string[] = [];
  if (intent.object === 'payment_intent') {
    if (intent.amount !== payment.amount) differences.push('amount');
    if (intent.currency.toLowerCase() !== payment.currency.toLowerCase()) differences.push('currency');
  }
  // A SetupIntent only ever belongs to a subscription record; a one-time record is paid by a PaymentIntent.
  const setupMismatch = intent.object === 'setup_intent' && (!isRecurring(payment.frequency) || intent.metadata.checkout_purpose !== 'subscription');
  if (intent.metadata.checkout_payment_id !== String(payment.id) || setupMismatch) {
    differences.push('metadata');
  }
  if (intent.customer !== payment.provider_customer_ref) differences.push('customer');
  return differences;
}
