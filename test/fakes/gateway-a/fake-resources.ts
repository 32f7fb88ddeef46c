import { randomBytes } from 'node:crypto';
import {
  bool,
  decimal,
  FakeStripeError,
  int,
  invalidParam,
  mergeMetadata,
  missingParam,
  nestedParams,
  noSuch,
  obj,
  onlyParams,
  str,
  strList,
  unexpectedState,
} from './fake-errors.js';
import type { FormObject } from './form-body.js';
import {
  customerFields,
  invoiceFields,
  invoiceLineFields,
  paymentIntentFields,
  chargeFields,
  paymentMethodStub,
  priceFields,
  productFields,
  recurringFields,
  setupIntentFields,
  subscriptionFields,
  subscriptionItemFields,
} from './fake-objects.js';

export type Json = Record<string, unknown>;

/** The account a request acts for (derived from its API key). */
export interface FakeAccount {
  id: string;
  livemode: boolean;
}

export type IntentOutcome = 'succeeded' | 'requires_action' | 'processing' | 'declined';

interface Stored {
  kind: string;
  account: string;
  data: Json;
}

export function fakeId(prefix: string, length = 24): string {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
  const bytes = randomBytes(length);
  let id = '';
  for (const byte of bytes) id += alphabet[byte % alphabet.length];
  return `${prefix}_${id}`;
}

const now = () => Math.floor(Date.now() / 1000);

/** Well-known test payment methods and what confirming with them does (as on the real test API). */
const DEFAULT_OUTCOMES: Record<string, IntentOutcome> = {
  pm_card_visa: 'succeeded',
  pm_card_mastercard: 'succeeded',
  pm_card_authenticationRequired: 'requires_action',
  pm_card_threeDSecure2Required: 'requires_action',
  pm_card_chargeDeclined: 'declined',
  pm_card_visa_chargeDeclined: 'declined',
  pm_sepa_debit: 'processing',
  pm_usBankAccount: 'processing',
};

/**
 * The payment method type of a test payment method id, as the real test API's `pm_card_*`,
 * `pm_sepa_debit`… are typed; `pm_link` and `pm_alipay` stand for a Link and a redirect wallet's
 * payment method. Other ids (a `pm_…` of a test's own) are cards.
 */
export function paymentMethodType(paymentMethod: string): string {
  const known: Record<string, string> = { pm_sepa_debit: 'sepa_debit', pm_usBankAccount: 'us_bank_account', pm_link: 'link', pm_alipay: 'alipay' };
  return known[paymentMethod] ?? 'card';
}

const INTERVALS = ['day', 'week', 'month', 'year'];
const ENDPOINT_EVENT = /^(\*|[a-z0-9_]+(\.[a-z0-9_]+)+)$/;
const API_VERSION = /^\d{4}-\d{2}-\d{2}(\.[a-z]+)?$/;

/**
 * The objects of the fake gateway and the operations on them, following the real API's shapes
 * and rules closely enough for the service's calls (and mistakes) to behave as they would live.
 */
export class FakeResources {
  private readonly objects = new Map<string, Stored>();
  /** Test control: what confirming with a payment method id does; falls back to DEFAULT_OUTCOMES. */
  readonly outcomes = new Map<string, IntentOutcome>();
  /**
   * Test control: the payment method types the account has turned on in its dashboard, which an
   * intent with automatic payment methods offers (less its `excluded_payment_method_types`).
   */
  enabledPaymentMethodTypes: string[] = ['card', 'link', 'alipay'];

  // --- direct access for tests ----------------------------------------------------------------

  get(id: string): Json | undefined {
    return this.objects.get(id)?.data;
  }

  list(kind: string): Json[] {
    return [...this.objects.values()].filter((stored) => stored.kind === kind).map((stored) => stored.data);
  }

  /** Keeps an object made outside the API (e.g. a refund made in the dashboard) as the API's own. */
  adopt(kind: string, accountId: string, data: Json): Json {
    this.objects.set(data.id as string, { kind, account: accountId, data });
    return data;
  }

  /** The account an object belongs to (undefined for an unknown id). */
  accountOf(id: string): string | undefined {
    return this.objects.get(id)?.account;
  }

  /** Moves an intent as the gateway would when something happens outside the API (3DS done, bank settled...). */
  setIntentStatus(id: string, status: string): Json {
    const intent = this.objects.get(id);
    if (!intent || (intent.kind !== 'payment_intent' && intent.kind !== 'setup_intent')) throw new Error(`No intent ${id}`);
    intent.data.status = status;
    if (intent.kind === 'payment_intent') this.settlePaymentIntent(intent.data);
    return intent.data;
  }

  // --- helpers ----------------------------------------------------------------------------------

  private put(kind: string, account: FakeAccount, data: Json): Json {
    this.objects.set(data.id as string, { kind, account: account.id, data });
    return data;
  }

  private find(kind: string, label: string, account: FakeAccount, id: string, param = 'id'): Json {
    const stored = this.objects.get(id);
    if (!stored || stored.kind !== kind || stored.account !== account.id) throw noSuch(label, id, param);
    return stored.data;
  }

  private listOf(kind: string, account: FakeAccount, path: string, filter: (data: Json) => boolean = () => true, limit = 10): Json {
    const data = [...this.objects.values()]
      .filter((stored) => stored.kind === kind && stored.account === account.id && filter(stored.data))
      .map((stored) => stored.data)
      .reverse();
    return { object: 'list', data: data.slice(0, limit), has_more: data.length > limit, url: path };
  }

  private currency(body: FormObject): string {
    const currency = str(body, 'currency', true);
    if (!/^[a-zA-Z]{3}$/.test(currency)) throw invalidParam('currency', `Invalid currency: ${currency}`);
    return currency.toLowerCase();
  }

  private outcomeFor(paymentMethod: string): IntentOutcome {
    return this.outcomes.get(paymentMethod) ?? DEFAULT_OUTCOMES[paymentMethod] ?? 'succeeded';
  }

  /**
   * The types an intent offers (its `payment_method_types`): the allowed list as given, or with
   * automatic payment methods (or neither, the API's default) the account's enabled types less the
   * excluded ones. None left is refused, as the API refuses an intent no method could pay.
   */
  private offeredTypes(body: FormObject, allowed: string[] | undefined): string[] {
    if (allowed) return allowed;
    const excluded = strList(body, 'excluded_payment_method_types') ?? [];
    const offered = this.enabledPaymentMethodTypes.filter((type) => !excluded.includes(type));
    if (offered.length === 0) {
      throw new FakeStripeError(400, {
        type: 'invalid_request_error',
        code: 'payment_intent_invalid_parameter',
        message: 'No valid payment method types for this intent. Please ensure that you have activated payment methods compatible with your chosen currency in your dashboard.',
      });
    }
    return offered;
  }

