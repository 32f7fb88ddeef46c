import type { components } from '../../../clients/typescript/index';

/**
 * The API's closed word lists the console offers as choices, in one place. Each is checked
 * against the generated client's types both ways: a value the API does not know, or one it
 * added and the console does not list, fails the console's type check (`npm run build:console`).
 */
type Schemas = components['schemas'];

export type Mode = Schemas['AdminPaymentDto']['mode'];
export type PaymentStatus = Schemas['AdminPaymentDto']['status'];
export type EventOutcome = Schemas['WebhookEventDto']['outcome'];
/** A payer field of a payment (the columns the payments list shows and filters on) */
type PaymentColumn = keyof Schemas['AdminPaymentDto'];

/** Every member of the union `T`, in the order given: anything missing or unknown is a compile error. */
function everyOf<T extends string>() {
  return <const A extends readonly T[]>(values: A & ([Exclude<T, A[number]>] extends [never] ? unknown : { missing: Exclude<T, A[number]> })): A => values;
}

export const MODES = everyOf<Mode>()(['test', 'live']);

export const PAYMENT_STATUSES = everyOf<PaymentStatus>()(['pending', 'processing', 'completed', 'failed', 'canceled']);

export const EVENT_OUTCOMES = everyOf<EventOutcome>()(['processed', 'ignored', 'rejected', 'failed', 'pending']);

/**
 * The payer fields every form may have (the interface's names; `email_address` is required), which
 * are also a payment's own columns. No generated type lists exactly these: test/console/vocabulary.spec.ts
 * holds the list equal to the service's `CORE_FIELDS`.
 */
export const CORE_FIELDS = ['email_address', 'first_name', 'last_name'] as const satisfies readonly PaymentColumn[];
export type CoreField = (typeof CORE_FIELDS)[number];

/** What an endpoint may subscribe to: `*` (every type, present and future) and each event type the API sends. */
export type WebhookSubscription = NonNullable<Schemas['CreateWebhookEndpointDto']['events']>[number];
export type WebhookEventType = Exclude<WebhookSubscription, '*'>;

export const WEBHOOK_EVENT_TYPES = everyOf<WebhookEventType>()(['payment.completed', 'payment.failed', 'payment.refunded', 'payment.disputed', 'subscription.renewed', 'subscription.payment_failed', 'subscription.canceled']);
