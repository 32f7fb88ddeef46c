import { type BrowserLibraryCsp, type HostedCheckout, libraryCsp } from '../../gateways/index.js';

/** Where PayPal's JS SDK is served from (live and sandbox): its CSP guidance applies only there. */
const PAYPAL_SDK_ORIGINS = ['https://www.paypal.com', 'https://www.sandbox.paypal.com'];

/** PayPal's CSP guidance for the JS SDK: its frames, calls and images; it adds styles with the nonce it is given (`data-csp-nonce`) and style attributes. */
const PAYPAL_SDK_CSP: BrowserLibraryCsp = {
  script: ['https://*.paypal.com', 'https://*.paypalobjects.com'],
  connect: ['https://*.paypal.com'],
  frame: ['https://*.paypal.com'],
  img: ['https://*.paypal.com', 'https://*.paypalobjects.com'],
  styleNonce: true,
  styleAttributes: true,
};

/**
 * How the hosted page pays through gateway B: the JS SDK from GATEWAY_B_JS_URL and its buttons
 * (the slice's driver `wallet_buttons`, `driver/wallet_buttons.driver.ts`), one-time prices only.
 */
export function gatewayBHostedCheckout(libraryUrl: string): HostedCheckout {
  return {
    driver: 'wallet_buttons',
    methods: ['standard_checkout'],
    // The slice's routes the driver calls (gateway-b-checkout.controller.ts).
    routes: { order: '/gateway-b/order', capture: '/gateway-b/order/capture' },
    libraryUrl,
    csp: libraryCsp(libraryUrl, PAYPAL_SDK_ORIGINS, PAYPAL_SDK_CSP),
  };
}
