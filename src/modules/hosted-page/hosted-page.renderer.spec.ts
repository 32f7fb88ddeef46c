import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type PublicFormView, toPayerForm } from '../form-view/index.js';
import type { HostedCheckout } from '../gateways/index.js';
import { hostedPageCsp, pageGateways, renderHostedPage } from './hosted-page.renderer.js';
import { PageBundles } from './page-bundles.js';

const none = { script: [], connect: [], frame: [], img: [], styleNonce: false, styleAttributes: false };
/** A provider library with companion origins and inline-style needs, as a real one's adapter declares them. */
const cardLibrary: HostedCheckout = {
  driver: 'payment_element',
  methods: ['ccard'],
  routes: {},
  libraryUrl: 'https://js.card.example/v3/',
  csp: { script: ['https://*.js.card.example'], connect: ['https://api.card.example'], frame: ['https://js.card.example', 'https://hooks.card.example'], img: [], styleNonce: false, styleAttributes: true },
};
const walletLibrary: HostedCheckout = {
  driver: 'wallet_buttons',
  methods: ['standard_checkout'],
  routes: {},
  libraryUrl: 'https://www.wallet.example/sdk/js',
  csp: { script: ['https://*.wallet.example'], connect: ['https://*.wallet.example'], frame: ['https://*.wallet.example'], img: ['https://*.wallet.example'], styleNonce: true, styleAttributes: true },
};
const standIn = (url: string): HostedCheckout => ({ driver: 'payment_element', methods: ['ccard'], routes: {}, libraryUrl: url, csp: none });

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

describe('renderHostedPage and its scripts', () => {
  const view = (checkout: HostedCheckout): PublicFormView => ({
    form: toPayerForm(3, 'Tip', {
      plans: [{ title: 'Plan', prices: [{ amount: 500, currency: 'USD', frequency: 'one-time' }] }],
      payment_methods: { gateway_a: ['ccard'] },
      fields: [{ name: 'email_address', type: 'email', label: 'Email', required: true }],
      submit_actions: ['message'],
      email: { email_to: 'a@example.test', admin_subject: 'a', payer_subject: 'b', from_name: 'c' },
      display: {},
    }),
    gateways: [{ id: 'gateway_a', label: 'X', mode: 'test', supportsRecurring: true, methods: [{ id: 'ccard', label: 'Card' }], browser: { publishable_key: 'pk_test_1' }, hostedCheckout: checkout }],
  });
  const checkout: HostedCheckout = { ...cardLibrary, routes: { intent: '/gateway-x/intent' } };
  const scripts = { pageScript: '/pay/assets/hosted-page-abc.js', driver: (name: string) => (name === 'payment_element' ? '/pay/assets/driver-payment_element-def.js' : null) };

  it("names the page's bundle and, per gateway, its driver's bundle and the slice's routes as data", () => {
    const html = renderHostedPage(view(checkout), 'n0nce', '/wp-json/checkout/v1', scripts);
    expect(html).toContain('<script src="/pay/assets/hosted-page-abc.js" nonce="n0nce" defer></script>');
    expect(html).toContain('data-driver="payment_element"');
    expect(html).toContain('data-driver-src="/pay/assets/driver-payment_element-def.js" data-routes="{&quot;intent&quot;:&quot;/gateway-x/intent&quot;}" hidden>');
    expect(html).toContain('data-gateway="gateway_a" data-method="ccard"');
  });

  it('offers no method of a gateway whose driver no build brought', () => {
    const unbuilt = { ...checkout, driver: 'not_built' };
    expect(pageGateways(view(unbuilt), scripts)).toEqual([]);
    const html = renderHostedPage(view(unbuilt), 'n', '/r', scripts);
    expect(html).not.toContain('data-method=');
    expect(html).toContain('cannot take payments right now');
  });
});

describe('PageBundles', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'page-bundles-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('reads the built scripts the manifest lists, and only those', () => {
    writeFileSync(join(dir, 'manifest.json'), JSON.stringify({ page: 'hosted-page-a1.js', embed: 'embed.js', drivers: { wallet_buttons: 'driver-wallet_buttons-b2.js' } }));
    writeFileSync(join(dir, 'hosted-page-a1.js'), 'page();');
    writeFileSync(join(dir, 'embed.js'), 'embed();');
    writeFileSync(join(dir, 'driver-wallet_buttons-b2.js'), 'driver();');
    writeFileSync(join(dir, 'other.js'), 'other();');
    const bundles = PageBundles.load(dir);
    expect(bundles.pageScript).toBe('/pay/assets/hosted-page-a1.js');
    expect(bundles.driver('wallet_buttons')).toBe('/pay/assets/driver-wallet_buttons-b2.js');
    expect(bundles.driver('payment_element')).toBeNull();
    expect(bundles.file('driver-wallet_buttons-b2.js')?.source).toBe('driver();');
    expect(bundles.file('hosted-page-a1.js')?.etag).toMatch(/^"[A-Za-z0-9_-]{27}"$/);
    expect(bundles.embed?.source).toBe('embed();');
    // embed.js is served at /pay/embed.js only; a file the manifest does not list, never.
    expect(bundles.file('embed.js')).toBeUndefined();
    expect(bundles.file('other.js')).toBeUndefined();
    expect(bundles.file('manifest.json')).toBeUndefined();
  });

  it('refuses a manifest naming a path instead of a file', () => {
    writeFileSync(join(dir, 'manifest.json'), JSON.stringify({ page: '../secret.js', embed: 'embed.js', drivers: {} }));
    expect(() => PageBundles.load(dir)).toThrow(/not a script file name/);
  });

  it('without a build: no page script, no embed script', () => {
    const warnings: string[] = [];
    const bundles = PageBundles.load(join(dir, 'missing'), (message) => warnings.push(message));
    expect(warnings).toEqual([expect.stringContaining('run npm run build')]);
    expect(bundles.pageScript).toBeNull();
    expect(bundles.embed).toBeNull();
  });
});