  /** An intent is paid only with a payment method of a type it offers (the element's choice is checked again here). */
  private checkPaymentMethodType(intent: Json, kind: 'payment_intent' | 'setup_intent'): void {
    const type = paymentMethodType(intent.payment_method as string);
    const offered = intent.payment_method_types as string[];
    if (offered.includes(type)) return;
    intent.payment_method = null;
    throw new FakeStripeError(400, {
      type: 'invalid_request_error',
      // The codes the reference lists for each kind (setup intents have no "incompatible" code of their own).
      code: kind === 'payment_intent' ? 'payment_intent_incompatible_payment_method' : 'setup_intent_invalid_parameter',
      param: 'payment_method',
      message: `The provided PaymentMethod of type ${type} is not allowed for this ${kind === 'payment_intent' ? 'PaymentIntent' : 'SetupIntent'}; it takes: ${offered.join(', ')}.`,
    });
  }

  // --- customers --------------------------------------------------------------------------------

  createCustomer(account: FakeAccount, body: FormObject): Json {
    onlyParams(body, ['email', 'name', 'description', 'metadata', 'payment_method', 'invoice_settings', 'phone']);
    const id = fakeId('cus', 14);
    return this.put('customer', account, {
      ...customerFields(),
      id,
      object: 'customer',
      email: str(body, 'email') ?? null,
      name: str(body, 'name') ?? null,
      description: str(body, 'description') ?? null,
      phone: str(body, 'phone') ?? null,
      metadata: mergeMetadata({}, body.metadata),
      invoice_settings: {
        ...(customerFields().invoice_settings as Json),
        default_payment_method: (obj(body, 'invoice_settings')?.default_payment_method as string) ?? null,
      },
      livemode: account.livemode,
      created: now(),
    });
  }

  retrieveCustomer(account: FakeAccount, id: string): Json {
    return this.find('customer', 'customer', account, id);
  }

  updateCustomer(account: FakeAccount, id: string, body: FormObject): Json {
    onlyParams(body, ['email', 'name', 'description', 'metadata', 'invoice_settings', 'phone']);
    const customer = this.find('customer', 'customer', account, id);
    for (const field of ['email', 'name', 'description', 'phone']) if (body[field] !== undefined) customer[field] = str(body, field) ?? null;
    customer.metadata = mergeMetadata(customer.metadata as Record<string, string>, body.metadata);
    const settings = obj(body, 'invoice_settings');
    if (settings?.default_payment_method !== undefined) customer.invoice_settings = { ...(customer.invoice_settings as Json), default_payment_method: settings.default_payment_method || null };
    return customer;
  }

  listCustomers(account: FakeAccount, query: FormObject): Json {
    const email = str(query, 'email');
    return this.listOf('customer', account, '/v1/customers', (c) => email === undefined || c.email === email, int(query, 'limit') ?? 10);
  }

  // --- products and prices ------------------------------------------------------------------------

  createProduct(account: FakeAccount, body: FormObject): Json {
    onlyParams(body, ['name', 'description', 'metadata', 'active', 'id']);
    const id = str(body, 'id') ?? fakeId('prod', 14);
    if (this.objects.has(id)) throw new FakeStripeError(400, { type: 'invalid_request_error', code: 'resource_already_exists', message: `Product already exists.` });
    const created = now();
    return this.put('product', account, {
      ...productFields(),
      id,
      object: 'product',
      name: str(body, 'name', true),
      description: str(body, 'description') ?? null,
      active: bool(body, 'active') ?? true,
      metadata: mergeMetadata({}, body.metadata),
      livemode: account.livemode,
      created,
      updated: created,
    });
  }

  retrieveProduct(account: FakeAccount, id: string): Json {
    return this.find('product', 'product', account, id);
  }

  createPrice(account: FakeAccount, body: FormObject): Json {
    onlyParams(body, ['currency', 'unit_amount', 'product', 'product_data', 'recurring', 'metadata', 'nickname', 'lookup_key', 'active']);
    const currency = this.currency(body);
    const unitAmount = int(body, 'unit_amount', true);
    let product = str(body, 'product');
    const productData = obj(body, 'product_data');
    if (product) this.find('product', 'product', account, product, 'product');
    else if (productData) product = this.createProduct(account, { name: productData.name ?? '' }).id as string;
    else throw new FakeStripeError(400, { type: 'invalid_request_error', code: 'parameter_missing', param: 'product', message: 'Missing required param: product.' });
    const recurringIn = obj(body, 'recurring');
    let recurring: Json | null = null;
    if (recurringIn) {
      const interval = str(recurringIn, 'interval', true);
      if (!INTERVALS.includes(interval)) throw invalidParam('recurring[interval]', `Invalid interval: ${interval}`);
      recurring = { ...recurringFields(), interval, interval_count: int(recurringIn, 'interval_count', false, 1) ?? 1 };
    }
    return this.put('price', account, {
      ...priceFields(),
      id: fakeId('price', 24),
      object: 'price',
      active: bool(body, 'active') ?? true,
      currency,
      unit_amount: unitAmount,
      unit_amount_decimal: String(unitAmount),
      product,
      recurring,
      type: recurring ? 'recurring' : 'one_time',
      nickname: str(body, 'nickname') ?? null,
      lookup_key: str(body, 'lookup_key') ?? null,
      metadata: mergeMetadata({}, body.metadata),
      livemode: account.livemode,
      created: now(),
    });
  }

  retrievePrice(account: FakeAccount, id: string): Json {
    return this.find('price', 'price', account, id);
  }

  // --- payment intents ----------------------------------------------------------------------------

  createPaymentIntent(account: FakeAccount, body: FormObject): Json {
    onlyParams(body, [
      'amount',
      'currency',
      'customer',
      'payment_method',
      'allowed_payment_method_types',
      'excluded_payment_method_types',
      'automatic_payment_methods',
      'capture_method',
      'confirm',
      'confirmation_method',
      'application_fee_amount',
      'metadata',
      'description',
      'receipt_email',
      'setup_future_usage',
      'statement_descriptor_suffix',
      'return_url',
      'off_session',
      'mandate_data',
      'payment_method_options',
    ]);
    const amount = int(body, 'amount', true, 1);
    const currency = this.currency(body);
    const customer = str(body, 'customer');
    if (customer) this.find('customer', 'customer', account, customer, 'customer');
    const fee = int(body, 'application_fee_amount');
    if (fee !== undefined && fee > amount) throw invalidParam('application_fee_amount', 'The application fee cannot exceed the amount.');
    const captureMethod = str(body, 'capture_method') ?? 'automatic_async';
    if (!['automatic', 'automatic_async', 'manual'].includes(captureMethod)) throw invalidParam('capture_method', `Invalid capture_method: ${captureMethod}`);
    const automatic = obj(body, 'automatic_payment_methods');
    const types = strList(body, 'allowed_payment_method_types');
    if (automatic && types) {
      throw invalidParam('automatic_payment_methods', 'You may only specify one of these parameters: automatic_payment_methods, allowed_payment_method_types.');
    }
    const offered = this.offeredTypes(body, types);
    const id = fakeId('pi');
    const intent = this.put('payment_intent', account, {
      ...paymentIntentFields(),
      id,
      object: 'payment_intent',
      amount,
      amount_capturable: 0,
      amount_received: 0,
      allowed_payment_method_types: types ?? null,
      application_fee_amount: fee ?? null,
      automatic_payment_methods: automatic ? { enabled: automatic.enabled === 'true', allow_redirects: automatic.allow_redirects ?? 'always' } : null,
      canceled_at: null,
      capture_method: captureMethod,
      client_secret: `${id}_secret_${fakeId('x', 25).slice(2)}`,
      confirmation_method: str(body, 'confirmation_method') ?? 'automatic',
      created: now(),
      currency,
      customer: customer ?? null,
      description: str(body, 'description') ?? null,
      last_payment_error: null,
      latest_charge: null,
      livemode: account.livemode,
      metadata: mergeMetadata({}, body.metadata),
      next_action: null,
      payment_method: str(body, 'payment_method') ?? null,
      payment_method_types: offered,
      excluded_payment_method_types: strList(body, 'excluded_payment_method_types') ?? null,
      receipt_email: str(body, 'receipt_email') ?? null,
      setup_future_usage: str(body, 'setup_future_usage') ?? null,
      status: str(body, 'payment_method') ? 'requires_confirmation' : 'requires_payment_method',
    });
    if (bool(body, 'confirm')) this.confirmPaymentIntentData(intent, undefined);
    return intent;
  }

