export { CheckoutModule } from './checkout.module.js';
export { GatewayASubscriptionsService, type EnsuredSubscription } from './gateway-a-subscriptions.service.js';
export { intentOutcome, subscriptionOutcome, type IntentOutcome } from './intent-outcome.js';
export { isRecurring, recurringInterval, type RecurringInterval } from './recurring-interval.js';
