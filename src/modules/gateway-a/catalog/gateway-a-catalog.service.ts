import { Injectable } from '@nestjs/common';
import { FormsService } from '../../forms/index.js';
import type { PaymentRecord } from '../../payments/index.js';
import { parseCustomer, parsePrice, parseProduct } from '../client/gateway-a-answers.js';
import type { GatewayAAccount } from '../client/gateway-a-client.factory.js';
import { InstallationScope } from '../client/installation-scope.js';
import { recurringInterval } from '../client/recurring-interval.js';
import { GatewayACustomerRepository, GatewayAPriceRepository, GatewayAProductRepository } from './gateway-a-cache.repository.js';

/**
 * Gateway-A customers, products and prices, created once per identity and cached in the three
 * gateway-A tables. Lookup first; otherwise create at the gateway with an idempotency key derived
 * from the identity (two concurrent creates get the same object back), then insert, reading the
 * winner's row on a duplicate key. No database transaction is open during a gateway call. An answer
 * that is not the object sent (type, id prefix, metadata, price amount/currency/product) throws
 * `MalformedGatewayAAnswer` before anything is cached.
 */
@Injectable()
export class GatewayACatalogService {
  constructor(
    private readonly customers: GatewayACustomerRepository,
    private readonly products: GatewayAProductRepository,
    private readonly prices: GatewayAPriceRepository,
    private readonly forms: FormsService,
    private readonly scope: InstallationScope,
  ) {}

  /** The provider customer of (account, mode, email). */
  async ensureCustomer(account: GatewayAAccount, email: string): Promise<string> {
    const identity = { accountId: account.accountId, mode: account.mode, emailAddress: email.toLowerCase() };
    const cached = await this.customers.find(identity);
    if (cached) return cached.providerCustomerId;
    const params = { email: identity.emailAddress, metadata: this.scope.metadata({ checkout_managed: 'true' }) };
    const customer = parseCustomer(
      await account.client.customers.create(params, {
        idempotencyKey: this.scope.keys.catalog('customer', [identity.accountId, identity.mode, identity.emailAddress], params),
      }),
      'customers.create',
      { metadata: params.metadata },
    );
    return (await this.customers.store(identity, customer.id)).providerCustomerId;
  }

  /** The provider price (and its product) for a subscription record's form/plan/price, amount, currency and frequency. */
  async ensureRecurringPrice(account: GatewayAAccount, payment: PaymentRecord): Promise<{ priceId: string; productId: string }> {
    const interval = recurringInterval(payment.frequency);
    if (payment.form_id === null || payment.plan_index === null || payment.price_index === null || !interval) {
      throw new Error(`Payment ${payment.id} has no recurring form price`);
    }
    const identity = {
      accountId: account.accountId,
      mode: account.mode,
      formId: payment.form_id,
      planIndex: payment.plan_index,
      priceIndex: payment.price_index,
      amount: payment.amount,
      currency: payment.currency.toUpperCase(),
      frequency: payment.frequency,
    };
    const cached = await this.prices.find(identity);
    if (cached) return { priceId: cached.providerPriceId, productId: cached.providerProductId };
    const productId = await this.ensureProduct(account, payment.form_id, payment.plan_index);
    const params = {
      product: productId,
      unit_amount: payment.amount,
      currency: payment.currency.toLowerCase(),
      recurring: interval,
      metadata: this.scope.metadata({ checkout_form_id: String(payment.form_id), checkout_plan_index: String(payment.plan_index), checkout_price_index: String(payment.price_index) }),
    };
    const price = parsePrice(
      await account.client.prices.create(params, {
        idempotencyKey: this.scope.keys.catalog('price', Object.values(identity), params),
      }),
      'prices.create',
      { amount: params.unit_amount, currency: params.currency, product: productId, metadata: params.metadata },
    );
    const stored = await this.prices.store(identity, productId, price.id);
    return { priceId: stored.providerPriceId, productId: stored.providerProductId };
  }

  /** The provider product of (account, mode, form, plan). */
  async ensureProduct(account: GatewayAAccount, formId: number, planIndex: number): Promise<string> {
    const identity = { accountId: account.accountId, mode: account.mode, formId, planIndex };
    const cached = await this.products.find(identity);
    if (cached) return cached.providerProductId;
    const form = await this.forms.findById(formId);
    const planTitle = form?.settings.plans?.[planIndex]?.title;
    const name = [form?.title || `Form ${formId}`, planTitle || `Plan ${planIndex + 1}`].join(' – ').slice(0, 250);
    const params = { name, metadata: this.scope.metadata({ checkout_form_id: String(formId), checkout_plan_index: String(planIndex) }) };
    const product = parseProduct(
      await account.client.products.create(params, {
        idempotencyKey: this.scope.keys.catalog('product', Object.values(identity), params),
      }),
      'products.create',
      { metadata: params.metadata },
    );
    return (await this.products.store(identity, product.id)).providerProductId;
  }
}