  /** `expand[]=latest_charge` gives the intent's charge (`chargeFields`) in place of its id. */
  retrievePaymentIntent(account: FakeAccount, id: string, query: FormObject = {}): Json {
    const intent = this.find('payment_intent', 'payment_intent', account, id);
    if (!(strList(query, 'expand') ?? []).includes('latest_charge') || !intent.latest_charge) return intent;
    const refunded = this.refundsOf(id).filter((refund) => refund.status === 'succeeded' || refund.status === 'pending').reduce((sum, refund) => sum + (refund.amount as number), 0);
    return { ...intent, latest_charge: chargeFields(intent, paymentMethodType(intent.payment_method as string), refunded) };
  }

  updatePaymentIntent(account: FakeAccount, id: string, body: FormObject): Json {
    onlyParams(body, ['amount', 'currency', 'customer', 'payment_method', 'metadata', 'description', 'receipt_email', 'application_fee_amount', 'setup_future_usage']);
    const intent = this.find('payment_intent', 'payment_intent', account, id);
    if (['succeeded', 'canceled', 'processing'].includes(intent.status as string)) throw unexpectedState('payment_intent', intent.status as string, 'update');
    if (body.amount !== undefined) intent.amount = int(body, 'amount', true, 1);
    if (body.currency !== undefined) intent.currency = this.currency(body);
    if (body.application_fee_amount !== undefined) intent.application_fee_amount = int(body, 'application_fee_amount') ?? null;
    for (const field of ['customer', 'payment_method', 'description', 'receipt_email', 'setup_future_usage']) {
      if (body[field] !== undefined) intent[field] = str(body, field) ?? null;
    }
    intent.metadata = mergeMetadata(intent.metadata as Record<string, string>, body.metadata);
    if (intent.payment_method && intent.status === 'requires_payment_method') intent.status = 'requires_confirmation';
    return intent;
  }

  confirmPaymentIntent(account: FakeAccount, id: string, body: FormObject): Json {
    onlyParams(body, ['payment_method', 'return_url', 'off_session', 'mandate_data', 'receipt_email', 'setup_future_usage', 'payment_method_options']);
    const intent = this.find('payment_intent', 'payment_intent', account, id);
    return this.confirmPaymentIntentData(intent, str(body, 'payment_method'));
  }

  private confirmPaymentIntentData(intent: Json, paymentMethod: string | undefined): Json {
    if (!['requires_payment_method', 'requires_confirmation', 'requires_action'].includes(intent.status as string)) {
      throw unexpectedState('payment_intent', intent.status as string, 'confirm');
    }
    if (paymentMethod) intent.payment_method = paymentMethod;
    if (!intent.payment_method) {
      throw new FakeStripeError(400, {
        type: 'invalid_request_error',
        code: 'payment_intent_unexpected_state',
        message: 'You cannot confirm this PaymentIntent because it is missing a payment method.',
      });
    }
    this.checkPaymentMethodType(intent, 'payment_intent');
    const outcome = this.outcomeFor(intent.payment_method as string);
    intent.last_payment_error = null;
    intent.next_action = null;
    switch (outcome) {
      case 'requires_action':
        intent.status = 'requires_action';
        intent.next_action = { type: 'use_stripe_sdk', use_stripe_sdk: {} };
        break;
      case 'processing':
        intent.status = 'processing';
        break;
      case 'declined': {
        intent.status = 'requires_payment_method';
        const error = { type: 'card_error', code: 'card_declined', decline_code: 'generic_decline', message: 'Your card was declined.' } as const;
        intent.last_payment_error = { ...error, payment_method: paymentMethodStub(intent.payment_method as string) };
        intent.payment_method = null;
        throw new FakeStripeError(402, { ...error, payment_intent: intent });
      }
      default:
        intent.status = intent.capture_method === 'manual' ? 'requires_capture' : 'succeeded';
    }
    this.settlePaymentIntent(intent);
    return intent;
  }

  private settlePaymentIntent(intent: Json): void {
    if (intent.status === 'succeeded') {
      intent.amount_received = intent.amount;
      intent.amount_capturable = 0;
      intent.latest_charge ??= fakeId('ch');
    } else if (intent.status === 'requires_capture') {
      intent.amount_capturable = intent.amount;
      intent.latest_charge ??= fakeId('ch');
    } else if (intent.status === 'canceled') {
      intent.canceled_at = now();
    }
  }

  capturePaymentIntent(account: FakeAccount, id: string, body: FormObject): Json {
    onlyParams(body, ['amount_to_capture', 'application_fee_amount', 'metadata']);
    const intent = this.find('payment_intent', 'payment_intent', account, id);
    if (intent.status !== 'requires_capture') throw unexpectedState('payment_intent', intent.status as string, 'capture');
    const amount = int(body, 'amount_to_capture', false, 1) ?? (intent.amount as number);
    if (amount > (intent.amount as number)) throw invalidParam('amount_to_capture', 'amount_to_capture cannot exceed the amount');
    intent.status = 'succeeded';
    intent.amount_received = amount;
    intent.amount_capturable = 0;
    return intent;
  }

  cancelPaymentIntent(account: FakeAccount, id: string, body: FormObject): Json {
    onlyParams(body, ['cancellation_reason']);
    const intent = this.find('payment_intent', 'payment_intent', account, id);
    if (['succeeded', 'canceled'].includes(intent.status as string)) throw unexpectedState('payment_intent', intent.status as string, 'cancel');
    intent.status = 'canceled';
    intent.cancellation_reason = str(body, 'cancellation_reason') ?? null;
    this.settlePaymentIntent(intent);
    return intent;
  }

  // --- refunds ------------------------------------------------------------------------------------

  /** Application fee given back per PaymentIntent (the gateway keeps it on the application fee object, which the fake does not model). */
  readonly applicationFeeRefunded = new Map<string, number>();

  /** Test control: the status a new refund gets (`succeeded`; `pending` as for some bank methods). */
  refundStatus: 'succeeded' | 'pending' = 'succeeded';

