import { englishT } from '../../i18n/english';
import {
  type CatalogGateway,
  connectOutcomes,
  firstInvalid,
  isConnectReturn,
  liveReadiness,
  methodLocked,
  type ModeFacts,
  modeState,
  parseDomains,
  saveSummary,
  type SettingField,
  splitFieldErrors,
  toggleMethod,
  valuesOf,
} from './gateway-logic';

/** Gateway ids are the catalog's data: these stand for any. */
const ONE = 'pay_one' as CatalogGateway['id'];
const TWO = 'pay_two' as CatalogGateway['id'];

/** Two gateways as the catalog draws them: one with an OAuth connect, one without. */
const gateways = [
  { id: ONE, label: 'Pay One', connect: [{ kind: 'oauth', route: 'GET /payment-gateway/connect', takes_mode: true, fields: [] }] },
  { id: TWO, label: 'Pay Two', connect: [{ kind: 'credentials', route: 'POST /payment-gateway/save-settings', takes_mode: false, fields: [] }] },
] as unknown as CatalogGateway[];

describe('connect round trip outcome', () => {
  it('reads a successful connect with a verified webhook and consumes its parameters', () => {
    const params = new URLSearchParams('pay_one_connected=test&pay_one_webhook=verified&other=1');
    expect(isConnectReturn(params)).toBe(true);
    const { outcomes, consumed } = connectOutcomes(params, gateways, englishT);
    expect(outcomes).toEqual([{ tone: 'success', message: expect.stringContaining('Pay One is connected in test mode. Its webhook endpoint is verified') }]);
    expect(consumed).toEqual(['pay_one_connected', 'pay_one_webhook']);
  });

  it('warns when the webhook is not verified, and explains a refusal code', () => {
    const warned = connectOutcomes(new URLSearchParams('pay_one_connected=live&pay_one_webhook=failed'), gateways, englishT).outcomes;
    expect(warned).toEqual([{ tone: 'warning', message: expect.stringContaining('not verified (failed): checkout in live mode stays paused') }]);
    const refused = connectOutcomes(new URLSearchParams('pay_one_error=expired_state'), gateways, englishT).outcomes;
    expect(refused).toEqual([{ tone: 'error', message: expect.stringContaining('Pay One was not connected: the connect link expired') }]);
    const unknown = connectOutcomes(new URLSearchParams('pay_one_error=something_new'), gateways, englishT).outcomes;
    expect(unknown[0].message).toContain('(something_new)');
  });

  it('ignores gateways without an OAuth connect, and a mode that is no mode', () => {
    expect(connectOutcomes(new URLSearchParams('pay_two_connected=test'), gateways, englishT)).toEqual({ outcomes: [], consumed: [] });
    expect(connectOutcomes(new URLSearchParams('pay_one_connected=prod'), gateways, englishT)).toEqual({ outcomes: [], consumed: ['pay_one_connected'] });
    expect(isConnectReturn(new URLSearchParams('page=2'))).toBe(false);
  });
});

