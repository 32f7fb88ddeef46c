import type { components } from '../../../../clients/typescript/index';
import type { Translate } from '../../i18n/use-t';

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
  /** The site's default payer language */
  language: Settings['language'];
}

export function draftOf(settings: Settings): SettingsDraft {
  return { currency: settings.currency, payment_gateway: settings.payment_gateway, api_key: '', debug_mode: settings.debug_mode, language: settings.language };
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
  if (draft.language !== current.language) body.language = draft.language;
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

/** The general settings' fields (`POST /settings`), as the API names them in a refusal. */
export const SETTINGS_FIELD_NAMES = ['currency', 'payment_gateway', 'api_key', 'debug_mode', 'language'] as const;

export interface GatewayChoice {
  value: Settings['payment_gateway'];
  label: string;
  enabled: boolean;
}

/**
 * The default gateway's choices: the gateways of the catalog, by the names merchants know, in the
 * order of the gateway list. That list also holds bank debit under an id of its own (`gateway_c`,
 * a method of a catalog gateway): it is not offered, and shown only when an app already chose it.
 */
export function defaultGatewayChoices(
  list: readonly { gateway: Settings['payment_gateway']; enabled: boolean }[],
  labels: Readonly<Record<string, string>>,
  current: Settings['payment_gateway'],
  t: Translate,
): GatewayChoice[] {
  const choices: GatewayChoice[] = list.filter((entry) => labels[entry.gateway] !== undefined).map((entry) => ({ value: entry.gateway, label: labels[entry.gateway], enabled: entry.enabled }));
  if (!choices.some((choice) => choice.value === current)) choices.push({ value: current, label: labels[current] ?? t('settings.gateway.byApp'), enabled: true });
  return choices;
}