  /**
   * `POST /v1/refunds` on a PaymentIntent's charge: `amount` defaults to what is left; a fully
   * refunded charge is `charge_already_refunded`, more than what is left `amount_too_large`;
   * `refund_application_fee` gives back the application fee in proportion (`applicationFeeRefunded`).
   */
  createRefund(account: FakeAccount, body: FormObject): Json {
    onlyParams(body, ['amount', 'charge', 'payment_intent', 'metadata', 'reason', 'refund_application_fee', 'reverse_transfer', 'instructions_email', 'origin']);
    const intentId = str(body, 'payment_intent');
    if (!intentId) throw missingParam('payment_intent');
    const intent = this.find('payment_intent', 'payment_intent', account, intentId, 'payment_intent');
    const charge = intent.latest_charge as string | null;
    if (intent.status !== 'succeeded' || !charge) {
      throw new FakeStripeError(400, { type: 'invalid_request_error', code: 'payment_intent_unexpected_state', message: `This PaymentIntent (${intentId}) does not have a successful charge to refund.` });
    }
    const reason = str(body, 'reason');
    if (reason !== undefined && !['duplicate', 'fraudulent', 'requested_by_customer'].includes(reason)) throw invalidParam('reason', `Invalid reason: must be one of duplicate, fraudulent, or requested_by_customer`);
    const received = intent.amount_received as number;
    const refunded = this.refundsOf(intentId).filter((refund) => refund.status === 'succeeded' || refund.status === 'pending').reduce((sum, refund) => sum + (refund.amount as number), 0);
    const left = received - refunded;
    if (left <= 0) throw new FakeStripeError(400, { type: 'invalid_request_error', code: 'charge_already_refunded', message: `Charge ${charge} has already been refunded.` });
    const amount = int(body, 'amount', false, 1) ?? left;
    if (amount > left) {
      throw new FakeStripeError(400, { type: 'invalid_request_error', code: 'amount_too_large', param: 'amount', message: `Refund amount (${amount}) is greater than unrefunded amount on charge (${left})` });
    }
    if (bool(body, 'refund_application_fee') && typeof intent.application_fee_amount === 'number') {
      this.applicationFeeRefunded.set(intentId, (this.applicationFeeRefunded.get(intentId) ?? 0) + Math.floor(((intent.application_fee_amount as number) * amount) / received));
    }
    return this.put('refund', account, {
      id: fakeId('re'),
      object: 'refund',
      amount,
      balance_transaction: fakeId('txn'),
      charge,
      created: now(),
      currency: intent.currency,
      customer: intent.customer ?? null,
      customer_account: null,
      destination_details: { type: 'card', card: { reference_status: 'pending', reference_type: 'acquirer_reference_number', type: 'refund' } },
      metadata: mergeMetadata({}, body.metadata),
      payment_intent: intentId,
      payment_method: intent.payment_method ?? null,
      reason: reason ?? null,
      receipt_number: null,
      source_transfer_reversal: null,
      status: this.refundStatus,
      transfer_reversal: null,
    });
  }

  /** Test access: every refund of an intent, oldest first. */
  refundsOf(intentId: string): Json[] {
    return this.list('refund').filter((refund) => refund.payment_intent === intentId);
  }

  // --- setup intents ------------------------------------------------------------------------------

  createSetupIntent(account: FakeAccount, body: FormObject): Json {
    onlyParams(body, [
      'customer',
      'payment_method',
      'allowed_payment_method_types',
      'excluded_payment_method_types',
      'automatic_payment_methods',
      'usage',
      'metadata',
      'confirm',
      'description',
      'return_url',
      'mandate_data',
      'payment_method_options',
    ]);
    const customer = str(body, 'customer');
    if (customer) this.find('customer', 'customer', account, customer, 'customer');
    const usage = str(body, 'usage') ?? 'off_session';
    if (!['on_session', 'off_session'].includes(usage)) throw invalidParam('usage', `Invalid usage: ${usage}`);
    const automatic = obj(body, 'automatic_payment_methods');
    const types = strList(body, 'allowed_payment_method_types');
    if (automatic && types) {
      throw invalidParam('automatic_payment_methods', 'You may only specify one of these parameters: automatic_payment_methods, allowed_payment_method_types.');
    }
    const offered = this.offeredTypes(body, types);
    const id = fakeId('seti');
    const intent = this.put('setup_intent', account, {
      ...setupIntentFields(),
      id,
      object: 'setup_intent',
      allowed_payment_method_types: types ?? null,
      automatic_payment_methods: automatic ? { enabled: automatic.enabled === 'true' } : null,
      client_secret: `${id}_secret_${fakeId('x', 25).slice(2)}`,
      created: now(),
      customer: customer ?? null,
      description: str(body, 'description') ?? null,
      last_setup_error: null,
      livemode: account.livemode,
      metadata: mergeMetadata({}, body.metadata),
      next_action: null,
      payment_method: str(body, 'payment_method') ?? null,
      payment_method_types: offered,
      excluded_payment_method_types: strList(body, 'excluded_payment_method_types') ?? null,
      status: str(body, 'payment_method') ? 'requires_confirmation' : 'requires_payment_method',
      usage,
    });
    if (bool(body, 'confirm')) this.confirmSetupIntentData(intent, undefined);
    return intent;
  }

  retrieveSetupIntent(account: FakeAccount, id: string): Json {
    return this.find('setup_intent', 'setup_intent', account, id);
  }

  confirmSetupIntent(account: FakeAccount, id: string, body: FormObject): Json {
    onlyParams(body, ['payment_method', 'return_url', 'mandate_data', 'payment_method_options']);
    return this.confirmSetupIntentData(this.find('setup_intent', 'setup_intent', account, id), str(body, 'payment_method'));
  }

  private confirmSetupIntentData(intent: Json, paymentMethod: string | undefined): Json {
    if (!['requires_payment_method', 'requires_confirmation', 'requires_action'].includes(intent.status as string)) {
      throw unexpectedState('setup_intent', intent.status as string, 'confirm');
    }
    if (paymentMethod) intent.payment_method = paymentMethod;
    if (!intent.payment_method) throw unexpectedState('setup_intent', intent.status as string, 'confirm');
    this.checkPaymentMethodType(intent, 'setup_intent');
    const outcome = this.outcomeFor(intent.payment_method as string);
    intent.next_action = null;
    intent.last_setup_error = null;
    if (outcome === 'requires_action') {
      intent.status = 'requires_action';
      intent.next_action = { type: 'use_stripe_sdk', use_stripe_sdk: {} };
    } else if (outcome === 'processing') intent.status = 'processing';
    else if (outcome === 'declined') {
      const error = { type: 'card_error', code: 'card_declined', decline_code: 'generic_decline', message: 'Your card was declined.' } as const;
      intent.status = 'requires_payment_method';
      intent.last_setup_error = error;
      intent.payment_method = null;
      throw new FakeStripeError(402, { ...error, setup_intent: intent });
    } else intent.status = 'succeeded';
    return intent;
  }

  cancelSetupIntent(account: FakeAccount, id: string, body: FormObject): Json {
    onlyParams(body, ['cancellation_reason']);
    const intent = this.find('setup_intent', 'setup_intent', account, id);
    if (['succeeded', 'canceled'].includes(intent.status as string)) throw unexpectedState('setup_intent', intent.status as string, 'cancel');
    intent.status = 'canceled';
    return intent;
  }

  // --- subscriptions and their invoices ---------------------------------------------------------------

