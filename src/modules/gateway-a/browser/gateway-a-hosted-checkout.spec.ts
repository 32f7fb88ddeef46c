import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gatewayAHostedCheckout } from './gateway-a-hosted-checkout.js';

/** The POST routes the slice's checkout controller declares, as paths under the REST base (read from its source: importing it would boot half the service). */
function checkoutRoutes(): string[] {
  const source = readFileSync(join(__dirname, '..', 'checkout', 'gateway-a-checkout.controller.ts'), 'utf8');
  const base = /@Controller\('([^']+)'\)/.exec(source)![1];
  return [...source.matchAll(/@Post\('([^']+)'\)/g)].map((match) => `/${base}/${match[1]}`);
}

describe('gatewayAHostedCheckout', () => {
  it("gives Stripe.js its CSP guidance's origins and inline-style needs", () => {
    const checkout = gatewayAHostedCheckout('https://js.stripe.com/v3/');
    expect(checkout).toMatchObject({
      driver: 'payment_element',
      methods: ['ccard', 'device_wallet_1', 'device_wallet_2', 'regional_wallet_1', 'regional_wallet_2'],
      libraryUrl: 'https://js.stripe.com/v3/',
    });
    expect(checkout.csp).toEqual({
      script: ['https://*.js.stripe.com'],
      connect: ['https://api.stripe.com'],
      frame: ['https://js.stripe.com', 'https://*.js.stripe.com', 'https://hooks.stripe.com'],
      img: ['https://*.stripe.com'],
      styleNonce: false,
      styleAttributes: true,
    });
  });

  it('gives a stand-in at another origin nothing beyond its own origin', () => {
    expect(gatewayAHostedCheckout('http://127.0.0.1:4010/v3/').csp).toEqual({ script: [], connect: [], frame: [], img: [], styleNonce: false, styleAttributes: false });
  });

  it('gives each method the payment element options of the intent the intent route creates for it', () => {
    const { methodOptions } = gatewayAHostedCheckout('https://js.stripe.com/v3/');
    expect(methodOptions).toEqual({
      ccard: {
        elements: { paymentMethodTypes: ['card', 'link'] },
        modes: { payment: { captureMethod: 'automatic' }, setup: { setupFutureUsage: 'off_session' } },
        element: { wallets: { applePay: 'never', googlePay: 'never' } },
        leaves_page: false,
      },
      device_wallet_1: expect.objectContaining({ elements: { paymentMethodTypes: ['card'] }, element: { wallets: { applePay: 'auto', googlePay: 'never' } }, leaves_page: false }),
      device_wallet_2: expect.objectContaining({ elements: { paymentMethodTypes: ['card'] }, element: { wallets: { applePay: 'never', googlePay: 'auto' } }, leaves_page: false }),
      regional_wallet_1: expect.objectContaining({ elements: { excludedPaymentMethodTypes: ['card', 'sepa_debit', 'us_bank_account'] }, leaves_page: true }),
      regional_wallet_2: expect.objectContaining({ elements: { excludedPaymentMethodTypes: ['card', 'sepa_debit', 'us_bank_account'] }, leaves_page: true }),
    });
  });

  it("names a driver the slice brings (browser/driver/<name>.driver.ts) and gives it the slice's own checkout routes", () => {
    const checkout = gatewayAHostedCheckout('https://example.test/lib.js');
    expect(existsSync(join(__dirname, 'driver', `${checkout.driver}.driver.ts`))).toBe(true);
    expect(Object.values(checkout.routes).length).toBeGreaterThan(0);
    expect(checkoutRoutes()).toEqual(expect.arrayContaining(Object.values(checkout.routes)));
  });
});