describe('mode state in words', () => {
  const contract = { state: 'verified', status: 'verified', management: 'automatic', last_error: null, verified_at: '2026-11-25T10:00:00.000Z' } as const;

  it('says whether the mode is connected, with which keys, and the contract state', () => {
    expect(modeState({ is_connected: 1, test_keys: true, webhook_configured: true, webhook_contract: contract }, englishT)).toMatchObject({
      connection: 'Connected (test keys)',
      webhook: 'Verified',
      webhookTone: 'ok',
      verifiedAt: contract.verified_at,
    });
    expect(modeState({ is_connected: 1, test_keys: false, webhook_configured: true, webhook_contract: { ...contract, state: 'manual', management: 'manual' } }, englishT).webhook).toBe('Configured manually');
    expect(
      modeState({ is_connected: 0, test_keys: null, webhook_configured: false, webhook_contract: { ...contract, state: 'paused', status: 'failed', last_error: 'endpoint missing', verified_at: null } }, englishT),
    ).toEqual({ connection: 'Not connected', webhook: 'Not verified (failed): checkout is paused in this mode', webhookTone: 'problem', lastError: 'endpoint missing', verifiedAt: null });
  });

  it('does not alarm about the webhook of a mode that was never connected or configured', () => {
    const unconfigured = { ...contract, state: 'paused', status: 'unconfigured', management: null, verified_at: null } as const;
    expect(modeState({ is_connected: 0, test_keys: null, webhook_configured: false, webhook_contract: unconfigured }, englishT)).toMatchObject({ webhook: 'Not set up yet', webhookTone: 'neutral' });
    // Connected without a verified contract is a problem: checkout is paused.
    expect(modeState({ is_connected: 1, test_keys: true, webhook_configured: false, webhook_contract: unconfigured }, englishT)).toMatchObject({ webhookTone: 'problem' });
  });

  it('describes a gateway without a contract by its saved webhook settings', () => {
    expect(modeState({ is_connected: 1, test_keys: null, webhook_configured: true, webhook_contract: null }, englishT)).toMatchObject({ connection: 'Connected', webhook: 'Webhook settings saved' });
    expect(modeState({ is_connected: 0, test_keys: null, webhook_configured: false, webhook_contract: null }, englishT).webhook).toBe('No webhook settings saved');
  });
});

describe('the live switch: ready only when live is connected with live keys and its webhook verified', () => {
  const contract = (state: 'verified' | 'manual' | 'paused', status = state === 'paused' ? 'unverified' : 'verified') => ({ state, status, management: 'automatic' as const, last_error: null, verified_at: null });
  const live = (facts: Partial<ModeFacts>): ModeFacts => ({ is_connected: 1, test_keys: false, webhook_configured: true, webhook_contract: contract('verified'), ...facts });
  const gapsOf = (facts: ModeFacts | undefined) => liveReadiness(ONE, facts, englishT).gaps.map((gap) => gap.text);

  it('is ready with a verified or manually completed contract, or saved webhook settings where there is no contract', () => {
    expect(liveReadiness(ONE, live({}), englishT)).toEqual({ ready: true, gaps: [] });
    expect(liveReadiness(ONE, live({ webhook_contract: contract('manual') }), englishT).ready).toBe(true);
    expect(liveReadiness(ONE, live({ test_keys: null, webhook_contract: null, webhook_configured: true }), englishT).ready).toBe(true);
  });

  it('names each gap and links it to the live mode’s panel', () => {
    expect(liveReadiness(ONE, live({ is_connected: 0, webhook_contract: contract('paused', 'unconfigured') }), englishT)).toEqual({
      ready: false,
      gaps: [
        { text: 'Connect live mode', target: 'pay_one-live-title' },
        { text: 'Verify the live webhook', target: 'pay_one-live-title' },
      ],
    });
    expect(gapsOf(live({ webhook_contract: contract('paused', 'failed') }))).toEqual(['Verify the live webhook (now: failed)']);
    expect(gapsOf(live({ test_keys: true }))).toEqual(['Live mode holds test keys: connect it with your live account']);
    expect(gapsOf(live({ test_keys: null, webhook_contract: null, webhook_configured: false }))).toEqual(['Save the live webhook settings']);
    expect(gapsOf(undefined)).toEqual(['Connect live mode', 'Save the live webhook settings']);
  });
});