  createSubscription(account: FakeAccount, body: FormObject): Json {
    onlyParams(body, [
      'customer',
      'items',
      'add_invoice_items',
      'default_payment_method',
      'application_fee_percent',
      'metadata',
      'payment_behavior',
      'payment_settings',
      'trial_period_days',
      'off_session',
      'collection_method',
      'description',
      'cancel_at',
      'billing_cycle_anchor',
    ]);
    const customerId = str(body, 'customer', true);
    const customer = this.find('customer', 'customer', account, customerId, 'customer');
    const items = body.items;
    if (!Array.isArray(items) || items.length === 0) throw new FakeStripeError(400, { type: 'invalid_request_error', code: 'parameter_missing', param: 'items', message: 'Missing required param: items.' });
    const subscriptionId = fakeId('sub');
    const itemObjects = items.map((item, index) => {
      if (typeof item !== 'object' || Array.isArray(item)) throw invalidParam(`items[${index}]`, 'Invalid hash');
      const priceId = str(item, 'price', true);
      const price = this.find('price', 'price', account, priceId, `items[${index}][price]`);
      if (price.type !== 'recurring') throw invalidParam(`items[${index}][price]`, 'The price specified is set to `type=one_time` but this field only accepts prices with `type=recurring`.');
      const period = this.period(price.recurring as Json);
      return {
        ...subscriptionItemFields(price),
        id: fakeId('si', 14),
        object: 'subscription_item',
        created: now(),
        price,
        quantity: int(item, 'quantity', false, 1) ?? 1,
        subscription: subscriptionId,
        current_period_start: period.start,
        current_period_end: period.end,
      };
    });
    const currency = itemObjects[0].price.currency as string;
    const extras = this.addInvoiceItems(account, body, currency);
    const feePercent = decimal(body, 'application_fee_percent');
    if (feePercent !== undefined && feePercent > 100) throw invalidParam('application_fee_percent', 'application_fee_percent must be at most 100');
    const behavior = str(body, 'payment_behavior') ?? 'allow_incomplete';
    const paymentMethod =
      str(body, 'default_payment_method') ?? ((customer.invoice_settings as Json | undefined)?.default_payment_method as string | null) ?? null;
    const trialDays = int(body, 'trial_period_days');

    // The first invoice: the items (free during a trial) plus the one-off `add_invoice_items`,
    // which only this invoice carries. It is paid at once when a usable payment method is known;
    // otherwise the subscription waits (incomplete) for the customer to pay its payment intent.
    const invoice = this.createSubscriptionInvoice(account, {
      subscriptionId,
      customerId,
      currency,
      metadata: mergeMetadata({}, body.metadata),
      items: itemObjects,
      extras,
      trial: trialDays !== undefined,
      billingReason: 'subscription_create',
      paymentMethod,
      charge: behavior !== 'default_incomplete',
      feePercent,
    });
    const paid = invoice.status === 'paid';
    const start = now();
    const subscription = this.put('subscription', account, {
      ...subscriptionFields(),
      id: subscriptionId,
      object: 'subscription',
      billing_cycle_anchor: start,
      application_fee_percent: feePercent ?? null,
      cancel_at_period_end: false,
      canceled_at: null,
      collection_method: str(body, 'collection_method') ?? 'charge_automatically',
      created: start,
      currency,
      customer: customerId,
      default_payment_method: paymentMethod,
      description: str(body, 'description') ?? null,
      items: { object: 'list', data: itemObjects, has_more: false, url: `/v1/subscription_items?subscription=${subscriptionId}` },
      latest_invoice: invoice.id,
      livemode: account.livemode,
      metadata: mergeMetadata({}, body.metadata),
      start_date: start,
      status: !paid ? 'incomplete' : trialDays !== undefined ? 'trialing' : 'active',
      trial_end: trialDays !== undefined ? start + trialDays * 86400 : null,
      trial_start: trialDays !== undefined ? start : null,
    });
    if (behavior === 'error_if_incomplete' && subscription.status === 'incomplete') {
      throw new FakeStripeError(402, { type: 'card_error', code: 'subscription_payment_intent_requires_action', message: 'Payment for this subscription requires additional user action before it can be completed successfully.' });
    }
    return this.expandSubscription(subscription, body);
  }

  /**
   * `add_invoice_items`: up to 20 one-off items (`price` of type one_time, or inline `price_data`
   * with `currency`, `product`, `unit_amount`) in the subscription's currency; each becomes an
   * invoice item on the first invoice only.
   */
  private addInvoiceItems(account: FakeAccount, body: FormObject, currency: string): Array<{ price: Json; quantity: number; metadata: Record<string, string> }> {
    const raw = body.add_invoice_items;
    if (raw === undefined || raw === '') return [];
    if (!Array.isArray(raw)) throw invalidParam('add_invoice_items', 'Invalid array');
    if (raw.length > 20) throw invalidParam('add_invoice_items', 'You may pass up to 20 add_invoice_items.');
    return raw.map((item, index) => {
      const param = `add_invoice_items[${index}]`;
      if (typeof item !== 'object' || Array.isArray(item)) throw invalidParam(param, 'Invalid hash');
      nestedParams(item, param, ['price', 'price_data', 'quantity', 'metadata', 'discountable', 'tax_rates']);
      const priceId = str(item, 'price');
      const priceData = obj(item, 'price_data');
      if (priceId && priceData) throw invalidParam(param, 'You may only specify one of these parameters: price, price_data.');
      let price: Json;
      if (priceId) {
        price = this.find('price', 'price', account, priceId, `${param}[price]`);
        if (price.type !== 'one_time') throw invalidParam(`${param}[price]`, 'The price specified is set to `type=recurring` but this field only accepts prices with `type=one_time`.');
      } else if (priceData) {
        nestedParams(priceData, `${param}[price_data]`, ['currency', 'product', 'unit_amount', 'tax_behavior']);
        const product = str(priceData, 'product');
        if (!product) throw missingParam(`${param}[price_data][product]`);
        this.find('product', 'product', account, product, `${param}[price_data][product]`);
        if (!str(priceData, 'currency')) throw missingParam(`${param}[price_data][currency]`);
        const unitAmount = int(priceData, 'unit_amount');
        if (unitAmount === undefined) throw missingParam(`${param}[price_data][unit_amount]`);
        // An inline price: a one-time price of the product that is not offered for reuse.
        price = this.put('price', account, {
          ...priceFields(),
          id: fakeId('price', 24),
          object: 'price',
          active: false,
          currency: this.currency(priceData),
          unit_amount: unitAmount,
          unit_amount_decimal: String(unitAmount),
          product,
          recurring: null,
          type: 'one_time',
          nickname: null,
          lookup_key: null,
          metadata: {},
          livemode: account.livemode,
          created: now(),
        });
      } else {
        throw new FakeStripeError(400, { type: 'invalid_request_error', code: 'parameter_missing', param, message: 'One of `price` or `price_data` is required.' });
      }
      if (price.currency !== currency) {
        throw invalidParam(`${param}[${priceId ? 'price' : 'price_data][currency'}]`, `The currency of add_invoice_items (${String(price.currency)}) must match the subscription's currency (${currency}).`);
      }
      return { price, quantity: int(item, 'quantity', false, 1) ?? 1, metadata: mergeMetadata({}, item.metadata) };
    });
  }

