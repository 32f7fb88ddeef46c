import type { components } from '../../../../clients/typescript/index';
import { MODES } from '../../api/vocabulary';
import type { Translate } from '../../i18n/use-t';

/**
 * The gateways screen's pure logic: what it reads from the catalog and the dashboard, and what it
 * sends. Nothing here names a gateway: ids, labels, methods, connect kinds and their fields all come
 * from `GET /payment-gateway/catalog`.
 */
export type Catalog = components['schemas']['GatewayCatalogDto'];
export type CatalogGateway = components['schemas']['GatewayCatalogEntryDto'];
export type CatalogMethod = components['schemas']['GatewayCatalogMethodDto'];
export type ConnectKind = components['schemas']['GatewayConnectKindDto'];
export type SettingField = components['schemas']['GatewaySettingFieldDto'];
export type ModeFacts = components['schemas']['DashboardGatewayModeDto'];
export type Mode = CatalogGateway['mode'];
export type Plan = Catalog['plan'];

/** "Live mode", "Test mode": a mode's name as a heading says it. */
export function modeName(mode: Mode, t: Translate): string {
  return t('gateways.mode.name', { mode });
}

/** "live mode", "test mode": a mode's name inside a sentence (German keeps its capitals: "Live-Modus"). */
export function modeText(mode: Mode, t: Translate): string {
  return t('gateways.mode.inline', { mode });
}

export function otherMode(mode: Mode): Mode {
  return mode === 'live' ? 'test' : 'live';
}

/** The gateway's connect kind `kind`, when it offers it. */
export function connectKind(gateway: CatalogGateway, kind: ConnectKind['kind']): ConnectKind | undefined {
  return gateway.connect.find((entry) => entry.kind === kind);
}

// --- the OAuth round trip's return -----------------------------------------------------------------

export interface ConnectOutcome {
  tone: 'success' | 'warning' | 'error';
  message: string;
}

/** Why a connect stored nothing, by the code the service sends back (`?<gateway id>_error=<code>`): `gateways.connect.refusal.<code>`. */
const REFUSALS = [
  'missing_state',
  'invalid_state',
  'expired_state',
  'reused_state',
  'access_denied',
  'missing_code',
  'exchange_refused',
  'exchange_failed',
  'invalid_credentials',
  'mode_mismatch',
];

/** True when the address carries the outcome of a connect round trip (`…_connected` or `…_error`). */
export function isConnectReturn(params: URLSearchParams): boolean {
  return [...params.keys()].some((name) => /^[a-z0-9_]+_(connected|error)$/.test(name));
}

/**
 * The outcome of an OAuth connect round trip: the service sends the browser back to the console
 * with `?<gateway id>_connected=<mode>&<gateway id>_webhook=<status>` or `?<gateway id>_error=<code>`.
 * Returns the notices to show and the parameters to remove from the address afterwards.
 */
export function connectOutcomes(params: URLSearchParams, gateways: readonly CatalogGateway[], t: Translate): { outcomes: ConnectOutcome[]; consumed: string[] } {
  const outcomes: ConnectOutcome[] = [];
  const consumed: string[] = [];
  for (const gateway of gateways) {
    if (!connectKind(gateway, 'oauth')) continue;
    const names = { connected: `${gateway.id}_connected`, webhook: `${gateway.id}_webhook`, error: `${gateway.id}_error` };
    const connected = params.get(names.connected);
    const webhook = params.get(names.webhook);
    const error = params.get(names.error);
    for (const name of Object.values(names)) if (params.has(name)) consumed.push(name);
    if (error !== null) {
      const why = REFUSALS.includes(error) ? t(`gateways.connect.refusal.${error}`) : t('gateways.connect.refusal.other', { code: error });
      outcomes.push({ tone: 'error', message: t('gateways.connect.refused', { gateway: gateway.label, why }) });
    } else if (connected !== null) {
      const mode = MODES.find((candidate) => candidate === connected);
      if (!mode) continue;
      if (webhook === 'verified') {
        outcomes.push({ tone: 'success', message: t('gateways.connect.verified', { gateway: gateway.label, mode }) });
      } else {
        outcomes.push({
          tone: 'warning',
          message: t('gateways.connect.unverified', { gateway: gateway.label, mode, status: webhook ? ` (${webhook})` : '' }),
        });
      }
    }
  }
  return { outcomes, consumed };
}

