import { Injectable } from '@nestjs/common';
import type { ReconcileResult, Reconciler } from '../../gateways/index.js';
import { InvalidPaymentStateError, isTerminal, PaymentLedgerService, type PaymentPatch, PaymentQueriesService, type PaymentRecord, type PaymentStatus } from '../../payments/index.js';
import { contractDifferences } from '../checkout/gateway-a-checkout.service.js';
import { GatewayASubscriptionsService } from '../checkout/gateway-a-subscriptions.service.js';
import { intentOutcome, subscriptionOutcome } from '../checkout/intent-outcome.js';
import { parsePaymentIntent, parseSetupIntent, parseSubscription } from '../client/gateway-a-answers.js';
import { type GatewayAAccount, GatewayAClientFactory } from '../client/gateway-a-client.factory.js';
import { GatewayAFailures } from '../client/gateway-a-failures.js';
import { isRecurring } from '../client/recurring-interval.js';

const SOURCE = 'reconcile';

/**
 * Gateway A's part of the reconciliation sweep (a webhook that never arrived): the record's own
 * intent (or, for a subscription, its setup intent, subscription and first invoice) is read back
 * and the record moves exactly as the webhook would have moved it, through the ledger (emails on
 * completion included, once). Only objects the record holds are read, and they are checked
 * against the record as the checkout route checks them. Provider failures, and answers that are not
 * the object asked for, are thrown (logged on the payment, 502/503, record unchanged) so the sweep
 * backs off.
 */
@Injectable()
export class GatewayAReconciler implements Reconciler {
  constructor(
    private readonly payments: PaymentQueriesService,
    private readonly ledger: PaymentLedgerService,
    private readonly clients: GatewayAClientFactory,
    private readonly subscriptions: GatewayASubscriptionsService,
    private readonly failures: GatewayAFailures,
  ) {}

  async reconcile(paymentId: number): Promise<ReconcileResult> {
    const payment = await this.payments.findById(paymentId);
    if (!payment || payment.gateway !== 'gateway_a' || isTerminal(payment.status)) {
      return { outcome: 'skipped', from: payment?.status ?? 'unknown', to: payment?.status ?? 'unknown', detail: 'not a waiting gateway A payment' };
    }
    const ref = payment.provider_payment_ref;
    if (!ref || !(ref.startsWith('pi_') || ref.startsWith('seti_'))) return this.same(payment, 'the record holds no intent');
    const account = await this.clients.forMode(payment.mode);
    try {
      return ref.startsWith('pi_') ? await this.paymentIntent(account, payment, ref) : await this.setupIntent(account, payment, ref);
    } catch (error) {
      if (error instanceof InvalidPaymentStateError) return this.same(payment, error.message);
      throw await this.failures.record(payment.id, error, { event: 'reconcile_failed', what: 'Reconciling the payment with the gateway', source: SOURCE });
    }
  }

  private async paymentIntent(account: GatewayAAccount, payment: PaymentRecord, ref: string): Promise<ReconcileResult> {
    const intent = parsePaymentIntent(await account.client.paymentIntents.retrieve(ref, { expand: ['latest_charge'] }), 'paymentIntents.retrieve', { id: ref });
    const differences = contractDifferences(intent, payment);
    if (differences.length > 0) return this.mismatch(payment, `the intent disagrees with the payment: ${differences.join(', ')}`);
    const outcome = intentOutcome(intent);
    if (outcome.status === 'pending') return this.same(payment, `the intent is ${intent.status}`);
    const card = intent.card ? { cardBrand: intent.card.brand, cardLast4: intent.card.last4 } : {};
    const patch: PaymentPatch = outcome.status === 'completed' ? { amountReceived: intent.amount_received, providerCaptureRef: intent.latest_charge, ...card } : {};
    return this.move(payment, outcome.status, `intent ${intent.status}`, patch);
  }

  /** A subscription record: its setup, then its subscription, then the first invoice's payment. */
  private async setupIntent(account: GatewayAAccount, payment: PaymentRecord, ref: string): Promise<ReconcileResult> {
    const setup = parseSetupIntent(await account.client.setupIntents.retrieve(ref), 'setupIntents.retrieve', { id: ref });
    const differences = contractDifferences(setup, payment);
    if (differences.length > 0) return this.mismatch(payment, `the setup intent disagrees with the payment: ${differences.join(', ')}`);
    if (setup.status !== 'succeeded') {
      const outcome = intentOutcome(setup);
      return outcome.status === 'pending' ? this.same(payment, `the setup intent is ${setup.status}`) : this.move(payment, outcome.status, `setup intent ${setup.status}`, {});
    }
    if (!isRecurring(payment.frequency)) return this.mismatch(payment, 'a setup intent cannot pay a one-time payment');
    // As setup_intent.succeeded would: the subscription exists from now on (same idempotency key).
    const ensured = await this.subscriptions.ensureSubscription(payment);
    const subscription = parseSubscription(
      await account.client.subscriptions.retrieve(ensured.subscriptionId, { expand: ['latest_invoice'] }),
      'subscriptions.retrieve',
      { id: ensured.subscriptionId },
    );
    const outcome = subscriptionOutcome(subscription.status);
    if (outcome.status !== 'completed') return this.move(payment, outcome.status, `subscription ${subscription.status}`, {});
    const invoice = subscription.latest_invoice;
    const firstCharge = payment.amount + (payment.setup_amount ?? 0);
    if (!invoice || invoice.billing_reason !== 'subscription_create' || invoice.amount_paid !== firstCharge || invoice.currency !== payment.currency.toLowerCase()) {
      // A later invoice or an unexpected amount: the webhooks (or a person) must settle it.
      return this.mismatch(payment, 'the subscription is active but its first invoice does not match the payment');
    }
    return this.move(payment, 'completed', `subscription ${subscription.status}`, { amountReceived: invoice.amount_paid });
  }

  private async move(payment: PaymentRecord, to: PaymentStatus, reason: string, patch: PaymentPatch): Promise<ReconcileResult> {
    const result = await this.ledger.transition(payment.id, to, { source: SOURCE, reason, patch, tolerateRefusal: true });
    const moved = result.outcome === 'applied';
    return { outcome: moved ? 'moved' : 'unchanged', from: result.from, to: result.payment.status, detail: reason };
  }

  private same(payment: PaymentRecord, detail: string): ReconcileResult {
    return { outcome: 'unchanged', from: payment.status, to: payment.status, detail };
  }

  private async mismatch(payment: PaymentRecord, why: string): Promise<ReconcileResult> {
    await this.ledger.log({ paymentId: payment.id, level: 'warning', event: 'reconcile_mismatch', message: `Reconciliation did not move the payment: ${why}.`, context: { source: SOURCE } });
    return { outcome: 'mismatch', from: payment.status, to: payment.status, detail: why };
  }
}