  /**
   * One invoice of a subscription with its lines (subscription items, then one-off invoice
   * items), totals and payment: the payment method's outcome decides whether it is paid; the
   * fee percent applies to the whole invoice total.
   */
  private createSubscriptionInvoice(
    account: FakeAccount,
    spec: {
      subscriptionId: string;
      customerId: string;
      currency: string;
      metadata: Record<string, string>;
      items: Array<{ id: string; price: Json; quantity: number; current_period_start: number; current_period_end: number }>;
      extras: Array<{ price: Json; quantity: number; metadata: Record<string, string> }>;
      trial: boolean;
      billingReason: 'subscription_create' | 'subscription_cycle';
      paymentMethod: string | null;
      /** false: the invoice is left open for the customer to pay (`payment_behavior: default_incomplete`) */
      charge: boolean;
      feePercent: number | undefined;
    },
  ): Json {
    const invoiceId = fakeId('in');
    const created = now();
    const line = (amount: number, quantity: number, price: Json, parent: Json, period: { start: number; end: number }, metadata: Record<string, string>) => ({
      ...invoiceLineFields(),
      id: fakeId('il'),
      object: 'line_item',
      amount,
      currency: spec.currency,
      description: null,
      discount_amounts: [],
      discountable: true,
      discounts: [],
      invoice: invoiceId,
      livemode: account.livemode,
      metadata,
      parent,
      period,
      pretax_credit_amounts: [],
      pricing: { type: 'price_details', price_details: { price: price.id, product: price.product }, unit_amount_decimal: String(price.unit_amount) },
      quantity,
      subscription: spec.subscriptionId,
      subtotal: amount,
      taxes: [],
    });
    const lines = [
      ...spec.items.map((item) =>
        line(
          spec.trial ? 0 : (item.price.unit_amount as number) * item.quantity,
          item.quantity,
          item.price,
          {
            type: 'subscription_item_details',
            invoice_item_details: null,
            subscription_item_details: { invoice_item: null, proration: false, proration_details: { credited_items: null }, subscription: spec.subscriptionId, subscription_item: item.id },
          },
          { start: item.current_period_start, end: item.current_period_end },
          {},
        ),
      ),
      ...spec.extras.map((extra) => {
        const amount = (extra.price.unit_amount as number) * extra.quantity;
        const invoiceItem = this.put('invoiceitem', account, {
          id: fakeId('ii'),
          object: 'invoiceitem',
          amount,
          currency: spec.currency,
          customer: spec.customerId,
          date: created,
          invoice: invoiceId,
          livemode: account.livemode,
          metadata: extra.metadata,
          parent: { type: 'subscription_details', subscription_details: { subscription: spec.subscriptionId } },
          period: { start: created, end: created },
          pricing: { type: 'price_details', price_details: { price: extra.price.id, product: extra.price.product }, unit_amount_decimal: String(extra.price.unit_amount) },
          quantity: extra.quantity,
        });
        return line(
          amount,
          extra.quantity,
          extra.price,
          {
            type: 'invoice_item_details',
            invoice_item_details: { invoice_item: invoiceItem.id, proration: false, proration_details: { credited_items: null }, subscription: spec.subscriptionId },
            subscription_item_details: null,
          },
          { start: created, end: created },
          extra.metadata,
        );
      }),
    ];
    const total = lines.reduce((sum, entry) => sum + entry.amount, 0);
    const outcome = spec.paymentMethod && spec.charge ? this.outcomeFor(spec.paymentMethod) : null;
    const paid = total === 0 || outcome === 'succeeded';
    // The fee percent is applied to the invoice's total and charged with its payment: the payment
    // intent carries it as `application_fee_amount` (the invoice itself has no fee field at the
    // pinned API version).
    const invoiceIntent = this.createPaymentIntent(account, {
      amount: String(Math.max(total, 1)),
      currency: spec.currency,
      customer: spec.customerId,
      ...(spec.paymentMethod ? { payment_method: spec.paymentMethod } : {}),
      ...(spec.feePercent !== undefined ? { application_fee_amount: String(Math.round((total * spec.feePercent) / 100)) } : {}),
      metadata: { subscription: spec.subscriptionId },
    });
    if (paid) this.setIntentStatus(invoiceIntent.id as string, 'succeeded');
    const periodStart = Math.min(...lines.map((entry) => entry.period.start));
    const periodEnd = Math.max(...lines.map((entry) => entry.period.end));
    const paidAt = paid ? created : null;
    // Current API shape: the invoice points at its subscription through `parent` and at its
    // payment intent through its invoice payments (`GET /v1/invoice_payments?invoice=…`, or
    // `expand[]=payments`) and `confirmation_secret` (no top-level payment_intent).
    this.put('invoice_payment', account, {
      id: fakeId('inpay'),
      object: 'invoice_payment',
      amount_paid: paid ? total : null,
      amount_requested: total,
      created,
      currency: spec.currency,
      invoice: invoiceId,
      is_default: true,
      livemode: account.livemode,
      payment: { type: 'payment_intent', payment_intent: invoiceIntent.id },
      status: paid ? 'paid' : 'open',
      status_transitions: { canceled_at: null, paid_at: paidAt },
    });
    const customer = this.objects.get(spec.customerId)?.data;
    return this.put('invoice', account, {
      ...invoiceFields(),
      id: invoiceId,
      object: 'invoice',
      amount_due: total,
      amount_paid: paid ? total : 0,
      amount_remaining: paid ? 0 : total,
      attempt_count: spec.charge ? 1 : 0,
      attempted: spec.charge,
      billing_reason: spec.billingReason,
      confirmation_secret: { client_secret: invoiceIntent.client_secret, type: 'payment_intent' },
      currency: spec.currency,
      customer: spec.customerId,
      customer_email: (customer?.email as string | null | undefined) ?? null,
      customer_name: (customer?.name as string | null | undefined) ?? null,
      default_payment_method: null,
      lines: { object: 'list', data: lines, has_more: false, url: `/v1/invoices/${invoiceId}/lines` },
      livemode: account.livemode,
      number: `${invoiceId.slice(3, 11).toUpperCase()}-0001`,
      parent: { type: 'subscription_details', quote_details: null, subscription_details: { subscription: spec.subscriptionId, metadata: spec.metadata } },
      period_end: periodEnd,
      period_start: periodStart,
      status: paid ? 'paid' : 'open',
      status_transitions: { finalized_at: created, marked_uncollectible_at: null, paid_at: paidAt, voided_at: null },
      subtotal: total,
      subtotal_excluding_tax: total,
      total,
      total_excluding_tax: total,
      created,
    });
  }

