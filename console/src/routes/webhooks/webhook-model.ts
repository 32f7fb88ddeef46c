import type { CreateWebhookEndpoint, UpdateWebhookEndpoint, WebhookDelivery, WebhookEndpoint } from '../../api/webhook-endpoints';
import { WEBHOOK_EVENT_TYPES, type WebhookEventType } from '../../api/vocabulary';

/** `*` in an endpoint's `events`: every type, present and future. */
export const ALL_EVENTS = '*';

/** What the merchant reads for each event type. */
export const EVENT_WORDS: Record<WebhookEventType, string> = {
  'payment.completed': 'A payment is completed',
  'payment.failed': 'A payment fails',
  'payment.refunded': 'A payment is refunded, in part or in full (one event per refund)',
  'payment.disputed': 'A payer disputes a payment (a chargeback is opened)',
  'subscription.renewed': 'A subscription renews (its next payment is made)',
  'subscription.payment_failed': "A subscription's renewal payment fails",
  'subscription.canceled': 'A subscription is canceled',
};

/** The endpoint form's fields, in the form's order (the API's names). */
export const ENDPOINT_FIELDS = ['url', 'events', 'description'] as const;
export type EndpointField = (typeof ENDPOINT_FIELDS)[number];

/** The endpoint form as typed: every event type, or the ones ticked. */
export interface EndpointDraft {
  url: string;
  allEvents: boolean;
  types: WebhookEventType[];
  description: string;
}

export function draftOf(endpoint?: WebhookEndpoint): EndpointDraft {
  if (!endpoint) return { url: '', allEvents: true, types: [], description: '' };
  const allEvents = endpoint.events.includes(ALL_EVENTS);
  return {
    url: endpoint.url,
    allEvents,
    types: allEvents ? [] : WEBHOOK_EVENT_TYPES.filter((type) => endpoint.events.includes(type)),
    description: endpoint.description ?? '',
  };
}

/** Ticks or unticks one event type, keeping the API's order. */
export function toggleType(draft: EndpointDraft, type: WebhookEventType, on: boolean): EndpointDraft {
  const chosen = new Set(draft.types);
  if (on) chosen.add(type);
  else chosen.delete(type);
  return { ...draft, types: WEBHOOK_EVENT_TYPES.filter((one) => chosen.has(one)) };
}

/** What the form can tell before asking the API (the API checks the URL itself: https, no internal address). */
export function draftProblems(draft: EndpointDraft): Partial<Record<EndpointField, string>> {
  const problems: Partial<Record<EndpointField, string>> = {};
  if (!draft.url.trim()) problems.url = 'Enter the URL of your endpoint.';
  if (!draft.allEvents && draft.types.length === 0) problems.events = 'Choose at least one event, or all events.';
  return problems;
}

function eventsOf(draft: EndpointDraft): CreateWebhookEndpoint['events'] & {} {
  return draft.allEvents ? [ALL_EVENTS] : [...draft.types];
}

export function createBody(draft: EndpointDraft): CreateWebhookEndpoint {
  const description = draft.description.trim();
  return { url: draft.url.trim(), events: eventsOf(draft), ...(description ? { description } : {}) };
}

/** The members that changed (PATCH changes only those), or null when nothing did. */
export function updateBody(endpoint: WebhookEndpoint, draft: EndpointDraft): UpdateWebhookEndpoint | null {
  const body: UpdateWebhookEndpoint = {};
  const url = draft.url.trim();
  if (url !== endpoint.url) body.url = url;
  const events = eventsOf(draft);
  // The same set in another order is no change.
  if ([...events].sort().join(',') !== [...endpoint.events].sort().join(',')) body.events = events;
  const description = draft.description.trim();
  if (description !== (endpoint.description ?? '')) body.description = description || null;
  return Object.keys(body).length > 0 ? body : null;
}

/** An endpoint's events in words: "All events" or the types it gets. */
export function eventsText(events: readonly string[]): string {
  if (events.includes(ALL_EVENTS)) return 'All events';
  return events.join(', ');
}

export type Tone = 'ok' | 'problem' | 'waiting' | 'none';

/** A delivery's outcome as the merchant reads it, and its tone (the badge's colour). */
export function deliveryOutcome(delivery: WebhookDelivery | null): { tone: Tone; text: string } {
  if (!delivery) return { tone: 'none', text: 'Nothing sent yet' };
  const answer = delivery.status_code === null ? (delivery.error ? 'no answer' : null) : `HTTP ${delivery.status_code}`;
  if (delivery.status === 'succeeded') return { tone: 'ok', text: `Delivered${answer ? ` (${answer})` : ''}` };
  if (delivery.status === 'failed') return { tone: 'problem', text: `Failed${answer ? ` (${answer})` : ''}` };
  if (delivery.attempts === 0) return { tone: 'waiting', text: 'Waiting to be sent' };
  return { tone: 'waiting', text: `Retrying after ${delivery.attempts === 1 ? '1 attempt' : `${delivery.attempts} attempts`}${answer ? ` (${answer})` : ''}` };
}

/** A duration in milliseconds as text ("340 ms", "2.4 s"). */
export function durationText(ms: number | null): string {
  if (ms === null) return '—';
  return ms < 1000 ? `${ms} ms` : `${(ms / 1000).toFixed(1)} s`;
}

/**
 * The value of a `datetime-local` input (the viewer's own time zone) as the instant the API takes,
 * or why it is not one. A time still to come is refused: there is nothing to send yet.
 */
export function sinceInstant(local: string, now: Date = new Date()): { iso: string } | { error: string } {
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?$/.test(local.trim())) return { error: 'Enter a date and a time.' };
  const date = new Date(local.trim());
  if (Number.isNaN(date.getTime())) return { error: 'Enter a date and a time.' };
  if (date.getTime() > now.getTime()) return { error: 'Choose a time in the past: there are no events after now yet.' };
  return { iso: date.toISOString() };
}

/** `datetime-local` text for an instant in the viewer's time zone (the replay field starts a day back). */
export function localInputValue(date: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
}
