import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gatewayBHostedCheckout } from './gateway-b-hosted-checkout.js';

/** The POST routes the slice's checkout controller declares, as paths under the REST base (read from its source: importing it would boot half the service). */
function checkoutRoutes(): string[] {
  const source = readFileSync(join(__dirname, '..', 'checkout', 'gateway-b-checkout.controller.ts'), 'utf8');
  const base = /@Controller\('([^']+)'\)/.exec(source)![1];
  return [...source.matchAll(/@Post\('([^']+)'\)/g)].map((match) => `/${base}/${match[1]}`);
}

describe('gatewayBHostedCheckout', () => {
  it.each(['https://www.paypal.com/sdk/js', 'https://www.sandbox.paypal.com/sdk/js'])("gives the JS SDK at %s its CSP guidance's origins and style needs", (url) => {
    const checkout = gatewayBHostedCheckout(url);
    expect(checkout).toMatchObject({ driver: 'wallet_buttons', methods: ['standard_checkout'], libraryUrl: url });
    expect(checkout.csp).toEqual({
      script: ['https://*.paypal.com', 'https://*.paypalobjects.com'],
      connect: ['https://*.paypal.com'],
      frame: ['https://*.paypal.com'],
      img: ['https://*.paypal.com', 'https://*.paypalobjects.com'],
      styleNonce: true,
      styleAttributes: true,
    });
  });

  it('gives a stand-in at another origin nothing beyond its own origin', () => {
    expect(gatewayBHostedCheckout('https://sdk.example.test/js').csp).toMatchObject({ script: [], styleNonce: false, styleAttributes: false });
  });

  it("names a driver the slice brings (browser/driver/<name>.driver.ts) and gives it the slice's own checkout routes", () => {
    const checkout = gatewayBHostedCheckout('https://example.test/lib.js');
    expect(existsSync(join(__dirname, 'driver', `${checkout.driver}.driver.ts`))).toBe(true);
    expect(Object.values(checkout.routes).length).toBeGreaterThan(0);
    expect(checkoutRoutes()).toEqual(expect.arrayContaining(Object.values(checkout.routes)));
  });
});
