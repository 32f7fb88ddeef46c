import { CHECKOUT_ALIAS } from '../../src/config/index.js';
import type { GatewayMode } from '../../src/modules/gateways/index.js';

/** Where the slice finds its provider (the fake's address): given to `GatewayXModule.register`. */
export const GATEWAY_X_PROVIDER = Symbol('GATEWAY_X_PROVIDER');
export interface GatewayXProvider {
  /** The provider's API and library origin, e.g. `http://127.0.0.1:41234` */
  url: string;
}

/** Option names of gateway X's stored state (prefixed with CHECKOUT_ALIAS, as every slice's are). */
export const gatewayXOption = {
  /** The mode's public id for the browser library (`xpk_…`) */
  publicId: (mode: GatewayMode) => `${CHECKOUT_ALIAS}_gateway_x_${mode}_public_id`,
  /** The mode's API key (sealed) */
  apiKey: (mode: GatewayMode) => `${CHECKOUT_ALIAS}_gateway_x_${mode}_api_key`,
  /** The mode's webhook signing secret (sealed) */
  signingSecret: (mode: GatewayMode) => `${CHECKOUT_ALIAS}_gateway_x_${mode}_signing_secret`,
};
