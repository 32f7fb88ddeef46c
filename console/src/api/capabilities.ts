/** The capability every admin route of the API requires (the host platform's name). */
export const CHECKOUT_SETTINGS = 'checkout_settings';
/** Refunding a payment (POST /administration/payments/{id}/refunds). */
export const REFUND_PAYMENTS = 'refund_checkout_payments';
/** Cancelling a payer's subscription (POST /administration/payments/{id}/subscription/cancel). */
export const CANCEL_SUBSCRIPTIONS = 'cancel_checkout_subscriptions';
/**
 * The endpoints for outgoing events (the Webhooks screen): the capability their routes declare.
 * Today every admin route declares `checkout_settings`; issue 34 names `manage_checkout_settings`,
 * which this becomes when the routes declare it (the one place the screen reads it from).
 */
export const MANAGE_WEBHOOKS = CHECKOUT_SETTINGS;
