/**
 * The events merchants can subscribe to, as their moves exist today. A new kind (refunds,
 * disputes) is added here and announced where its move is written (`PaymentEvents.announce`).
 */
export const OUTGOING_EVENT_TYPES = ['payment.completed', 'payment.failed', 'payment.refunded', 'payment.disputed', 'subscription.renewed', 'subscription.payment_failed', 'subscription.canceled'] as const;
/** An endpoint's `events`: `*` is every type, present and future. */
export const ALL_EVENTS = '*';
export const EVENT_SUBSCRIPTIONS: readonly string[] = [ALL_EVENTS, ...OUTGOING_EVENT_TYPES];
