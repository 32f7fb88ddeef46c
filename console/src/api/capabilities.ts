/** The capability every admin route of the API requires (the host platform's name). */
export const CHECKOUT_SETTINGS = 'checkout_settings';
/** Refunding a payment (POST /administration/payments/{id}/refunds). */
export const REFUND_PAYMENTS = 'refund_checkout_payments';
/** Cancelling a payer's subscription (POST /administration/payments/{id}/subscription/cancel). */
export const CANCEL_SUBSCRIPTIONS = 'cancel_checkout_subscriptions';
