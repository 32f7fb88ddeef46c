import { GatewayRegistry } from './gateway-registry.service.js';
import type { PaymentGatewayAdapter } from './payment-gateway.port.js';

const mode = { connected: false, testKeys: null, webhookConfigured: false, contract: null };
const adapter = (id: 'gateway_a' | 'gateway_b', extra: Partial<PaymentGatewayAdapter> = {}): PaymentGatewayAdapter => ({
  id,
  label: id,
  proOnlyMethods: [],
  supportsRecurring: true,
  webhookSettingsFields: [],
  isConnected: async () => false,
  connectionOptions: () => [],
  checkoutPaused: async () => null,
  disconnect: async () => undefined,
  saveWebhookSettings: async () => ({}),
  paymentUnderway: async () => false,
  dashboardFacts: async () => ({ modes: { test: mode, live: mode }, upgrade: null, notices: [] }),
  ...extra,
});

describe('GatewayRegistry', () => {
  it('answers the adapter of a gateway and refuses a second one for the same id', () => {
    const registry = new GatewayRegistry();
    const a = adapter('gateway_a');
    registry.register(a);
    expect(registry.get('gateway_a')).toBe(a);
    expect(() => registry.register(adapter('gateway_a'))).toThrow(/second adapter/);
  });

  it('treats a missing adapter as a wiring mistake, and finds one without throwing for a stored record', () => {
    expect(() => new GatewayRegistry().get('gateway_b')).toThrow(/No adapter/);
    const registry = new GatewayRegistry();
    const a = adapter('gateway_a');
    registry.register(a);
    expect(registry.find('gateway_a')).toBe(a);
    expect(registry.find('gateway_b')).toBeNull();
    expect(registry.find('no_such_gateway')).toBeNull();
  });

  it('lists adapters in catalog order whatever the registration order', () => {
    const registry = new GatewayRegistry();
    registry.register(adapter('gateway_b'));
    registry.register(adapter('gateway_a'));
    expect(registry.all().map((entry) => entry.id)).toEqual(['gateway_a', 'gateway_b']);
  });

  it('finds the gateway that offers OAuth connect, and the one whose admin-charge token matches', () => {
    const registry = new GatewayRegistry();
    const oauthConnect = { authorizeUrl: () => 'https://proxy.test/oauth', completeConnect: async () => '/docs' };
    const adminCharges = { tokenDescription: 'pm_…', accepts: (token: string) => token.startsWith('pm_'), charge: jest.fn() };
    registry.register(adapter('gateway_a', { oauthConnect, adminCharges }));
    registry.register(adapter('gateway_b'));
    expect(registry.oauthConnect()).toBe(oauthConnect);
    expect(registry.adminChargesFor('pm_card_visa')).toBe(adminCharges);
    expect(registry.adminChargesFor('tok_visa')).toBeNull();
  });

  it('refuses, at registration, a second gateway offering a capability whose route names no gateway', () => {
    const registry = new GatewayRegistry();
    const oauthConnect = { authorizeUrl: () => 'https://proxy.test/oauth', completeConnect: async () => '/docs' };
    registry.register(adapter('gateway_a', { oauthConnect }));
    expect(() => registry.register(adapter('gateway_b', { oauthConnect }))).toThrow('gateway_b and gateway_a both offer oauthConnect: GET /payment-gateway/connect names no gateway');
    expect(registry.all().map((entry) => entry.id)).toEqual(['gateway_a']);
    const credentialSettings = { fields: [], save: jest.fn(), view: jest.fn() };
    registry.register(adapter('gateway_b', { credentialSettings }));
    expect(registry.credentialSettings()?.id).toBe('gateway_b');
    expect(registry.keyConnect()).toBeNull();
  });

  it('refuses an adapter for a gateway no slice registered in the catalog', () => {
    expect(() => new GatewayRegistry().register(adapter('gateway_z' as 'gateway_a'))).toThrow(/no slice registered/);
  });
});
