import { gatewayAHostedCheckout } from './gateway-a-hosted-checkout.js';

describe('gatewayAHostedCheckout', () => {
  it("gives Stripe.js its CSP guidance's origins and inline-style needs", () => {
    const checkout = gatewayAHostedCheckout('https://js.stripe.com/v3/');
    expect(checkout).toMatchObject({ driver: 'card_element', methods: ['ccard'], libraryUrl: 'https://js.stripe.com/v3/' });
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
});
