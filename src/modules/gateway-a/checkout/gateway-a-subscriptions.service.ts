import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../../../config/index.js';
import { InvalidPaymentStateError, type PaymentRecord, PaymentLedgerService } from '../../payments/index.js';
import { GatewayACatalogService } from '../catalog/gateway-a-catalog.service.js';
import { type GatewayASubscription, parseInvoicePaidIntent, parseInvoicePaymentsFee, parseSetupIntent, parseSubscription } from '../client/gateway-a-answers.js';
import { GatewayAClientFactory } from '../client/gateway-a-client.factory.js';
import { GatewayAFailures } from '../client/gateway-a-failures.js';
import { gatewayAFees } from '../client/fee-policy.js';
import { InstallationScope } from '../client/installation-scope.js';
import { isRecurring } from '../client/recurring-interval.js';

export interface EnsuredSubscription {
  subscriptionId: string;
  status: string;
}

/**
 * Creates the gateway-A subscription of a subscription record once its SetupIntent has
 * succeeded. Called by the checkout route and by the `setup_intent.succeeded` webhook, possibly
 * at the same time: both send the same idempotency key (from the payment id) and so get the same
 * subscription back.
 */
@Injectable()
export class GatewayASubscriptionsService {
  private readonly fees;

  constructor(
    @Inject(APP_CONFIG) config: AppConfig,
    private readonly clients: GatewayAClientFactory,
    private readonly catalog: GatewayACatalogService,
    private readonly ledger: PaymentLedgerService,
    private readonly failures: GatewayAFailures,
    private readonly scope: InstallationScope,
  ) {
    this.fees = gatewayAFees(config.plan);
  }

  /**
   * The record's subscription: the stored one if any (no gateway call), else a new one for the
   * record's recurring price, customer and the payment method its SetupIntent saved, plus the
   * record's setup fee (fixed when the payer's details were synced) as a one-off item of the
   * first invoice; stores
   * `provider_subscription_ref`, `subscription_status` and (free plan) the first invoice's
   * `application_fee_amount`. Gateway failures: 502 `checkout_gateway_error`.
   */
  async ensureSubscription(payment: PaymentRecord): Promise<EnsuredSubscription> {
    if (payment.provider_subscription_ref) {
      return { subscriptionId: payment.provider_subscription_ref, status: payment.subscription_status ?? 'incomplete' };
    }
    if (payment.gateway !== 'gateway_a' || !isRecurring(payment.frequency)) {
      throw new InvalidPaymentStateError('This payment is not a gateway A subscription.');
    }
    const setupIntentId = payment.provider_payment_ref;
    const customer = payment.provider_customer_ref;
    if (!setupIntentId?.startsWith('seti_') || !customer) {
      throw new InvalidPaymentStateError('This subscription has no completed payment method setup yet.');
    }
    const setupFee = payment.setup_amount ?? 0;
    const account = await this.clients.forMode(payment.mode);
    let subscription: GatewayASubscription;
    try {
      const setupIntent = parseSetupIntent(await account.client.setupIntents.retrieve(setupIntentId), 'setupIntents.retrieve', { id: setupIntentId });
      const paymentMethod = setupIntent.payment_method;
      if (setupIntent.status !== 'succeeded' || !paymentMethod) {
        throw new InvalidPaymentStateError('The payment method setup of this subscription has not succeeded.');
      }
      const { priceId, productId } = await this.catalog.ensureRecurringPrice(account, payment);
      const feePercent = this.fees.applicationFeePercent;
      const metadata = this.scope.metadata({ checkout_payment_id: String(payment.id) });
      const created = await account.client.subscriptions.create(
        {
          customer,
          items: [{ price: priceId }],
          // The gateway puts `add_invoice_items` on the first invoice only: renewals charge the price alone.
          ...(setupFee > 0 ? { add_invoice_items: [{ price_data: { currency: payment.currency.toLowerCase(), product: productId, unit_amount: setupFee } }] } : {}),
          default_payment_method: paymentMethod,
          ...(feePercent !== null ? { application_fee_percent: feePercent } : {}),
          metadata,
        },
        { idempotencyKey: this.scope.keys.subscription(payment.id) },
      );
      // Nothing is stored unless the answer is this record's subscription.
      subscription = parseSubscription(created, 'subscriptions.create', { customer, metadata });
    } catch (error) {
      throw await this.failures.record(payment.id, error, { event: 'subscription_failed', what: 'Creating the subscription', source: 'gateway_a' });
    }
    await this.ledger.recordProviderDetails(
      payment.id,
      // Free plan: the fee percent covers the whole first invoice (price + setup fee); stored as
      // 2 % of that total, half up, as on one-time payments.
      {
        providerSubscriptionRef: subscription.id,
        subscriptionStatus: subscription.status,
        applicationFeeAmount: this.fees.applicationFeeAmount(payment.amount + setupFee),
      },
      'gateway_a:subscription',
    );
    return { subscriptionId: subscription.id, status: subscription.status };
  }

  /**
   * The application fee charged with a renewal invoice of `payment`'s subscription, or null when
   * the subscription charges none. At the pinned API version the invoice has no fee field: the
   * gateway applies the subscription's `application_fee_percent` to the invoice's payment, so
   * the fee is the `application_fee_amount` of the invoice's payment intent (the paid payment,
   * else the default one that is still being attempted). One bounded read, made only for a
   * subscription created with a fee (free plan), never inside a transaction; a gateway failure
   * is 502 (the webhook's redelivery reads it again) and nothing is written.
   */
  /**
   * The PaymentIntent that paid an invoice of `payment`'s subscription (where its refunds go), or
   * null when the invoice has no paid payment. One bounded read, never inside a transaction; a
   * gateway failure is 502 (the webhook's redelivery reads it again) and nothing is written.
   */
  async paidIntent(payment: PaymentRecord, invoiceId: string): Promise<string | null> {
    const account = await this.clients.forMode(payment.mode, { maxNetworkRetries: 1 });
    try {
      const answer = await account.client.invoicePayments.list({ invoice: invoiceId, status: 'paid' });
      return parseInvoicePaidIntent(answer, 'invoicePayments.list', { invoice: invoiceId });
    } catch (error) {
      throw await this.failures.record(payment.id, error, { event: 'invoice_payment_failed', what: "Reading the invoice's payment", source: 'gateway_a', context: { invoice: invoiceId } });
    }
  }

  async renewalFee(payment: PaymentRecord, invoiceId: string): Promise<number | null> {
    if (payment.application_fee_amount === null) return null;
    const account = await this.clients.forMode(payment.mode, { maxNetworkRetries: 1 });
    try {
      const answer = await account.client.invoicePayments.list({ invoice: invoiceId, expand: ['data.payment.payment_intent'] });
      return parseInvoicePaymentsFee(answer, 'invoicePayments.list', { invoice: invoiceId });
    } catch (error) {
      throw await this.failures.record(payment.id, error, { event: 'renewal_fee_failed', what: 'Reading the renewal fee', source: 'gateway_a', context: { invoice: invoiceId } });
    }
  }
}
