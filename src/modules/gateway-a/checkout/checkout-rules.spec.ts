import type { PaymentRecord } from '../../payments/index.js';
import { contractDifferences } from './gateway-a-checkout.service.js';
import { idempotencyKeys } from '../client/idempotency-keys.js';
import { intentOutcome, subscriptionOutcome } from './intent-outcome.js';
import { methodChoice, PAYMENT_ELEMENT_METHODS, paymentElementOptions } from './payment-method-types.js';
import { isRecurring, recurringInterval } from '../client/recurring-interval.js';

const payment = (overrides: Partial<PaymentRecord> = {}): PaymentRecord => ({
  id: 7,
  form_id: 3,
  parent_payment_id: null,
  gateway: 'gateway_a',
  payment_method: 'ccard',
  mode: 'test',
  status: 'pending',
  amount: 1999,
  currency: 'USD',
  application_fee_amount: null,
  amount_received: null,
  setup_amount: null,
  plan_index: 0,
  price_index: 0,
  frequency: 'one-time',
  email_address: 'payer@example.test',
  first_name: null,
  last_name: null,
  custom_fields: {},
  provider_payment_ref: 'pi_1',
  provider_customer_ref: 'cus_1',
  provider_subscription_ref: null,
  provider_capture_ref: null,
  subscription_status: null,
  subscription_cancel_at_period_end: false,
  subscription_cancels_at: null,
  failure_reason: null,
  amount_refunded: 0,
  refund_reserved: 0,
  dispute: null,
  provider_charge_ref: null,
  card_brand: null,
  card_last4: null,
  locale: null,
  created_at: '2026-01-01T00:00:00.000Z',
  updated_at: '2026-01-01T00:00:00.000Z',
  ...overrides,
});

describe('intentOutcome', () => {
  it.each([
    ['succeeded', 'completed', false],
    ['processing', 'processing', false],
    ['requires_capture', 'processing', false],
    ['canceled', 'canceled', false],
    ['requires_action', 'pending', true],
    ['requires_payment_method', 'pending', true],
    ['requires_confirmation', 'pending', true],
  ])('%s → %s (requires_action %s)', (status, target, requiresAction) => {
    expect(intentOutcome({ object: 'payment_intent', status })).toEqual({ status: target, requiresAction });
  });

  it.each([
    ['active', 'completed'],
    ['trialing', 'completed'],
    ['incomplete', 'processing'],
    ['past_due', 'processing'],
    ['incomplete_expired', 'canceled'],
    ['canceled', 'canceled'],
  ])('subscription %s → %s', (status, target) => {
    expect(subscriptionOutcome(status).status).toBe(target);
  });
});

describe('recurringInterval', () => {
  it.each([
    ['d_1', { interval: 'day', interval_count: 1 }],
    ['w_1', { interval: 'week', interval_count: 1 }],
    ['m_1', { interval: 'month', interval_count: 1 }],
    ['m_3', { interval: 'month', interval_count: 3 }],
    ['m_6', { interval: 'month', interval_count: 6 }],
    ['y_1', { interval: 'year', interval_count: 1 }],
    ['y_3', { interval: 'year', interval_count: 3 }],
  ])('%s → %j', (frequency, interval) => {
    expect(recurringInterval(frequency)).toEqual(interval);
    expect(isRecurring(frequency)).toBe(true);
  });

  it('has none for one-time prices', () => {
    expect(recurringInterval('one-time')).toBeNull();
    expect(isRecurring('one-time')).toBe(false);
  });
});

describe('methodChoice', () => {
  it('limits cards to the card type and Link, device wallets (card-backed) to the card type', () => {
    expect(methodChoice('ccard', 'USD', 'free')).toEqual({ allowed_payment_method_types: ['card', 'link'] });
    for (const method of ['device_wallet_1', 'device_wallet_2']) expect(methodChoice(method, 'USD', 'free')).toEqual({ allowed_payment_method_types: ['card'] });
  });

  it('leaves regional wallets to the merchant’s enabled methods, except the types of the other methods', () => {
    expect(methodChoice('regional_wallet_1', 'EUR', 'free')).toEqual({ automatic_payment_methods: { enabled: true }, excluded_payment_method_types: ['card', 'sepa_debit', 'us_bank_account'] });
  });

  // The gateway refuses to confirm an intent whose parameters differ from the element's; both come from one choice.
  it.each(PAYMENT_ELEMENT_METHODS)('mounts the payment element for %s with exactly the intent’s method parameters', (method) => {
    const choice = methodChoice(method, 'USD', 'free');
    const { elements } = paymentElementOptions(method);
    if (choice.allowed_payment_method_types) {
      expect(elements).toEqual({ paymentMethodTypes: choice.allowed_payment_method_types });
    } else {
      expect(choice.automatic_payment_methods).toEqual({ enabled: true });
      expect(elements).toEqual({ excludedPaymentMethodTypes: choice.excluded_payment_method_types });
    }
  });

  it('refuses bank debit on the free plan, naming payment_method', () => {
    expect(() => methodChoice('sepa', 'EUR', 'free')).toThrow(expect.objectContaining({ status: 400, data: { params: { payment_method: expect.stringContaining('Pro') } } }));
  });

  it('picks the bank rail by currency on Pro', () => {
    expect(methodChoice('sepa', 'eur', 'pro')).toEqual({ allowed_payment_method_types: ['sepa_debit'] });
    expect(methodChoice('sepa', 'USD', 'pro')).toMatchObject({
      allowed_payment_method_types: ['us_bank_account'],
      payment_method_options: { us_bank_account: { financial_connections: { permissions: ['payment_method'] } } },
    });
    expect(() => methodChoice('sepa', 'JPY', 'pro')).toThrow(expect.objectContaining({ status: 400 }));
  });
});

