import type { components } from '../../../../../clients/typescript/index';
import type { WebhookEventQuery } from '../../../api/webhook-events';
import type { EventOutcome } from '../../../api/vocabulary';
import type { FilterValues } from '../../../components/list/list-params';

/** Pure logic of the provider events screen (no DOM, no React: unit-tested in events-model.spec.ts). */

export type WebhookEvent = components['schemas']['WebhookEventDto'];

/** The filters as the address holds them: the API's, except that the end date is inclusive (`received_to`). */
export const EVENT_FILTER_NAMES = ['gateway', 'mode', 'outcome', 'event_type', 'payment_id', 'received_from', 'received_to'] as const;
export type EventFilterName = (typeof EVENT_FILTER_NAMES)[number];

/** The catalog id of what each outcome means for the merchant (the service's own outcome words, explained). */
export const OUTCOME_MEANING: Record<EventOutcome, string> = {
  processed: 'events.outcome.meaning.processed',
  ignored: 'events.outcome.meaning.ignored',
  rejected: 'events.outcome.meaning.rejected',
  failed: 'events.outcome.meaning.failed',
  pending: 'events.outcome.meaning.pending',
};

/** The section B generic webhook is a provider of its own (not a gateway): its events have no mode. */
export const GENERIC_PROVIDER = 'generic' satisfies NonNullable<WebhookEventQuery['gateway']>;

const DATE = /^\d{4}-\d{2}-\d{2}$/;

/** `2026-01-31` → `2026-02-01` (calendar days in UTC, as the API reads a date); null for anything that is not a date. */
export function dayAfter(date: string): string | null {
  if (!DATE.test(date)) return null;
  const time = Date.parse(`${date}T00:00:00Z`);
  if (Number.isNaN(time)) return null;
  const next = new Date(time + 86_400_000).toISOString().slice(0, 10);
  // Date.parse rolls 2026-02-30 over to March: that was not a date.
  return new Date(time).toISOString().slice(0, 10) === date ? next : null;
}

/**
 * The API query of the address's filters and page: the inclusive end date becomes
 * `received_before`, the next day. Values are passed on as written: the API refuses a bad one with
 * a message naming it, which the screen shows at its field.
 */
export function eventQueryOf(values: FilterValues<EventFilterName>, page: number): WebhookEventQuery {
  const query: Record<string, string | number> = {};
  for (const [name, value] of Object.entries(values) as Array<[EventFilterName, string]>) {
    if (name === 'received_to') query.received_before = dayAfter(value) ?? value;
    else if (name === 'payment_id') query.payment_id = /^\d+$/.test(value) ? Number(value) : value;
    else query[name] = value;
  }
  if (page > 1) query.page = page;
  return query as WebhookEventQuery;
}

/** The API names `received_before`; on this screen that is the inclusive end date's field. */
export function filterFieldOfParam(param: string): EventFilterName | null {
  if (param === 'received_before') return 'received_to';
  return (EVENT_FILTER_NAMES as readonly string[]).includes(param) ? (param as EventFilterName) : null;
}
