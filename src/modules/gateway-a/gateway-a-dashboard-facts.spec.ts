import { buildGatewayADashboardFacts, type GatewayADashboardInput, type GatewayAModeInput, keyKind } from './gateway-a-dashboard-facts.js';
import type { WebhookContractView } from './webhook/gateway-a-contract.service.js';
import type { WebhookUpgradeProgress } from './webhook/webhook-upgrade.task.js';

const contract = (overrides: Partial<WebhookContractView> = {}): WebhookContractView => ({
  mode: 'test',
  management: null,
  status: 'unconfigured',
  checkout_paused: true,
  endpoint_id: null,
  signing_secret: null,
  verified_at: null,
  last_error: null,
  ...overrides,
});
const verified = (management: 'automatic' | 'manual' = 'automatic') =>
  contract({ management, status: 'verified', checkout_paused: false, signing_secret: 'whsec_…abcd', verified_at: '2026-11-25T10:00:00.000Z' });
const none: GatewayAModeInput = { connected: false, publicKey: null, secretKey: null, contract: contract() };
const connected = (mode: 'test' | 'live', overrides: Partial<GatewayAModeInput> = {}): GatewayAModeInput => ({
  connected: true,
  publicKey: `pk_${mode}_abc`,
  secretKey: `sk_${mode}_abc`,
  contract: verified(),
  ...overrides,
});
const input = (overrides: Partial<GatewayADashboardInput> = {}): GatewayADashboardInput => ({
  currentMode: 'test',
  modes: { test: none, live: none },
  upgrade: null,
  ...overrides,
});
const ids = (facts: ReturnType<typeof buildGatewayADashboardFacts>) => facts.notices.map((notice) => notice.id);

const progress = (overrides: Partial<WebhookUpgradeProgress> = {}): WebhookUpgradeProgress => ({
  task: 'gateway_a_webhook_update_1_5_3',
  status: 'scheduled',
  attempts: 0,
  max_attempts: 5,
  next_attempt_at: '2026-11-25T10:00:00.000Z',
  last_error: null,
  modes: {},
  scheduled_at: '2026-11-25T10:00:00.000Z',
  started_at: null,
  finished_at: null,
  ...overrides,
});

