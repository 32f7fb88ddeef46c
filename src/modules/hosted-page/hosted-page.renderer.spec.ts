import { hostedPageCsp } from './hosted-page.renderer.js';

describe('hostedPageCsp', () => {
  const directives = (csp: string) => Object.fromEntries(csp.split('; ').map((part) => [part.split(' ')[0], part.split(' ').slice(1)]));

  it('allows scripts only by nonce (strict-dynamic), the page itself and the configured script origins', () => {
    const csp = directives(hostedPageCsp('abc', ['https://js.stripe.com/v3/', 'https://www.paypal.com/sdk/js']));
    expect(csp['default-src']).toEqual(["'none'"]);
    expect(csp['script-src']).toEqual([
      "'nonce-abc'",
      "'strict-dynamic'",
      "'self'",
      'https://js.stripe.com',
      'https://www.paypal.com',
      'https://*.js.stripe.com',
      'https://*.paypal.com',
      'https://*.paypalobjects.com',
    ]);
    expect(csp['connect-src']).toEqual(["'self'", 'https://js.stripe.com', 'https://www.paypal.com', 'https://api.stripe.com', 'https://*.paypal.com']);
    expect(csp['frame-src']).toEqual(['https://js.stripe.com', 'https://www.paypal.com', 'https://*.js.stripe.com', 'https://hooks.stripe.com', 'https://*.paypal.com']);
    expect(csp['frame-ancestors']).toEqual(["'none'"]);
    expect(csp['form-action']).toEqual(["'none'"]);
    expect(csp['base-uri']).toEqual(["'none'"]);
    expect(csp['object-src']).toEqual(["'none'"]);
  });

  it('gives a stand-in library exactly its own origin, and no provider without a script', () => {
    const standIn = directives(hostedPageCsp('n', ['http://127.0.0.1:4010/v3/']));
    expect(standIn['script-src']).toEqual(["'nonce-n'", "'strict-dynamic'", "'self'", 'http://127.0.0.1:4010']);
    expect(standIn['connect-src']).toEqual(["'self'", 'http://127.0.0.1:4010']);
    const none = directives(hostedPageCsp('n', []));
    expect(none['script-src']).toEqual(["'nonce-n'", "'strict-dynamic'", "'self'"]);
    expect(none['frame-src']).toEqual(["'none'"]);
  });
});
