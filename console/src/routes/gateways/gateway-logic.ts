import type { components } from '../../../../clients/typescript/index';
import { MODES } from '../../api/vocabulary';

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

export function modeName(mode: Mode): string {
  return mode === 'live' ? 'Live mode' : 'Test mode';
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

/** Why a connect stored nothing, by the code the service sends back (`?<gateway id>_error=<code>`). */
const REFUSALS: Record<string, string> = {
  missing_state: 'the connect link was incomplete. Start again from this screen.',
  invalid_state: 'the connect link was not one this site issued. Start again from this screen.',
  expired_state: 'the connect link expired (it is valid for 10 minutes). Start again from this screen.',
  reused_state: 'that connect link was already used. Start again from this screen.',
  access_denied: 'the connection was declined on the gateway’s page.',
  missing_code: 'the gateway’s page sent no authorisation back.',
  exchange_refused: 'the gateway refused the authorisation.',
  exchange_failed: 'the gateway could not be reached to finish the connection. Try again.',
  invalid_credentials: 'the gateway sent back credentials that are not valid.',
  mode_mismatch: 'the account connected is not in the mode you asked for (test or live).',
};

/** True when the address carries the outcome of a connect round trip (`…_connected` or `…_error`). */
export function isConnectReturn(params: URLSearchParams): boolean {
  return [...params.keys()].some((name) => /^[a-z0-9_]+_(connected|error)$/.test(name));
}

/**
 * The outcome of an OAuth connect round trip: the service sends the browser back to the console
 * with `?<gateway id>_connected=<mode>&<gateway id>_webhook=<status>` or `?<gateway id>_error=<code>`.
 * Returns the notices to show and the parameters to remove from the address afterwards.
 */
export function connectOutcomes(params: URLSearchParams, gateways: readonly CatalogGateway[]): { outcomes: ConnectOutcome[]; consumed: string[] } {
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
      outcomes.push({ tone: 'error', message: `${gateway.label} was not connected: ${REFUSALS[error] ?? `the connection failed (${error}).`}` });
    } else if (connected !== null) {
      const mode = MODES.find((candidate) => candidate === connected);
      if (!mode) continue;
      const modeText = mode === 'live' ? 'live mode' : 'test mode';
      if (webhook === 'verified') {
        outcomes.push({ tone: 'success', message: `${gateway.label} is connected in ${modeText}. Its webhook endpoint is verified: checkout in ${modeText} is open.` });
      } else {
        outcomes.push({
          tone: 'warning',
          message: `${gateway.label} is connected in ${modeText}, but its webhook endpoint is not verified${webhook ? ` (${webhook})` : ''}: checkout in ${modeText} stays paused. Connect again, or configure the webhook yourself below.`,
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
export function modeState(facts: ModeFacts): ModeState {
  const keys = facts.test_keys === true ? ' (test keys)' : facts.test_keys === false ? ' (live keys)' : '';
  const connection = facts.is_connected === 1 ? `Connected${keys}` : 'Not connected';
  const contract = facts.webhook_contract;
  if (!contract) {
    return {
      connection,
      webhook: facts.webhook_configured ? 'Webhook settings saved' : 'No webhook settings saved',
      webhookTone: facts.webhook_configured ? 'ok' : 'neutral',
      lastError: null,
      verifiedAt: null,
    };
  }
  // A mode never connected nor configured by hand has nothing to verify yet: not an alarm.
  if (facts.is_connected !== 1 && contract.state === 'paused' && contract.status === 'unconfigured' && !contract.last_error) {
    return { connection, webhook: 'Not set up yet', webhookTone: 'neutral', lastError: null, verifiedAt: null };
  }
  const webhook =
    contract.state === 'verified'
      ? 'Verified'
      : contract.state === 'manual'
        ? 'Configured manually'
        : `Not verified (${contract.status}): checkout is paused in this mode`;
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
export function liveReadiness(gatewayId: string, live: ModeFacts | undefined): { ready: boolean; gaps: LiveGap[] } {
  const target = `${gatewayId}-live-title`;
  const gaps: LiveGap[] = [];
  if (!live || live.is_connected !== 1) gaps.push({ text: 'Connect live mode', target });
  else if (live.test_keys === true) gaps.push({ text: 'Live mode holds test keys: connect it with your live account', target });
  const contract = live?.webhook_contract;
  if (contract) {
    if (contract.state === 'paused') gaps.push({ text: `Verify the live webhook${live?.is_connected === 1 ? ` (now: ${contract.status})` : ''}`, target });
  } else if (!live?.webhook_configured) {
    gaps.push({ text: 'Save the live webhook settings', target });
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
export function saveSummary(result: SaveResult, fieldLabels: Record<string, string>): SaveSummary {
  const labelOf = (name: string) => fieldLabels[name] ?? name;
  switch (result.kind) {
    case 'own_keys': {
      const { answer } = result;
      const facts: Array<[string, string]> = [['Account', answer.account_id], ['Webhook', answer.webhook.status]];
      if (answer.webhook.last_error) facts.push(['Webhook error', answer.webhook.last_error]);
      return { headline: `Connected in ${answer.mode} mode.`, facts, notes: answer.notes };
    }
    case 'credentials': {
      const { answer } = result;
      const facts: Array<[string, string]> = [];
      for (const name of ['email', 'client_id', 'secret'] as const) if (answer[name] !== null) facts.push([labelOf(name), answer[name] as string]);
      return { headline: `Saved for ${answer.mode} mode${answer.is_connected === 1 ? '' : ' (not complete yet)'}.`, facts, notes: [] };
    }
    case 'webhook_settings': {
      const { answer } = result;
      const facts: Array<[string, string]> = [];
      if (answer.signing_secret) facts.push([labelOf('signing_secret'), answer.signing_secret]);
      if (answer.webhook_id) facts.push([labelOf('webhook_id'), answer.webhook_id]);
      if (answer.status) facts.push(['Webhook', answer.status]);
      if (answer.last_error) facts.push(['Webhook error', answer.last_error]);
      const notes = answer.checkout_paused ? [`Checkout stays paused in ${answer.mode} mode until the webhook is verified or its manual configuration is complete.`] : [];
      return { headline: `Webhook settings saved for ${answer.mode} mode.`, facts, notes };
    }
  }
}
