/**
 * The capabilities the console checks (docs/security.md, "Roles"): the API decides every request;
 * the console only hides what the signed-in user's role may not do, from `GET /auth/session`.
 */
/** Every admin route of the API requires it; every console role holds it. */
export const CHECKOUT_SETTINGS = 'checkout_settings';
/** Settings, gateways, tags, quick setup, webhook endpoints. */
export const MANAGE_SETTINGS = 'manage_checkout_settings';
/** The team: users, roles, invitations, application passwords. */
export const MANAGE_USERS = 'manage_checkout_users';
/** Forms, templates, the builder. */
export const EDIT_FORMS = 'edit_checkout_forms';
/** The dashboard. */
export const VIEW_DASHBOARD = 'view_checkout_dashboard';
/** Payments, their export, provider events. */
export const READ_PAYMENTS = 'read_checkout_payments';
/** Refunding a payment (POST /administration/payments/{id}/refunds). */
export const REFUND_PAYMENTS = 'refund_checkout_payments';
/** Sending a payer's receipt again (POST /administration/payments/{id}/receipt). */
export const RESEND_RECEIPTS = 'resend_checkout_receipts';
/** Cancelling a payer's subscription (POST /administration/payments/{id}/subscription/cancel). */
export const CANCEL_SUBSCRIPTIONS = 'cancel_checkout_subscriptions';
/** The endpoints for outgoing events (the Webhooks screen): the capability their routes declare. */
export const MANAGE_WEBHOOKS = MANAGE_SETTINGS;

/** The console's sections, each with the capability its screens need, in the navigation's order. */
/** The console's sections; `label` is the message id of its name (i18n/en.json). */
export const SECTIONS: ReadonlyArray<{ to: string; label: string; capability: string; end?: boolean }> = [
  { to: '/', label: 'layout.nav.dashboard', capability: VIEW_DASHBOARD, end: true },
  { to: '/gateways', label: 'layout.nav.gateways', capability: MANAGE_SETTINGS },
  { to: '/forms', label: 'layout.nav.forms', capability: EDIT_FORMS },
  { to: '/payments', label: 'layout.nav.payments', capability: READ_PAYMENTS },
  { to: '/events', label: 'layout.nav.events', capability: READ_PAYMENTS },
  { to: '/webhooks', label: 'layout.nav.webhooks', capability: MANAGE_WEBHOOKS },
  { to: '/team', label: 'layout.nav.team', capability: MANAGE_USERS },
  { to: '/settings', label: 'layout.nav.settings', capability: MANAGE_SETTINGS },
];

/** The first section the user may open (where "home" takes someone without the dashboard), or null. */
export function firstSectionFor(can: (capability: string) => boolean): string | null {
  return SECTIONS.find((section) => can(section.capability))?.to ?? null;
}