describe('contractDifferences', () => {
  const intent = (overrides: Record<string, unknown> = {}) =>
    ({ object: 'payment_intent', amount: 1999, currency: 'usd', customer: 'cus_1', metadata: { checkout_payment_id: '7' }, ...overrides }) as never;

  it('accepts an intent that matches the record', () => {
    expect(contractDifferences(intent(), payment())).toEqual([]);
  });

  it('names every field that differs', () => {
    expect(contractDifferences(intent({ amount: 1998, currency: 'eur', customer: null, metadata: {} }), payment())).toEqual(['amount', 'currency', 'metadata', 'customer']);
  });

  it('accepts a setup intent only for a subscription record', () => {
    const setup = (purpose: string) => ({ object: 'setup_intent', customer: 'cus_1', metadata: { checkout_payment_id: '7', checkout_purpose: purpose } }) as never;
    expect(contractDifferences(setup('subscription'), payment({ frequency: 'm_1' }))).toEqual([]);
    expect(contractDifferences(setup('saved_method'), payment({ frequency: 'm_1' }))).toEqual(['metadata']);
    // A one-time payment is paid by a PaymentIntent; a setup intent would complete it for nothing.
    expect(contractDifferences(setup('subscription'), payment())).toEqual(['metadata']);
    expect(contractDifferences(setup('saved_method'), payment())).toEqual(['metadata']);
  });
});

describe('idempotencyKeys', () => {
  const INSTALLATION = '0b8e7c2e-3f5a-4d61-9c2a-5b7f1e2d3c4a';
  const keys = idempotencyKeys(INSTALLATION);

  it('derives intent keys from the installation, the payment, amount and currency', () => {
    expect(keys.paymentIntent(7, 1999, 'USD', 'v')).toBe(`checkout-${INSTALLATION}-pi-7-1999-usd-v`);
    expect(keys.subscription(7)).toBe(`checkout-${INSTALLATION}-sub-7`);
    expect(keys.adminCharge(7)).toBe(`checkout-${INSTALLATION}-charge-7`);
  });

  it('never gives two installations on one gateway account the same key (their payment ids collide)', () => {
    const other = idempotencyKeys('5d1c9a7e-0b2f-4e3a-8c6d-1f2e3a4b5c6d');
    const derive = (k: typeof keys) => [
      k.paymentIntent(7, 1999, 'usd', 'v'),
      k.setupIntent(7, 'v'),
      k.subscription(7),
      k.adminCharge(7),
      k.retire('pi_1'),
      k.catalog('customer', ['acct_1', 'test', 'a@b.test'], {}),
      k.webhookEndpoint('test', 'attempt'),
      k.webhookUpgrade('1.5.3', 'we_1'),
    ];
    const mine = derive(keys);
    derive(other).forEach((key, index) => expect(key).not.toBe(mine[index]));
    expect(mine.every((key) => key.includes(INSTALLATION) || key.startsWith(`checkout-${INSTALLATION}`))).toBe(true);
  });

  it('gives catalog objects one key per identity and parameters, without payer data', () => {
    const key = keys.catalog('customer', ['acct_1', 'test', 'payer@example.test'], { email: 'payer@example.test' });
    expect(key).toBe(keys.catalog('customer', ['acct_1', 'test', 'payer@example.test'], { email: 'payer@example.test' }));
    expect(key).not.toContain('payer');
    expect(key).not.toBe(keys.catalog('customer', ['acct_1', 'live', 'payer@example.test'], { email: 'payer@example.test' }));
    expect(key.length).toBeLessThanOrEqual(255);
  });
});
