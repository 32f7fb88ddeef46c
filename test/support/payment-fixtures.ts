import { gatewayBOption } from '../../src/modules/gateway-b/index.js';
import { gatewayAOption } from '../../src/modules/gateway-a/index.js';
import { FormsService, type PaymentForm, type PaymentFormSettings } from '../../src/modules/forms/index.js';
import { type CheckoutGateway, GatewayStateService, type GatewayMode } from '../../src/modules/gateways/index.js';
import { OptionsService } from '../../src/modules/settings/index.js';
import type { TestApp } from './test-app.js';

/**
 * Test fixtures for the public payment routes: a published form and a connected gateway, set
 * through the same services the gateway admin routes use.
 */
export function formSettings(overrides: Partial<PaymentFormSettings> = {}): PaymentFormSettings {
  return {
    plans: [
      { title: 'Payment', prices: [{ amount: 1000, currency: 'USD', frequency: 'one-time' }] },
      {
        title: 'Donation',
        prices: [
          { amount: 2500, currency: 'USD', frequency: 'one-time', custom_amount: { min: 100, max: 1_000_000 } },
          { amount: 999, currency: 'EUR', frequency: 'm_1' },
        ],
      },
      { title: 'Yen', prices: [{ amount: 500, currency: 'JPY', frequency: 'one-time' }] },
    ],
    payment_methods: { gateway_a: ['ccard', 'sepa'], gateway_b: ['standard_checkout'] },
    fields: [
      { name: 'email_address', type: 'email', label: 'Email', required: true },
      { name: 'first_name', type: 'text', label: 'First name', required: false },
      { name: 'last_name', type: 'text', label: 'Last name', required: false },
      { name: 'company', type: 'text', label: 'Company', required: false },
      { name: 'size', type: 'select', label: 'Size', required: false, options: ['S', 'M', 'L'] },
    ],
    submit_actions: ['message'],
    email: { email_to: 'owner@example.test', admin_subject: 'New payment', payer_subject: 'Thank you', from_name: 'Shop' },
    display: {},
    ...overrides,
  };
}

export async function createPaymentForm(t: TestApp, overrides: Partial<PaymentFormSettings> = {}, status: 'publish' | 'draft' = 'publish'): Promise<PaymentForm> {
  return t.app.get(FormsService).create({ title: 'Checkout test form', status, authorId: t.admin.id, settings: formSettings(overrides) });
}

/** Stores the credentials that make `gateway` connected in `mode`, selects the mode, enables `methods`. */
export async function connectGateway(t: TestApp, gateway: CheckoutGateway, mode: GatewayMode = 'test', methods?: string[]): Promise<void> {
  const options = t.app.get(OptionsService);
  const state = t.app.get(GatewayStateService);
  if (gateway === 'gateway_a') {
    await options.set(gatewayAOption.credential(mode, 'user_id'), `acct_${mode}_1`);
    await options.set(gatewayAOption.credential(mode, 'public_key'), `pk_${mode}_1`);
    await options.setSecret(gatewayAOption.credential(mode, 'secret_key'), `sk_${mode}_1234567890`);
  } else {
    await options.set(gatewayBOption.credential(mode, 'email'), 'merchant@example.test');
    await options.set(gatewayBOption.credential(mode, 'client_id'), `client-${mode}`);
    await options.setSecret(gatewayBOption.credential(mode, 'secret'), `secret-${mode}-1234567890`);
  }
  await state.setMode(gateway, mode);
  await state.setActiveMethods(gateway, methods ?? (gateway === 'gateway_a' ? ['ccard', 'sepa'] : ['standard_checkout']));
}

export async function disconnectGateway(t: TestApp, gateway: CheckoutGateway, mode: GatewayMode): Promise<void> {
  const names =
    gateway === 'gateway_a'
      ? [gatewayAOption.credential(mode, 'user_id'), gatewayAOption.credential(mode, 'public_key'), gatewayAOption.credential(mode, 'secret_key')]
      : [gatewayBOption.credential(mode, 'email'), gatewayBOption.credential(mode, 'client_id'), gatewayBOption.credential(mode, 'secret')];
  await t.app.get(OptionsService).delete(names);
}

export interface SyncAnswer {
  payment_id: number;
  payment_secret: string;
  checkout_token: string;
  checkout_token_expires_at: string;
  amount: number;
  currency: string;
  setup_amount: number | null;
  mode: GatewayMode;
  status: string;
}

/** The reference fields a public payment route takes, from a sync-details answer. */
export function referenceOf(answer: SyncAnswer, formId: number, gateway: CheckoutGateway = 'gateway_a', method = 'ccard') {
  return {
    payment_id: answer.payment_id,
    payment_secret: answer.payment_secret,
    checkout_token: answer.checkout_token,
    form_id: formId,
    payment_gateway: gateway,
    payment_method: method,
    amount: answer.amount,
    currency: answer.currency,
  };
}
