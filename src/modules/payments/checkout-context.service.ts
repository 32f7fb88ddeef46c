import { Injectable } from '@nestjs/common';
import { ConflictError, InvalidParamsError, NotFoundError } from '../../common/errors/index.js';
import { currencyRule, isValidMinorAmount, MoneyFormatError, toDecimalString } from '../../common/money/index.js';
import { FormsService, type PaymentForm } from '../forms/index.js';
import { type CheckoutGateway, type GatewayMode, GatewayRegistry, GatewayStateService, isMethodOf } from '../gateways/index.js';
import { MAX_INT } from './checkout-choice.dto.js';

export interface PriceChoice {
  planIndex: number;
  priceIndex: number;
  /** Only read for a customer-entered price. */
  amount?: number;
}

export interface ChosenPrice {
  planIndex: number;
  priceIndex: number;
  amount: number;
  currency: string;
  frequency: string;
  /** One-off fee charged with the first payment of a recurring price (minor units); null when none. */
  setupAmount: number | null;
}

export interface CheckoutContext extends ChosenPrice {
  form: PaymentForm;
  gateway: CheckoutGateway;
  method: string;
  mode: GatewayMode;
}

/**
 * 409 `checkout_invalid_state`: the payment's form was unpublished, so it takes no new intent, order
 * or checkout token; what is already under way at the provider can still be finalised.
 */
export class FormNotPublishedError extends ConflictError {
  constructor() {
    super('checkout_invalid_state', 'This payment form is not published: it takes no new payments.');
  }
}

/**
 * The server's view of what a payer may pay: the amount from the form (never from the
 * browser, except a customer-entered amount within the price's bounds), and whether the gateway
 * is connected in its current mode with the method enabled on the gateway and on the form.
 */
@Injectable()
export class CheckoutContextService {
  constructor(
    private readonly forms: FormsService,
    private readonly gateways: GatewayStateService,
    private readonly registry: GatewayRegistry,
  ) {}

  /** For payment/sync-details: a 404 for an unknown form, a 400 naming the field for anything else. */
  async resolve(input: { formId: number; gateway: CheckoutGateway; method: string } & PriceChoice): Promise<CheckoutContext> {
    const form = await this.forms.findById(input.formId);
    // A draft form is not public: payers cannot pay through it.
    if (!form || form.status !== 'publish') throw new NotFoundError('Payment form');
    const price = choosePrice(form, input);
    if (price.frequency !== 'one-time' && !this.registry.get(input.gateway).supportsRecurring) {
      throw new InvalidParamsError({ payment_gateway: `${input.gateway} supports one-time prices only` });
    }
    const { mode, connected, activeMethods } = await this.gateways.checkoutState(input.gateway);
    if (!connected) {
      throw new InvalidParamsError({ payment_gateway: `${input.gateway} is not connected in ${mode} mode` });
    }
    if (!isMethodEnabled(form, input.gateway, input.method, activeMethods)) {
      throw new InvalidParamsError({ payment_method: `${input.method} is not enabled for this form and gateway` });
    }
    return { ...price, form, gateway: input.gateway, method: input.method, mode };
  }

  /**
   * For the public payment routes (docs/decisions.md §5): `unavailable` unless the form still exists,
   * the gateway's current mode is `mode` and connected, and the method is enabled on the gateway and
   * on the form; then whether the form is published (a draft takes no new intent or order, but a
   * payment already under way may still be finalised).
   */
  async availability(input: { formId: number; gateway: CheckoutGateway; method: string; mode: string }): Promise<'unavailable' | 'published' | 'unpublished'> {
    // Two statements: the form, and the gateway's mode, credentials and methods in one options read.
    const [form, state] = await Promise.all([this.forms.findById(input.formId), this.gateways.checkoutState(input.gateway)]);
    if (!form || state.mode !== input.mode) return 'unavailable';
    if (!state.connected) return 'unavailable';
    if (!isMethodEnabled(form, input.gateway, input.method, state.activeMethods)) return 'unavailable';
    return form.status === 'publish' ? 'published' : 'unpublished';
  }

  /** Whether the form exists and is published (a checkout token is issued only for one that is). */
  async isPublished(formId: number): Promise<boolean> {
    return (await this.forms.findById(formId))?.status === 'publish';
  }
}

/** The method belongs to the gateway, is enabled on the form and active on the gateway. */
function isMethodEnabled(form: PaymentForm, gateway: CheckoutGateway, method: string, activeMethods: string[]): boolean {
  if (!isMethodOf(gateway, method)) return false;
  if (!(form.settings.payment_methods?.[gateway] ?? []).includes(method)) return false;
  return activeMethods.includes(method);
}

/** The amount, currency and frequency of the chosen plan/price of a form. */
export function choosePrice(form: Pick<PaymentForm, 'settings'>, choice: PriceChoice): ChosenPrice {
  const plan = form.settings.plans?.[choice.planIndex];
  if (!plan) throw new InvalidParamsError({ plan_index: 'plan_index does not name a plan of this form' });
  const price = plan.prices?.[choice.priceIndex];
  if (!price) throw new InvalidParamsError({ price_index: 'price_index does not name a price of this plan' });
  let currency: string;
  try {
    currency = currencyRule(price.currency).code;
  } catch (error) {
    if (error instanceof MoneyFormatError) throw new InvalidParamsError({ price_index: 'the chosen price has an unsupported currency' });
    throw error;
  }
  let amount = price.amount;
  if (price.custom_amount) {
    amount = choice.amount ?? price.amount;
    const { min, max } = price.custom_amount;
    if (amount < min || amount > max) {
      throw new InvalidParamsError({
        amount: `amount must be between ${min} and ${max} (${toDecimalString(min, currency)} to ${toDecimalString(max, currency)} ${currency})`,
      });
    }
    if (!isValidMinorAmount(amount, currency)) {
      throw new InvalidParamsError({ amount: `amount is not a chargeable ${currency} amount` });
    }
  }
  if (!Number.isSafeInteger(amount) || amount < 1 || amount > MAX_INT) {
    throw new InvalidParamsError({ price_index: 'the chosen price has no amount to pay' });
  }
  const setupAmount = price.frequency !== 'one-time' && price.setup_amount ? price.setup_amount : null;
  return { planIndex: choice.planIndex, priceIndex: choice.priceIndex, amount, currency, frequency: price.frequency, setupAmount };
}
