import { gatewayBHostedCheckout } from './gateway-b-hosted-checkout.js';

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
});
