import type { components } from '../../../../clients/typescript/index';

/** Pure logic of the settings screens (no DOM, no React: unit-tested in settings-model.spec.ts). */

export type Settings = components['schemas']['SettingsDto'];
export type SettingsUpdate = components['schemas']['UpdateSettingsDto'];
export type TaggingArea = components['schemas']['TaggingAreaDto'];
export type ApplyTags = components['schemas']['ApplyTagsDto'];

/** What the general settings form holds: the stored values, and an API key only when one is being typed. */
export interface SettingsDraft {
  currency: string;
  payment_gateway: Settings['payment_gateway'];
  /** Write-only: empty keeps the stored key */
  api_key: string;
  debug_mode: boolean;
}

export function draftOf(settings: Settings): SettingsDraft {
  return { currency: settings.currency, payment_gateway: settings.payment_gateway, api_key: '', debug_mode: settings.debug_mode };
}

/**
 * The body of `POST /settings` for a draft: only what differs from the stored settings (the
 * route keeps what is left out), the API key only when one was typed. `null` when nothing changed.
 */
export function settingsChanges(current: Settings, draft: SettingsDraft): SettingsUpdate | null {
  const body: SettingsUpdate = {};
  // The route's enum is the ISO 4217 list of the money rules the form offers; the route refuses anything else.
  if (draft.currency !== current.currency) body.currency = draft.currency as SettingsUpdate['currency'];
  if (draft.payment_gateway !== current.payment_gateway) body.payment_gateway = draft.payment_gateway;
  if (draft.api_key.trim() !== '') body.api_key = draft.api_key;
  if (draft.debug_mode !== current.debug_mode) body.debug_mode = draft.debug_mode;
  return Object.keys(body).length > 0 ? body : null;
}

/** The features of an area that are ticked, in the catalog's order (the order the API stores them in). */
export function tickedInCatalogOrder(area: Pick<TaggingArea, 'features'>, ticked: ReadonlySet<string>): string[] {
  return area.features.map((feature) => feature.tag).filter((tag) => ticked.has(tag));
}

/** The answer `POST /tagging/apply` takes for an area: names are sent only when given (the route stores "" for left-out ones). */
export function answerOf(area: Pick<TaggingArea, 'slug' | 'features'>, ticked: ReadonlySet<string>, person: { email_address: string; first_name: string; last_name: string }): ApplyTags {
  const answer: ApplyTags = { area_slug: area.slug, tags: tickedInCatalogOrder(area, ticked), email_address: person.email_address.trim() };
  if (person.first_name.trim()) answer.first_name = person.first_name.trim();
  if (person.last_name.trim()) answer.last_name = person.last_name.trim();
  return answer;
}
