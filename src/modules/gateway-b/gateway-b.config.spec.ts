import { ConfigError } from '../../config/index.js';
import { readGatewayBConfig } from './gateway-b.config.js';

describe('readGatewayBConfig (gateway B\'s own variables)', () => {
  it('has the providers\' defaults and the webhook bounds', () => {
    expect(readGatewayBConfig({})).toEqual({
      apiBaseTest: 'https://api-m.sandbox.paypal.com',
      apiBaseLive: 'https://api-m.paypal.com',
      jsUrl: 'https://www.paypal.com/sdk/js',
      webhook: { toleranceSeconds: 300, verifyConcurrency: 4 },
    });
    expect(readGatewayBConfig({ GATEWAY_B_WEBHOOK_TOLERANCE_SECONDS: '30', GATEWAY_B_WEBHOOK_VERIFY_CONCURRENCY: '64' }).webhook).toEqual({ toleranceSeconds: 30, verifyConcurrency: 64 });
  });

  it('takes the API origins without a trailing slash (a path prefix is kept)', () => {
    expect(readGatewayBConfig({ GATEWAY_B_API_BASE_TEST: 'http://127.0.0.1:4020/', GATEWAY_B_API_BASE_LIVE: 'https://live.example.test/v/' })).toMatchObject({
      apiBaseTest: 'http://127.0.0.1:4020',
      apiBaseLive: 'https://live.example.test/v',
    });
  });

  it('reads the browser library URL (GATEWAY_B_JS_URL): http(s), no credentials, query or fragment', () => {
    expect(readGatewayBConfig({ GATEWAY_B_JS_URL: 'https://sdk.example.test/js' }).jsUrl).toBe('https://sdk.example.test/js');
    for (const value of ['javascript:alert(1)', 'not a url', 'https://js.example.test/v3/?key=1', 'https://user:pw@js.example.test/', 'https://js.example.test/#x']) {
      expect(() => readGatewayBConfig({ GATEWAY_B_JS_URL: value })).toThrow(/GATEWAY_B_JS_URL/);
    }
  });

  it.each([
    ['GATEWAY_B_API_BASE_TEST', 'not a url'],
    ['GATEWAY_B_API_BASE_LIVE', 'mailto:x@example.test'],
    ['GATEWAY_B_WEBHOOK_TOLERANCE_SECONDS', '5'],
    ['GATEWAY_B_WEBHOOK_TOLERANCE_SECONDS', '3601'],
    ['GATEWAY_B_WEBHOOK_VERIFY_CONCURRENCY', '0'],
    ['GATEWAY_B_WEBHOOK_VERIFY_CONCURRENCY', 'many'],
  ])('refuses a bad %s, naming the variable but not its value', (name, value) => {
    let error: unknown;
    try {
      readGatewayBConfig({ [name]: value });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).message).toContain(`Invalid configuration: ${name} `);
    expect((error as ConfigError).message).not.toContain(value);
  });
});
