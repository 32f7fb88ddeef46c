import { ConfigError } from '../../config/index.js';
import { readGatewayAConfig } from './gateway-a.config.js';

describe('readGatewayAConfig (gateway A\'s own variables)', () => {
  it('has the providers\' defaults', () => {
    expect(readGatewayAConfig({})).toEqual({ proxyUrl: 'https://proxy.checkout.example', apiBase: 'https://api.stripe.com', jsUrl: 'https://js.stripe.com/v3/' });
  });

  it('takes CHECKOUT_PROXY_URL and GATEWAY_A_API_BASE without a trailing slash', () => {
    expect(readGatewayAConfig({ CHECKOUT_PROXY_URL: 'http://127.0.0.1:4010/', GATEWAY_A_API_BASE: 'https://api.example.test/' })).toMatchObject({
      proxyUrl: 'http://127.0.0.1:4010',
      apiBase: 'https://api.example.test',
    });
  });

  it('reads the browser library URL (GATEWAY_A_JS_URL): http(s), no credentials, query or fragment', () => {
    expect(readGatewayAConfig({ GATEWAY_A_JS_URL: 'http://127.0.0.1:4010/v3/' }).jsUrl).toBe('http://127.0.0.1:4010/v3/');
    for (const value of ['javascript:alert(1)', 'not a url', 'https://js.example.test/v3/?key=1', 'https://user:pw@js.example.test/', 'https://js.example.test/#x']) {
      expect(() => readGatewayAConfig({ GATEWAY_A_JS_URL: value })).toThrow(ConfigError);
    }
  });

  it.each([
    ['CHECKOUT_PROXY_URL', 'not a url'],
    ['GATEWAY_A_API_BASE', 'ftp://api.example.test'],
    ['GATEWAY_A_JS_URL', 'https://js.example.test/v3/?secret=abc'],
  ])('refuses a bad %s, naming the variable but not its value', (name, value) => {
    let error: unknown;
    try {
      readGatewayAConfig({ [name]: value });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).message).toContain(`Invalid configuration: ${name} `);
    expect((error as ConfigError).message).not.toContain(value);
  });
});
