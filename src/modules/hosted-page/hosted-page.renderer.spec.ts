import type { HostedCheckout } from '../gateways/index.js';
import { hostedPageCsp } from './hosted-page.renderer.js';

const none = { script: [], connect: [], frame: [], img: [], styleNonce: false, styleAttributes: false };
/** A provider library with companion origins and inline-style needs, as a real one's adapter declares them. */
const cardLibrary: HostedCheckout = {
  driver: 'payment_element',
  methods: ['ccard'],
  libraryUrl: 'https://js.card.example/v3/',
  csp: { script: ['https://*.js.card.example'], connect: ['https://api.card.example'], frame: ['https://js.card.example', 'https://hooks.card.example'], img: [], styleNonce: false, styleAttributes: true },
};
const walletLibrary: HostedCheckout = {
  driver: 'wallet_buttons',
  methods: ['standard_checkout'],
  libraryUrl: 'https://www.wallet.example/sdk/js',
  csp: { script: ['https://*.wallet.example'], connect: ['https://*.wallet.example'], frame: ['https://*.wallet.example'], img: ['https://*.wallet.example'], styleNonce: true, styleAttributes: true },
};
const standIn = (url: string): HostedCheckout => ({ driver: 'payment_element', methods: ['ccard'], libraryUrl: url, csp: none });

describe('hostedPageCsp', () => {
  const directives = (csp: string) => Object.fromEntries(csp.split('; ').map((part) => [part.split(' ')[0], part.split(' ').slice(1)]));

  it('allows scripts only by nonce (strict-dynamic), the page itself and the libraries with the origins their adapters declare', () => {
    const csp = directives(hostedPageCsp('abc', [cardLibrary, walletLibrary]));
    expect(csp['default-src']).toEqual(["'none'"]);
    expect(csp['script-src']).toEqual(["'nonce-abc'", "'strict-dynamic'", "'self'", 'https://js.card.example', 'https://www.wallet.example', 'https://*.js.card.example', 'https://*.wallet.example']);
    expect(csp['connect-src']).toEqual(["'self'", 'https://js.card.example', 'https://www.wallet.example', 'https://api.card.example', 'https://*.wallet.example']);
    expect(csp['frame-src']).toEqual(['https://js.card.example', 'https://www.wallet.example', 'https://hooks.card.example', 'https://*.wallet.example']);
    // What the real libraries need: the wallet's nonce'd <style> elements, both libraries' style attributes.
    expect(csp['style-src']).toEqual(["'self'", "'nonce-abc'"]);
    expect(csp['style-src-attr']).toEqual(["'unsafe-inline'"]);
    expect(csp['frame-ancestors']).toEqual(["'none'"]);
    expect(csp['form-action']).toEqual(["'none'"]);
    expect(csp['base-uri']).toEqual(["'none'"]);
    expect(csp['object-src']).toEqual(["'none'"]);
  });

  it('needs no inline style of any kind for the page itself: a stand-in library or none gets style-src self only', () => {
    const withStandIn = directives(hostedPageCsp('n', [standIn('http://127.0.0.1:4010/v3/')]));
    expect(withStandIn['script-src']).toEqual(["'nonce-n'", "'strict-dynamic'", "'self'", 'http://127.0.0.1:4010']);
    expect(withStandIn['connect-src']).toEqual(["'self'", 'http://127.0.0.1:4010']);
    expect(withStandIn['style-src']).toEqual(["'self'"]);
    expect(withStandIn['style-src-attr']).toEqual(["'none'"]);
    const without = directives(hostedPageCsp('n', []));
    expect(without['script-src']).toEqual(["'nonce-n'", "'strict-dynamic'", "'self'"]);
    expect(without['frame-src']).toEqual(["'none'"]);
    expect(without['style-src']).toEqual(["'self'"]);
  });

  it('is framed by no page unless EMBED_ORIGINS lists the framing origins, exactly', () => {
    expect(directives(hostedPageCsp('n', []))['frame-ancestors']).toEqual(["'none'"]);
    expect(directives(hostedPageCsp('n', [], ['https://shop.example', 'http://127.0.0.1:8080']))['frame-ancestors']).toEqual(['https://shop.example', 'http://127.0.0.1:8080']);
  });
});