  /**
   * Test control: the subscription's next billing cycle, as the gateway runs it on its own. The
   * items' periods move on and a `subscription_cycle` invoice for the items only (no one-off
   * items) is charged to the default payment method; unpaid, the subscription becomes past_due.
   */
  renewSubscription(id: string): Json {
    const stored = this.objects.get(id);
    if (!stored || stored.kind !== 'subscription') throw new Error(`No subscription ${id}`);
    const subscription = stored.data;
    if (subscription.status === 'canceled') throw new Error(`Subscription ${id} is canceled`);
    const account = { id: stored.account, livemode: subscription.livemode as boolean };
    const items = (subscription.items as { data: Array<{ id: string; price: Json; quantity: number; current_period_start: number; current_period_end: number }> }).data;
    for (const item of items) {
      const length = item.current_period_end - item.current_period_start;
      item.current_period_start = item.current_period_end;
      item.current_period_end += length;
    }
    const invoice = this.createSubscriptionInvoice(account, {
      subscriptionId: id,
      customerId: subscription.customer as string,
      currency: subscription.currency as string,
      metadata: { ...(subscription.metadata as Record<string, string>) },
      items,
      extras: [],
      trial: false,
      billingReason: 'subscription_cycle',
      paymentMethod: (subscription.default_payment_method as string | null) ?? null,
      charge: true,
      feePercent: (subscription.application_fee_percent as number | null) ?? undefined,
    });
    subscription.latest_invoice = invoice.id;
    subscription.status = invoice.status === 'paid' ? 'active' : 'past_due';
    subscription.trial_end = null;
    // Unpaid: the gateway schedules its next attempt (`next_payment_attempt`, null when it makes none).
    if (invoice.status !== 'paid') invoice.next_payment_attempt = this.nextAttempt(1);
    return invoice;
  }

  /**
   * Test control: the account's retry settings for unpaid subscription invoices (the dashboard's
   * custom retry schedule: days after the previous attempt) and what the subscription becomes
   * once all retries fail (`canceled`, `unpaid`, or left `past_due`).
   */
  retrySchedule: number[] = [3, 5, 7];
  afterRetries: 'canceled' | 'unpaid' | 'past_due' = 'canceled';

  /** Unix seconds of the attempt after attempt `attempt` of an invoice, or null when the schedule has none. */
  private nextAttempt(attempt: number): number | null {
    const days = this.retrySchedule[attempt - 1];
    return days === undefined ? null : now() + days * 86400;
  }

  /**
   * Test control: the gateway's automatic retry of an open subscription invoice. `attempt_count`
   * grows; the subscription's default payment method is charged again. Paid: the invoice is paid
   * and the subscription active. Unpaid: `next_payment_attempt` moves on, and after the schedule's
   * last retry it is null and the subscription becomes `afterRetries`.
   */
  retryInvoice(id: string): { invoice: Json; subscription: Json } {
    const stored = this.objects.get(id);
    if (!stored || stored.kind !== 'invoice') throw new Error(`No invoice ${id}`);
    const invoice = stored.data;
    if (invoice.status !== 'open') throw new Error(`Invoice ${id} is ${invoice.status as string}`);
    const subscriptionId = ((invoice.parent as Json).subscription_details as Json).subscription as string;
    const subscription = this.objects.get(subscriptionId)!.data;
    const paymentMethod = (subscription.default_payment_method as string | null) ?? null;
    invoice.attempt_count = (invoice.attempt_count as number) + 1;
    invoice.attempted = true;
    const payment = [...this.objects.values()].find((entry) => entry.kind === 'invoice_payment' && entry.data.invoice === id)?.data;
    if (paymentMethod && this.outcomeFor(paymentMethod) === 'succeeded') {
      const paidAt = now();
      if (payment) {
        this.setIntentStatus((payment.payment as Json).payment_intent as string, 'succeeded');
        Object.assign(payment, { amount_paid: invoice.amount_due, status: 'paid', status_transitions: { canceled_at: null, paid_at: paidAt } });
      }
      Object.assign(invoice, { amount_paid: invoice.amount_due, amount_remaining: 0, status: 'paid', next_payment_attempt: null });
      (invoice.status_transitions as Json).paid_at = paidAt;
      subscription.status = 'active';
      return { invoice, subscription };
    }
    invoice.next_payment_attempt = this.nextAttempt(invoice.attempt_count as number);
    if (invoice.next_payment_attempt === null && this.afterRetries !== 'past_due') {
      subscription.status = this.afterRetries;
      if (this.afterRetries === 'canceled') {
        subscription.canceled_at = now();
        subscription.ended_at = now();
        subscription.cancellation_details = { comment: null, feedback: null, feedback_option: null, reason: 'payment_failed' };
      }
    }
    return { invoice, subscription };
  }

  private period(recurring: Json): { start: number; end: number } {
    const days = { day: 1, week: 7, month: 30, year: 365 }[recurring.interval as 'day'] * (recurring.interval_count as number);
    const start = now();
    return { start, end: start + days * 86400 };
  }

  /** `expand[]=latest_invoice` (and `latest_invoice.confirmation_secret`, already inline here). */
  private expandSubscription(subscription: Json, body: FormObject): Json {
    const expand = strList(body, 'expand') ?? [];
    if (!expand.some((path) => path.startsWith('latest_invoice'))) return subscription;
    return { ...subscription, latest_invoice: { ...this.objects.get(subscription.latest_invoice as string)!.data } };
  }

  retrieveSubscription(account: FakeAccount, id: string, query: FormObject): Json {
    return this.expandSubscription(this.find('subscription', 'subscription', account, id), query);
  }

  updateSubscription(account: FakeAccount, id: string, body: FormObject): Json {
    onlyParams(body, ['metadata', 'default_payment_method', 'cancel_at_period_end', 'application_fee_percent', 'description']);
    const subscription = this.find('subscription', 'subscription', account, id);
    subscription.metadata = mergeMetadata(subscription.metadata as Record<string, string>, body.metadata);
    if (body.default_payment_method !== undefined) subscription.default_payment_method = str(body, 'default_payment_method') ?? null;
    if (body.cancel_at_period_end !== undefined) {
      subscription.cancel_at_period_end = bool(body, 'cancel_at_period_end');
      // The gateway sets `cancel_at` to the end of the current period with it, and clears it when it is undone.
      const items = (subscription.items as { data: Array<{ current_period_end: number }> }).data;
      subscription.cancel_at = subscription.cancel_at_period_end ? Math.max(...items.map((item) => item.current_period_end)) : null;
    }
    if (body.application_fee_percent !== undefined) subscription.application_fee_percent = decimal(body, 'application_fee_percent') ?? null;
    if (body.description !== undefined) subscription.description = str(body, 'description') ?? null;
    return this.expandSubscription(subscription, body);
  }

  cancelSubscription(account: FakeAccount, id: string): Json {
    const subscription = this.find('subscription', 'subscription', account, id);
    if (subscription.status === 'canceled') {
      throw new FakeStripeError(400, { type: 'invalid_request_error', code: 'resource_missing', message: `No such subscription: '${id}'` });
    }
    subscription.status = 'canceled';
    subscription.canceled_at = now();
    return subscription;
  }

