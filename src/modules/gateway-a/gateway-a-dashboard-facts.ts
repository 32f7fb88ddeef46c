import { GATEWAY_MODES, type GatewayDashboardFacts, type GatewayMode, type GatewayModeFacts, type GatewayNotice, type GatewayUpgradeFacts } from '../gateways/index.js';
import { GATEWAY_A_SLICE } from './gateway-a.slice.js';
import type { WebhookContractView } from './webhook/gateway-a-contract.service.js';
import { WEBHOOK_UPGRADE_RELEASE, type WebhookUpgradeProgress } from './webhook/webhook-upgrade.task.js';

/** How the dashboard's notices name the gateway: as merchants know it (the slice's display name). */
const NAME = GATEWAY_A_SLICE.catalog.label;

/** What kind of keys a mode holds: both `_live_`, both `_test_`, anything else, or nothing stored. */
export type GatewayAKeyKind = 'live' | 'test' | 'mixed' | 'none';

export interface GatewayAModeInput {
  connected: boolean;
  /** The stored publishable and secret keys (the secret only to read its prefix; never passed on). */
  publicKey: string | null;
  secretKey: string | null;
  contract: WebhookContractView;
}

export interface GatewayADashboardInput {
  currentMode: GatewayMode;
  modes: Record<GatewayMode, GatewayAModeInput>;
  upgrade: WebhookUpgradeProgress | null;
}

/** Whether a stored key of the mode is a test key (`pk_test_`, `sk_test_`). */
function holdsTestKey(publicKey: string | null, secretKey: string | null): boolean {
  return Boolean(publicKey?.startsWith('pk_test_') || secretKey?.startsWith('sk_test_'));
}

export function keyKind(publicKey: string | null, secretKey: string | null): GatewayAKeyKind {
  if (publicKey === null && secretKey === null) return 'none';
  if (publicKey?.startsWith('pk_live_') && secretKey?.startsWith('sk_live_')) return 'live';
  if (publicKey?.startsWith('pk_test_') && secretKey?.startsWith('sk_test_')) return 'test';
  return 'mixed';
}

const PENDING = new Set(['scheduled', 'running', 'retrying']);

/**
 * Gateway A's dashboard facts and notices, from its stored state (pure, so each rule has a spec).
 *
 * Notices (ids are stable; `facts` feed the dismissal fingerprint):
 * - `gateway_a.checkout_paused.{mode}`: a connected mode whose webhook contract is not verified
 *   (error in the current mode, warning in the other).
 * - `gateway_a.live_mode_test_keys`: the site's gateway-A mode is live, the live mode does not hold
 *   live keys (`pk_live_` + `sk_live_`: none stored, incomplete, or test/mixed keys) and test keys
 *   are stored somewhere (the test mode's credentials or the live slot). Live checkout cannot take
 *   real payments.
 * - `gateway_a.webhook_upgrade.pending` / `.failed`: the 1.5.3 in-place webhook update.
 */
export function buildGatewayADashboardFacts(input: GatewayADashboardInput): GatewayDashboardFacts {
  const modes = {} as Record<GatewayMode, GatewayModeFacts>;
  const notices: GatewayNotice[] = [];
  for (const mode of GATEWAY_MODES) {
    const { connected, publicKey, secretKey, contract } = input.modes[mode];
    const kind = keyKind(publicKey, secretKey);
    const paused = contract.checkout_paused;
    modes[mode] = {
      connected,
      // true: a test key is stored; false: live keys; null: nothing stored, or an incomplete pair of live keys
      testKeys: holdsTestKey(publicKey, secretKey) ? true : kind === 'live' ? false : null,
      webhookConfigured: contract.signing_secret !== null,
      contract: {
        state: paused ? 'paused' : contract.management === 'manual' ? 'manual' : 'verified',
        status: contract.status,
        management: contract.management,
        lastError: contract.last_error,
        verifiedAt: contract.verified_at,
      },
    };
    if (connected && paused) {
      const current = mode === input.currentMode;
      notices.push({
        id: `gateway_a.checkout_paused.${mode}`,
        severity: current ? 'error' : 'warning',
        message:
          `Payers cannot pay with ${NAME} in ${mode} mode: checkout is paused until ${NAME} is confirmed to send this site its payment updates (the webhook)` +
          (contract.last_error ? ` (${contract.last_error})` : '') +
          `. Connect your ${NAME} account again, or finish setting up the webhook by hand.`,
        route: 'POST /payment-gateway/save-webhook-settings',
        facts: { mode, current, status: contract.status, management: contract.management, last_error: contract.last_error },
      });
    }
  }

  const live = input.modes.live;
  const liveKind = keyKind(live.publicKey, live.secretKey);
  const testKind = keyKind(input.modes.test.publicKey, input.modes.test.secretKey);
  const testKeysStored = testKind !== 'none' || holdsTestKey(live.publicKey, live.secretKey);
  if (input.currentMode === 'live' && !(live.connected && liveKind === 'live') && testKeysStored) {
    notices.push({
      id: 'gateway_a.live_mode_test_keys',
      severity: 'error',
      message:
        `${NAME} is in live mode but only test keys are stored: payers cannot pay real money. ` +
        `Connect your live ${NAME} account, or switch ${NAME} back to test mode.`,
      route: 'GET /payment-gateway/connect?mode=live',
      facts: { live_keys: liveKind, live_connected: live.connected, test_keys: testKind },
    });
  }

  const upgrade = input.upgrade;
  if (upgrade && PENDING.has(upgrade.status)) {
    const retrying = upgrade.status === 'retrying';
    notices.push({
      id: 'gateway_a.webhook_upgrade.pending',
      severity: retrying ? 'warning' : 'info',
      message: retrying
        ? `The ${WEBHOOK_UPGRADE_RELEASE} update of ${NAME}'s webhooks failed attempt ${upgrade.attempts} of ${upgrade.max_attempts} (${upgrade.last_error ?? 'unknown error'}) and will retry at ${upgrade.next_attempt_at}.`
        : `The ${WEBHOOK_UPGRADE_RELEASE} update of ${NAME}'s webhooks is in progress.`,
      facts: { scheduled_at: upgrade.scheduled_at },
    });
  } else if (upgrade?.status === 'failed') {
    notices.push({
      id: 'gateway_a.webhook_upgrade.failed',
      severity: 'error',
      message:
        `The ${WEBHOOK_UPGRADE_RELEASE} update of ${NAME}'s webhooks gave up after ${upgrade.attempts} attempts (${upgrade.last_error ?? 'unknown error'}). ` +
        `Checkout stays paused in an affected mode until you connect ${NAME} again or finish setting up the webhook by hand.`,
      route: 'GET /payment-gateway/connect',
      facts: { scheduled_at: upgrade.scheduled_at, finished_at: upgrade.finished_at, last_error: upgrade.last_error },
    });
  }

  return { modes, upgrade: upgrade ? upgradeFacts(upgrade) : null, notices };
}

function upgradeFacts(progress: WebhookUpgradeProgress): GatewayUpgradeFacts {
  return {
    task: progress.task,
    release: WEBHOOK_UPGRADE_RELEASE,
    status: progress.status,
    attempts: progress.attempts,
    maxAttempts: progress.max_attempts,
    nextAttemptAt: progress.next_attempt_at,
    lastError: progress.last_error,
    modes: { ...progress.modes },
    scheduledAt: progress.scheduled_at,
    finishedAt: progress.finished_at,
  };
}
