import type { CreateWebhookEndpoint, UpdateWebhookEndpoint, WebhookDelivery, WebhookEndpoint } from '../../api/webhook-endpoints';
import { WEBHOOK_EVENT_TYPES, type WebhookEventType } from '../../api/vocabulary';
import type { Translate } from '../../i18n/use-t';

/** `*` in an endpoint's `events`: every type, present and future. */
export const ALL_EVENTS = '*';

/** What the merchant reads for each event type (`webhooks.eventType.<type>`). */
export function eventWords(type: WebhookEventType, t: Translate): string {
  return t(`webhooks.eventType.${type}`);
}

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
export function draftProblems(draft: EndpointDraft, t: Translate): Partial<Record<EndpointField, string>> {
  const problems: Partial<Record<EndpointField, string>> = {};
  if (!draft.url.trim()) problems.url = t('webhooks.form.urlMissing');
  if (!draft.allEvents && draft.types.length === 0) problems.events = t('webhooks.form.eventsMissing');
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
export function eventsText(events: readonly string[], t: Translate): string {
  if (events.includes(ALL_EVENTS)) return t('webhooks.events.all');
  return events.join(', ');
}

export type Tone = 'ok' | 'problem' | 'waiting' | 'none';

/** A delivery's outcome as the merchant reads it, and its tone (the badge's colour). */
export function deliveryOutcome(delivery: WebhookDelivery | null, t: Translate): { tone: Tone; text: string } {
  if (!delivery) return { tone: 'none', text: t('webhooks.delivery.none') };
  const answer =
    delivery.status_code === null ? (delivery.error ? t('webhooks.delivery.answer.none') : '') : t('webhooks.delivery.answer.http', { code: String(delivery.status_code) });
  if (delivery.status === 'succeeded') return { tone: 'ok', text: t('webhooks.delivery.delivered', { answer, has: answer ? 'yes' : 'no' }) };
  if (delivery.status === 'failed') return { tone: 'problem', text: t('webhooks.delivery.failed', { answer, has: answer ? 'yes' : 'no' }) };
  if (delivery.attempts === 0) return { tone: 'waiting', text: t('webhooks.delivery.waiting') };
  return { tone: 'waiting', text: t('webhooks.delivery.retrying', { attempts: delivery.attempts, answer, has: answer ? 'yes' : 'no' }) };
}

/** A duration in milliseconds as text ("340 ms", "2.4 s"; "2,4 s" in German): ICU number formats. */
export function durationText(ms: number | null, t: Translate): string {
  if (ms === null) return '—';
  return ms < 1000 ? t('webhooks.duration.ms', { ms }) : t('webhooks.duration.s', { seconds: ms / 1000 });
}

/**
 * The value of a `datetime-local` input (the viewer's own time zone) as the instant the API takes,
 * or why it is not one. A time still to come is refused: there is nothing to send yet.
 */
export function sinceInstant(local: string, t: Translate, now: Date = new Date()): { iso: string } | { error: string } {
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?$/.test(local.trim())) return { error: t('webhooks.replay.noTime') };
  const date = new Date(local.trim());
  if (Number.isNaN(date.getTime())) return { error: t('webhooks.replay.noTime') };
  if (date.getTime() > now.getTime()) return { error: t('webhooks.replay.future') };
  return { iso: date.toISOString() };
}

/** `datetime-local` text for an instant in the viewer's time zone (the replay field starts a day back). */
export function localInputValue(date: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
}
