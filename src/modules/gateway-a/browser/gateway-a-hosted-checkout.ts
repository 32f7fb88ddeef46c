import { type BrowserLibraryCsp, type HostedCheckout, libraryCsp } from '../../gateways/index.js';
import { PAYMENT_ELEMENT_METHODS, paymentElementOptions } from '../checkout/payment-method-types.js';

/** Where Stripe.js is served from: its CSP guidance applies only to that origin. */
const STRIPE_JS_ORIGIN = 'https://js.stripe.com';

/**
 * Stripe's CSP guidance for Stripe.js: its frames, API calls and images. Elements set style
 * attributes on the elements they insert; Stripe.js takes no nonce, so a nonce in style-src would
 * give it nothing.
 */
const STRIPE_JS_CSP: BrowserLibraryCsp = {
  script: ['https://*.js.stripe.com'],
  connect: ['https://api.stripe.com'],
  frame: ['https://js.stripe.com', 'https://*.js.stripe.com', 'https://hooks.stripe.com'],
  img: ['https://*.stripe.com'],
  styleNonce: false,
  styleAttributes: true,
};

/**
 * How the hosted page pays through gateway A: Stripe.js from GATEWAY_A_JS_URL, its Payment
 * Element in deferred-intent mode (the slice's driver `payment_element`,
 * `driver/payment_element.driver.ts`) for cards (with Link), the device wallets and the regional
 * wallets, each method with the element options that match the intent the intent route creates
 * for it (`paymentElementOptions`). Bank debit is not on the page.
 */
export function gatewayAHostedCheckout(libraryUrl: string): HostedCheckout {
  return {
    driver: 'payment_element',
    methods: PAYMENT_ELEMENT_METHODS,
    // The slice's routes the driver calls (gateway-a-checkout.controller.ts).
    routes: { intent: '/gateway-a/payment-intent-or-setup', checkout: '/gateway-a/checkout' },
    libraryUrl,
    csp: libraryCsp(libraryUrl, [STRIPE_JS_ORIGIN], STRIPE_JS_CSP),
    methodOptions: Object.fromEntries(PAYMENT_ELEMENT_METHODS.map((method) => [method, paymentElementOptions(method)])),
  };
}