// --- state per mode --------------------------------------------------------------------------------

export interface ModeState {
  connection: string;
  webhook: string;
  /** `ok`: checkout can take payments in the mode as far as the webhook goes; `problem`: it cannot */
  webhookTone: 'ok' | 'problem' | 'neutral';
  lastError: string | null;
  verifiedAt: string | null;
}

/** What the dashboard says about one mode of a gateway, in words (never colour alone). */
export function modeState(facts: ModeFacts, t: Translate): ModeState {
  const keys = facts.test_keys === true ? 'test' : facts.test_keys === false ? 'live' : 'unknown';
  const connection = facts.is_connected === 1 ? t('gateways.state.connected', { keys }) : t('gateways.state.notConnected');
  const contract = facts.webhook_contract;
  if (!contract) {
    return {
      connection,
      webhook: t(facts.webhook_configured ? 'gateways.state.webhookSaved' : 'gateways.state.webhookNotSaved'),
      webhookTone: facts.webhook_configured ? 'ok' : 'neutral',
      lastError: null,
      verifiedAt: null,
    };
  }
  // A mode never connected nor configured by hand has nothing to verify yet: not an alarm.
  if (facts.is_connected !== 1 && contract.state === 'paused' && contract.status === 'unconfigured' && !contract.last_error) {
    return { connection, webhook: t('gateways.state.notSetUp'), webhookTone: 'neutral', lastError: null, verifiedAt: null };
  }
  const webhook =
    contract.state === 'verified'
      ? t('gateways.state.verified')
      : contract.state === 'manual'
        ? t('gateways.state.manual')
        : t('gateways.state.unverified', { status: contract.status });
  return { connection, webhook, webhookTone: contract.state === 'paused' ? 'problem' : 'ok', lastError: contract.last_error, verifiedAt: contract.verified_at };
}

// --- the live switch ---------------------------------------------------------------------------------

export interface LiveGap {
  /** What is missing, in words */
  text: string;
  /** The id of the heading of the section that fixes it (the live mode's panel) */
  target: string;
}

/**
 * Whether a gateway may be switched to live mode from the console: live mode connected (with live
 * keys, when the gateway can tell) and its webhook verified — the contract `verified` or completed
 * by hand (`manual`), or, for a gateway without a contract, its webhook settings saved. Anything
 * less would leave payers in front of a paused or broken checkout. Each gap names the section of
 * the screen that fixes it (the live mode's panel: connect, webhook settings).
 */
export function liveReadiness(gatewayId: string, live: ModeFacts | undefined, t: Translate): { ready: boolean; gaps: LiveGap[] } {
  const target = `${gatewayId}-live-title`;
  const gaps: LiveGap[] = [];
  if (!live || live.is_connected !== 1) gaps.push({ text: t('gateways.gap.connect'), target });
  else if (live.test_keys === true) gaps.push({ text: t('gateways.gap.testKeys'), target });
  const contract = live?.webhook_contract;
  if (contract) {
    if (contract.state === 'paused') {
      gaps.push({ text: live?.is_connected === 1 ? t('gateways.gap.verifyNow', { status: contract.status }) : t('gateways.gap.verify'), target });
    }
  } else if (!live?.webhook_configured) {
    gaps.push({ text: t('gateways.gap.saveWebhook'), target });
  }
  return { ready: gaps.length === 0, gaps };
}

// --- forms drawn from the catalog's fields ---------------------------------------------------------

export type FieldValues = Record<string, string | boolean>;

/**
 * A submitted form's values for `fields`: trimmed text, and booleans from checkboxes. An optional
 * field left empty (or an optional checkbox left unticked) is left out, so the route keeps what it
 * has: a console that does not know the stored value must not send `false` for it (a manual webhook
 * configuration would stop counting as complete).
 */
export function valuesOf(fields: readonly SettingField[], form: { get(name: string): unknown }): FieldValues {
  const values: FieldValues = {};
  for (const field of fields) {
    const raw = form.get(field.name);
    if (field.type === 'boolean') {
      const checked = raw === 'on' || raw === 'true';
      if (checked || field.required) values[field.name] = checked;
      continue;
    }
    const text = typeof raw === 'string' ? raw.trim() : '';
    if (text !== '' || field.required) values[field.name] = text;
  }
  return values;
}

