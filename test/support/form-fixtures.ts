import type { PaymentFormSettings } from '../../src/modules/forms/index.js';
import type { TestApp, TestUser } from './test-app.js';

/** Settings that pass every rule of the form write routes. */
export function validSettings(overrides: Partial<PaymentFormSettings> = {}): PaymentFormSettings {
  return {
    plans: [
      { title: 'Standard', prices: [{ amount: 1500, currency: 'USD', frequency: 'one-time' }] },
      { title: 'Monthly', prices: [{ amount: 999, currency: 'EUR', frequency: 'm_1', setup_amount: 500 }] },
      { title: 'Custom', prices: [{ amount: 2500, currency: 'USD', frequency: 'one-time', custom_amount: { min: 100, max: 100000 } }] },
    ],
    payment_methods: { gateway_a: ['ccard', 'sepa'], gateway_b: ['standard_checkout'] },
    fields: [
      { name: 'email_address', type: 'email', label: 'Email', required: true },
      { name: 'first_name', type: 'text', label: 'First name', required: true },
      { name: 'last_name', type: 'text', label: 'Last name', required: false },
      { name: 'size', type: 'select', label: 'Size', required: false, options: ['S', 'M', 'L'] },
    ],
    submit_actions: ['email', 'message'],
    email: { email_to: 'owner@example.test', admin_subject: 'New payment {amount}', payer_subject: 'Thanks, {payer_name}', from_name: 'Shop' },
    display: { button_label: 'Pay', primary_color: '#112233', layout: 'stacked', show_title: true },
    success_message: 'Thank you!',
    ...overrides,
  };
}

/**
 * Adds a role to the host slice with the given capabilities (the defaults have no role between
 * "administrator" and "editor without checkout_settings"), and answers a new user of it.
 */
export async function createUserWithCapabilities(t: TestApp, role: string, capabilities: string[]): Promise<TestUser> {
  const prefix = t.config.tablePrefix;
  const existing: unknown[] = await t.dataSource.query(`SELECT name FROM ${prefix}roles WHERE name = ?`, [role]);
  if (existing.length === 0) {
    await t.dataSource.query(`INSERT INTO ${prefix}roles (name, display_name) VALUES (?, ?)`, [role, role]);
    for (const capability of capabilities) {
      await t.dataSource.query(`INSERT INTO ${prefix}role_capabilities (role, capability) VALUES (?, ?)`, [role, capability]);
    }
  }
  return t.createUser(role);
}

/** A user who may use the admin routes and write their own forms, but not others' forms. */
export function createFormManager(t: TestApp): Promise<TestUser> {
  return createUserWithCapabilities(t, 'form_manager', ['checkout_settings', 'edit_checkout_forms']);
}
