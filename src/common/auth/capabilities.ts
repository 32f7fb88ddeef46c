import { CHECKOUT_ADMIN_CAP, CHECKOUT_CANCEL_SUBSCRIPTIONS_CAP, CHECKOUT_REFUND_CAP } from '../../config/index.js';

/**
 * The finer capabilities of the console's roles (docs/security.md, "Roles"). Every admin route
 * checks `checkout_settings` (the interface's admin capability, which every console role holds) and
 * also names one of these (or a short list of them, any of which suffices); a route that names none
 * does not boot (RouteInventory). Which role holds which is data: the `role_capabilities` table,
 * seeded by migration 1764117200000 (administrator, editor, support, viewer).
 */
export const Capability = {
  /** Settings, gateways and their mode, tags, quick setup, plugin, webhook endpoints, section B's gateway routes */
  manageSettings: 'manage_checkout_settings',
  /** The team: users, roles, invitations, application passwords of others */
  manageUsers: 'manage_checkout_users',
  /** Forms, templates, the builder, its preview and test email */
  editForms: 'edit_checkout_forms',
  /** The dashboard and its notifications */
  viewDashboard: 'view_checkout_dashboard',
  /** Payments, their export and the provider events */
  readPayments: 'read_checkout_payments',
  refundPayments: CHECKOUT_REFUND_CAP,
  cancelSubscriptions: CHECKOUT_CANCEL_SUBSCRIPTIONS_CAP,
  /** Sending a payer's receipt again (POST /administration/payments/{id}/receipt; held by administrators and support) */
  resendReceipts: 'resend_checkout_receipts',
} as const;

export type FinerCapability = (typeof Capability)[keyof typeof Capability];

/** Every finer capability, in a stable order. */
export const FINER_CAPABILITIES: readonly FinerCapability[] = Object.values(Capability);

/** The capability every admin route checks first (the interface's CHECKOUT_ADMIN_CAP). */
export const ADMIN_CAPABILITY = CHECKOUT_ADMIN_CAP;

export function isFinerCapability(value: string): value is FinerCapability {
  return (FINER_CAPABILITIES as readonly string[]).includes(value);
}