describe('forms drawn from catalog fields', () => {
  const fields: SettingField[] = [
    { name: 'signing_secret', label: 'Webhook signing secret', type: 'text', secret: true, required: false },
    { name: 'manual_configuration_complete', label: 'Complete', type: 'boolean', secret: false, required: false },
    { name: 'email', label: 'Email', type: 'email', secret: false, required: true },
  ];

  it('trims text, reads checkboxes, leaves out empty optional text and unticked optional checkboxes but keeps required ones', () => {
    const form = new Map<string, string>([
      ['signing_secret', '  '],
      ['manual_configuration_complete', 'on'],
      ['email', ' a@example.test '],
    ]);
    expect(valuesOf(fields, form)).toEqual({ manual_configuration_complete: true, email: 'a@example.test' });
    expect(valuesOf(fields, new Map([['signing_secret', 'whsec_x']]))).toEqual({ signing_secret: 'whsec_x', email: '' });
    const required: SettingField = { name: 'agree', label: 'Agree', type: 'boolean', secret: false, required: true };
    expect(valuesOf([required], new Map())).toEqual({ agree: false });
  });

  it('puts the API’s field messages next to the form’s fields and the rest in the summary; focus goes to the first invalid field in form order', () => {
    const split = splitFieldErrors({ email: 'email must be an email address', mode: 'test mode takes test keys', signing_secret: 'bad' }, ['signing_secret', 'email']);
    expect(split).toEqual({ byField: { email: 'email must be an email address', signing_secret: 'bad' }, other: { mode: 'test mode takes test keys' } });
    expect(firstInvalid(['signing_secret', 'email'], split.byField)).toBe('signing_secret');
    expect(firstInvalid(['signing_secret'], {})).toBeNull();
  });
});

describe('payment methods', () => {
  const methods = [{ id: 'ccard' }, { id: 'sepa' }, { id: 'device_wallet_1' }];

  it('locks a Pro-only method on the free plan unless it is already on', () => {
    expect(methodLocked({ pro_only: true }, 'free', false)).toBe(true);
    expect(methodLocked({ pro_only: true }, 'free', true)).toBe(false);
    expect(methodLocked({ pro_only: true }, 'pro', false)).toBe(false);
    expect(methodLocked({ pro_only: false }, 'free', false)).toBe(false);
  });

  it('keeps the catalog order when a method is switched on or off', () => {
    expect(toggleMethod(methods, ['device_wallet_1'], 'ccard', true)).toEqual(['ccard', 'device_wallet_1']);
    expect(toggleMethod(methods, ['ccard', 'sepa'], 'ccard', false)).toEqual(['sepa']);
    expect(toggleMethod(methods, ['ccard'], 'ccard', true)).toEqual(['ccard']);
  });

  it('reads domains one per line, or separated by commas, once each', () => {
    expect(parseDomains(' Shop.Example.com\nshop.example.com, pay.example.com \n\n')).toEqual(['shop.example.com', 'pay.example.com']);
    expect(parseDomains('')).toEqual([]);
  });
});

describe('what a save answered', () => {
  it('shows the masks the API answers and its notes', () => {
    expect(
      saveSummary(
        { kind: 'credentials', answer: { gateway: TWO, mode: 'test', email: 'm@example.test', client_id: 'AbC…xyz', secret: '…9Zq', is_connected: 1 } },
        { email: 'Account email', client_id: 'Client ID', secret: 'Secret' },
        englishT,
      ),
    ).toEqual({ headline: 'Saved for test mode.', facts: [['Account email', 'm@example.test'], ['Client ID', 'AbC…xyz'], ['Secret', '…9Zq']], notes: [] });
    const keys = saveSummary(
      {
        kind: 'own_keys',
        answer: {
          gateway: ONE,
          mode: 'live',
          account_id: 'acct_1',
          is_connected: 1,
          webhook: { status: 'failed', endpoint_id: null, last_error: 'unreachable' },
          checkout_paused: true,
          site_mode: 'test',
          notes: ['Switch the mode.'],
        },
      },
      {},
      englishT,
    );
    expect(keys).toEqual({ headline: 'Connected in live mode.', facts: [['Account', 'acct_1'], ['Webhook', 'failed'], ['Webhook error', 'unreachable']], notes: ['Switch the mode.'] });
    const webhook = saveSummary({ kind: 'webhook_settings', answer: { gateway: ONE, mode: 'test', signing_secret: 'whsec_…a1b2', status: 'unverified', checkout_paused: true } }, { signing_secret: 'Signing secret' }, englishT);
    expect(webhook.facts).toEqual([['Signing secret', 'whsec_…a1b2'], ['Webhook', 'unverified']]);
    expect(webhook.notes[0]).toContain('paused in test mode');
  });
});