/**
 * The API's per-field messages (`data.params`) split into those a form shows next to its own
 * fields and the rest (shown in the error summary).
 */
export function splitFieldErrors(params: Record<string, string>, fieldNames: readonly string[]): { byField: Record<string, string>; other: Record<string, string> } {
  const byField: Record<string, string> = {};
  const other: Record<string, string> = {};
  for (const [name, message] of Object.entries(params)) {
    if (fieldNames.includes(name)) byField[name] = message;
    else other[name] = message;
  }
  return { byField, other };
}

/** The first of `fieldNames` (in form order) that has an error, or null. */
export function firstInvalid(fieldNames: readonly string[], byField: Record<string, string>): string | null {
  return fieldNames.find((name) => name in byField) ?? null;
}

// --- payment methods -------------------------------------------------------------------------------

/** A Pro-only method cannot be switched on on the free plan; one already on can still be switched off. */
export function methodLocked(method: Pick<CatalogMethod, 'pro_only'>, plan: Plan, checked: boolean): boolean {
  return method.pro_only && plan !== 'pro' && !checked;
}

/** The active list after switching `id` on or off, in the catalog's method order. */
export function toggleMethod<Id extends string>(methods: readonly { id: Id }[], active: readonly string[], id: string, on: boolean): Id[] {
  const next = new Set(active);
  if (on) next.add(id);
  else next.delete(id);
  return methods.map((method) => method.id).filter((candidate) => next.has(candidate));
}

/** Host names typed one per line (or separated by commas or spaces), trimmed, lower-cased, once each. */
export function parseDomains(text: string): string[] {
  const domains: string[] = [];
  for (const part of text.split(/[\s,]+/)) {
    const domain = part.trim().toLowerCase();
    if (domain && !domains.includes(domain)) domains.push(domain);
  }
  return domains;
}

// --- what a save answered ----------------------------------------------------------------------------

type ConnectKeysResult = components['schemas']['ConnectKeysResultDto'];
type CredentialSettings = components['schemas']['CredentialSettingsDto'];
type WebhookSettings = components['schemas']['WebhookSettingsDto'];
export type SaveResult =
  | { kind: 'own_keys'; answer: ConnectKeysResult }
  | { kind: 'credentials'; answer: CredentialSettings }
  | { kind: 'webhook_settings'; answer: WebhookSettings };

export interface SaveSummary {
  headline: string;
  facts: Array<[string, string]>;
  notes: string[];
}

/**
 * A save's answer as the console shows it. Secrets appear only as the masks the API answers
 * (the console never echoes what was typed).
 */
export function saveSummary(result: SaveResult, fieldLabels: Record<string, string>, t: Translate): SaveSummary {
  const labelOf = (name: string) => fieldLabels[name] ?? name;
  switch (result.kind) {
    case 'own_keys': {
      const { answer } = result;
      const facts: Array<[string, string]> = [[t('gateways.save.account'), answer.account_id], [t('gateways.save.webhook'), answer.webhook.status]];
      if (answer.webhook.last_error) facts.push([t('gateways.save.webhookError'), answer.webhook.last_error]);
      return { headline: t('gateways.save.connected', { mode: answer.mode }), facts, notes: answer.notes };
    }
    case 'credentials': {
      const { answer } = result;
      const facts: Array<[string, string]> = [];
      for (const name of ['email', 'client_id', 'secret'] as const) if (answer[name] !== null) facts.push([labelOf(name), answer[name] as string]);
      return { headline: t('gateways.save.credentials', { mode: answer.mode, complete: answer.is_connected === 1 ? 'yes' : 'no' }), facts, notes: [] };
    }
    case 'webhook_settings': {
      const { answer } = result;
      const facts: Array<[string, string]> = [];
      if (answer.signing_secret) facts.push([labelOf('signing_secret'), answer.signing_secret]);
      if (answer.webhook_id) facts.push([labelOf('webhook_id'), answer.webhook_id]);
      if (answer.status) facts.push([t('gateways.save.webhook'), answer.status]);
      if (answer.last_error) facts.push([t('gateways.save.webhookError'), answer.last_error]);
      const notes = answer.checkout_paused ? [t('gateways.save.paused', { mode: answer.mode })] : [];
      return { headline: t('gateways.save.webhookSaved', { mode: answer.mode }), facts, notes };
    }
  }
}