describe('gateway A dashboard facts', () => {
  it('tells the key kind from both prefixes', () => {
    expect(keyKind(null, null)).toBe('none');
    expect(keyKind('pk_live_1', 'sk_live_1')).toBe('live');
    expect(keyKind('pk_test_1', 'sk_test_1')).toBe('test');
    expect(keyKind('pk_live_1', 'sk_test_1')).toBe('mixed');
    expect(keyKind('pk_live_1', null)).toBe('mixed');
  });

  it('reports each mode: connection, test keys, webhook settings and contract state', () => {
    const facts = buildGatewayADashboardFacts(input({ modes: { test: connected('test'), live: connected('live', { contract: verified('manual') }) } }));
    expect(facts.modes.test).toEqual({
      connected: true,
      testKeys: true,
      webhookConfigured: true,
      contract: { state: 'verified', status: 'verified', management: 'automatic', lastError: null, verifiedAt: '2026-11-25T10:00:00.000Z' },
    });
    expect(facts.modes.live).toMatchObject({ connected: true, testKeys: false, contract: { state: 'manual', management: 'manual' } });
    expect(facts.notices).toEqual([]);
    const partial = buildGatewayADashboardFacts(input({ modes: { test: { ...none, publicKey: 'pk_test_1' }, live: { ...none, publicKey: 'pk_live_1' } } }));
    expect([partial.modes.test.testKeys, partial.modes.live.testKeys]).toEqual([true, null]);
    expect(buildGatewayADashboardFacts(input()).modes.live).toEqual({
      connected: false,
      testKeys: null,
      webhookConfigured: false,
      contract: { state: 'paused', status: 'unconfigured', management: null, lastError: null, verifiedAt: null },
    });
  });

  it('raises checkout_paused only for a connected mode: error in the current mode, warning in the other', () => {
    const failed = contract({ management: 'automatic', status: 'failed', last_error: 'endpoint is disabled', signing_secret: 'whsec_…1' });
    const facts = buildGatewayADashboardFacts(input({ currentMode: 'live', modes: { test: connected('test', { contract: failed }), live: connected('live', { contract: failed }) } }));
    expect(facts.notices.map(({ id, severity }) => ({ id, severity }))).toEqual([
      { id: 'gateway_a.checkout_paused.test', severity: 'warning' },
      { id: 'gateway_a.checkout_paused.live', severity: 'error' },
    ]);
    expect(facts.notices[1]).toMatchObject({
      message: expect.stringContaining('(endpoint is disabled)'),
      route: 'POST /payment-gateway/save-webhook-settings',
      facts: { mode: 'live', current: true, status: 'failed', management: 'automatic', last_error: 'endpoint is disabled' },
    });
    expect(ids(buildGatewayADashboardFacts(input({ modes: { test: { ...none, contract: failed }, live: none } })))).toEqual([]);
  });

  it('raises live_mode_test_keys when live mode holds no live keys but test keys exist', () => {
    const live = (modes: GatewayADashboardInput['modes']) => ids(buildGatewayADashboardFacts(input({ currentMode: 'live', modes })));
    expect(live({ test: connected('test'), live: none })).toContain('gateway_a.live_mode_test_keys');
    // test keys stored in the live slot (a legacy row; connect refuses them today)
    expect(live({ test: none, live: connected('test') })).toContain('gateway_a.live_mode_test_keys');
    expect(live({ test: none, live: { ...connected('live'), secretKey: 'sk_test_x' } })).toContain('gateway_a.live_mode_test_keys');
    // live keys in live mode, or nothing stored at all, or the site in test mode: no notice
    expect(live({ test: connected('test'), live: connected('live') })).not.toContain('gateway_a.live_mode_test_keys');
    expect(live({ test: none, live: none })).not.toContain('gateway_a.live_mode_test_keys');
    // an incomplete live pair and no test key anywhere: not connected, but no test keys either
    expect(live({ test: none, live: { ...none, publicKey: 'pk_live_1' } })).not.toContain('gateway_a.live_mode_test_keys');
    expect(ids(buildGatewayADashboardFacts(input({ currentMode: 'test', modes: { test: connected('test'), live: none } })))).toEqual([]);
  });

  it('reports the upgrade task and raises pending (info, warning while retrying) or failed', () => {
    const scheduled = buildGatewayADashboardFacts(input({ upgrade: progress() }));
    expect(scheduled.upgrade).toMatchObject({ task: 'gateway_a_webhook_update_1_5_3', release: '1.5.3', status: 'scheduled', maxAttempts: 5 });
    expect(scheduled.notices).toEqual([expect.objectContaining({ id: 'gateway_a.webhook_upgrade.pending', severity: 'info', facts: { scheduled_at: '2026-11-25T10:00:00.000Z' } })]);
    const retrying = buildGatewayADashboardFacts(input({ upgrade: progress({ status: 'retrying', attempts: 2, last_error: 'test: gateway unreachable' }) }));
    expect(retrying.notices[0]).toMatchObject({ severity: 'warning', message: expect.stringContaining('attempt 2 of 5 (test: gateway unreachable)') });
    // the same task keeps its fingerprint facts while it retries
    expect(retrying.notices[0].facts).toEqual(scheduled.notices[0].facts);
    const failed = buildGatewayADashboardFacts(input({ upgrade: progress({ status: 'failed', attempts: 5, last_error: 'x', finished_at: '2026-11-25T11:00:00.000Z' }) }));
    expect(failed.notices).toEqual([expect.objectContaining({ id: 'gateway_a.webhook_upgrade.failed', severity: 'error' })]);
    expect(buildGatewayADashboardFacts(input({ upgrade: progress({ status: 'completed' }) })).notices).toEqual([]);
    expect(buildGatewayADashboardFacts(input()).upgrade).toBeNull();
  });
});
