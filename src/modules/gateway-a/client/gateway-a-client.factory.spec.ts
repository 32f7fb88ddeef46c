import { Metrics } from '../../../common/metrics/index.js';
import { ConfigError, loadConfig } from '../../../config/index.js';
import { readGatewayAConfig } from '../gateway-a.config.js';
import type { OptionsService } from '../../settings/index.js';
import { GatewayAClientFactory, parseGatewayOrigin, providerOperation } from './gateway-a-client.factory.js';

const options = {} as OptionsService;
const metrics = new Metrics();
const environment = (env: Record<string, string>) => ({ CHECKOUT_SECRET: 'x'.repeat(32), CHECKOUT_PROXY_URL: 'https://proxy.example', GATEWAY_A_API_BASE: 'http://127.0.0.1:12111', ...env });
/** The factory's constructor arguments up to its services: the core configuration and the slice's own. */
const config = (env: Record<string, string>) => [loadConfig(environment(env)), readGatewayAConfig(environment(env))] as const;

describe('GatewayAClientFactory routing', () => {
  it('sends the free plan through the proxy and Pro straight to the API base', () => {
    expect(new GatewayAClientFactory(...config({ CHECKOUT_PLAN: 'free' }), options, metrics).route).toEqual({
      routing: 'proxy',
      origin: 'https://proxy.example',
      host: 'proxy.example',
      port: 443,
      protocol: 'https',
    });
    expect(new GatewayAClientFactory(...config({ CHECKOUT_PLAN: 'pro' }), options, metrics).route).toEqual({
      routing: 'direct',
      origin: 'http://127.0.0.1:12111',
      host: '127.0.0.1',
      port: 12111,
      protocol: 'http',
    });
  });

  it('keeps the OAuth pages on the proxy whatever the plan', () => {
    expect(new GatewayAClientFactory(...config({ CHECKOUT_PLAN: 'pro' }), options, metrics).proxy.origin).toBe('https://proxy.example');
  });

  it.each(['https://proxy.example/stripe', 'https://proxy.example/?a=1', 'https://user:pw@proxy.example'])('refuses %s (the SDK takes an origin only)', (url) => {
    expect(() => parseGatewayOrigin(url, 'CHECKOUT_PROXY_URL')).toThrow(ConfigError);
    expect(() => parseGatewayOrigin(url, 'CHECKOUT_PROXY_URL')).toThrow(/CHECKOUT_PROXY_URL/);
  });

  it('reuses one client per key and settings', () => {
    const factory = new GatewayAClientFactory(...config({}), options, metrics);
    expect(factory.forSecretKey('sk_test_aaaaaaaa')).toBe(factory.forSecretKey('sk_test_aaaaaaaa'));
    expect(factory.forSecretKey('sk_test_aaaaaaaa')).not.toBe(factory.forSecretKey('sk_test_bbbbbbbb'));
    expect(factory.forSecretKey('sk_test_aaaaaaaa', { maxNetworkRetries: 0 })).not.toBe(factory.forSecretKey('sk_test_aaaaaaaa'));
  });

  it('names an operation by method and path with ids as {id} (no series per object)', () => {
    expect(providerOperation('POST', '/v1/payment_intents/pi_3Nabc123/confirm')).toBe('POST /v1/payment_intents/{id}/confirm');
    expect(providerOperation('GET', '/v1/customers/cus_9XyZ?expand[]=x')).toBe('GET /v1/customers/{id}');
    expect(providerOperation('POST', '/v1/webhook_endpoints')).toBe('POST /v1/webhook_endpoints');
  });
});