  /**
   * `POST /v1/invoices/{id}/pay`: attempts payment of an open invoice out of the collection
   * schedule, with `payment_method` (else the subscription's default), off session by default. A
   * succeeding method pays it (its invoice payment and payment intent too) and makes a past-due
   * subscription active again; a declined one counts an attempt and answers the card error. An
   * invoice that is not open cannot be paid.
   */
  payInvoice(account: FakeAccount, id: string, body: FormObject): Json {
    onlyParams(body, ['forgive', 'mandate', 'off_session', 'paid_out_of_band', 'payment_method', 'source']);
    const invoice = this.find('invoice', 'invoice', account, id);
    if (invoice.status !== 'open') throw new FakeStripeError(400, { type: 'invalid_request_error', code: 'invoice_not_open', message: `Invoice is already ${String(invoice.status)}.` });
    const subscriptionRef = ((invoice.parent as Json).subscription_details as Json).subscription as string;
    const subscription = this.objects.get(subscriptionRef)?.data;
    const paymentMethod = str(body, 'payment_method') ?? ((subscription?.default_payment_method as string | null | undefined) ?? null);
    if (!paymentMethod) throw new FakeStripeError(400, { type: 'invalid_request_error', code: 'invoice_no_payment_method_types', message: 'This invoice has no payment method to be paid with.' });
    invoice.attempt_count = (invoice.attempt_count as number) + 1;
    invoice.attempted = true;
    const payment = this.list('invoice_payment').find((entry) => entry.invoice === id);
    const intentId = payment ? ((payment.payment as Json).payment_intent as string) : null;
    if (this.outcomeFor(paymentMethod) !== 'succeeded') {
      throw new FakeStripeError(402, { type: 'card_error', code: 'card_declined', decline_code: 'generic_decline', message: 'Your card was declined.' });
    }
    if (intentId) {
      this.objects.get(intentId)!.data.payment_method = paymentMethod;
      this.setIntentStatus(intentId, 'succeeded');
    }
    const paidAt = now();
    if (payment) {
      payment.status = 'paid';
      payment.amount_paid = invoice.amount_due;
      payment.status_transitions = { ...(payment.status_transitions as Json), paid_at: paidAt };
    }
    invoice.status = 'paid';
    invoice.amount_paid = invoice.amount_due;
    invoice.amount_remaining = 0;
    invoice.status_transitions = { ...(invoice.status_transitions as Json), paid_at: paidAt };
    if (subscription && subscription.status === 'past_due' && subscription.latest_invoice === id) subscription.status = 'active';
    return invoice;
  }

  /** `expand[]=payments` includes the invoice's payments (`data.payment.payment_intent` expanded on request). */
  retrieveInvoice(account: FakeAccount, id: string, query: FormObject): Json {
    const invoice = this.find('invoice', 'invoice', account, id);
    const expand = strList(query, 'expand') ?? [];
    if (!expand.some((path) => path === 'payments' || path.startsWith('payments.'))) return invoice;
    const payments = this.listInvoicePayments(account, { invoice: id, expand: expand.filter((path) => path.startsWith('payments.')).map((path) => path.slice('payments.'.length)) });
    return { ...invoice, payments };
  }

  /** `GET /v1/invoice_payments`: filters `invoice` and `status`; `expand[]=data.payment.payment_intent`. */
  listInvoicePayments(account: FakeAccount, query: FormObject): Json {
    const invoice = str(query, 'invoice');
    const status = str(query, 'status');
    if (status !== undefined && !['open', 'paid', 'canceled'].includes(status)) throw invalidParam('status', `Invalid status: ${status}`);
    const list = this.listOf('invoice_payment', account, '/v1/invoice_payments', (p) => (invoice === undefined || p.invoice === invoice) && (status === undefined || p.status === status), int(query, 'limit') ?? 10);
    if (!(strList(query, 'expand') ?? []).includes('data.payment.payment_intent')) return list;
    const data = (list.data as Json[]).map((entry) => {
      const payment = entry.payment as Json;
      const intent = this.objects.get(payment.payment_intent as string)?.data;
      return { ...entry, payment: { ...payment, payment_intent: intent ? { ...intent } : payment.payment_intent } };
    });
    return { ...list, data };
  }

  // --- webhook endpoints --------------------------------------------------------------------------

  createWebhookEndpoint(account: FakeAccount, body: FormObject): Json {
    onlyParams(body, ['url', 'enabled_events', 'api_version', 'description', 'metadata', 'connect']);
    const url = str(body, 'url', true);
    if (!/^https?:\/\/[^\s]+$/.test(url)) throw invalidParam('url', `Invalid URL: ${url}`);
    const events = this.endpointEvents(body, true)!;
    const apiVersion = str(body, 'api_version');
    if (apiVersion !== undefined && !API_VERSION.test(apiVersion)) throw invalidParam('api_version', `Invalid api_version: ${apiVersion}`);
    const endpoint = this.put('webhook_endpoint', account, {
      id: fakeId('we'),
      object: 'webhook_endpoint',
      api_version: apiVersion ?? null,
      application: null,
      created: now(),
      description: str(body, 'description') ?? null,
      enabled_events: events,
      livemode: account.livemode,
      metadata: mergeMetadata({}, body.metadata),
      status: 'enabled',
      url,
    });
    // The signing secret lives beside the endpoint; only the create answer carries it.
    this.secrets.set(endpoint.id as string, `whsec_${randomBytes(24).toString('hex')}`);
    return { ...endpoint, secret: this.secrets.get(endpoint.id as string) };
  }

  /** Signing secret of an endpoint (what the gateway signs its events with). */
  readonly secrets = new Map<string, string>();

  private endpointEvents(body: FormObject, required: boolean): string[] | undefined {
    if (body.enabled_events === undefined) {
      if (required) throw new FakeStripeError(400, { type: 'invalid_request_error', code: 'parameter_missing', param: 'enabled_events', message: 'Missing required param: enabled_events.' });
      return undefined;
    }
    const events = strList(body, 'enabled_events') ?? [];
    if (events.length === 0) throw invalidParam('enabled_events', 'enabled_events must contain at least one event');
    for (const event of events) if (!ENDPOINT_EVENT.test(event)) throw invalidParam('enabled_events', `Invalid event: ${event}`);
    return [...new Set(events)];
  }

  retrieveWebhookEndpoint(account: FakeAccount, id: string): Json {
    return this.find('webhook_endpoint', 'webhook_endpoint', account, id);
  }

  /** The update operation takes no `api_version` and cannot rotate the secret: as on the real API. */
  updateWebhookEndpoint(account: FakeAccount, id: string, body: FormObject): Json {
    onlyParams(body, ['url', 'enabled_events', 'description', 'metadata', 'disabled']);
    const endpoint = this.find('webhook_endpoint', 'webhook_endpoint', account, id);
    const events = this.endpointEvents(body, false);
    if (events) endpoint.enabled_events = events;
    if (body.url !== undefined) endpoint.url = str(body, 'url', true);
    if (body.description !== undefined) endpoint.description = str(body, 'description') ?? null;
    if (body.disabled !== undefined) endpoint.status = bool(body, 'disabled') ? 'disabled' : 'enabled';
    endpoint.metadata = mergeMetadata(endpoint.metadata as Record<string, string>, body.metadata);
    return endpoint;
  }

  listWebhookEndpoints(account: FakeAccount, query: FormObject): Json {
    return this.listOf('webhook_endpoint', account, '/v1/webhook_endpoints', () => true, int(query, 'limit') ?? 10);
  }

  deleteWebhookEndpoint(account: FakeAccount, id: string): Json {
    this.find('webhook_endpoint', 'webhook_endpoint', account, id);
    this.objects.delete(id);
    this.secrets.delete(id);
    return { id, object: 'webhook_endpoint', deleted: true };
  }
}
