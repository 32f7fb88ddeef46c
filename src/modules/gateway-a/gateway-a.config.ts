import { configSection, envScriptUrl, envUrl } from '../../config/index.js';

/** Gateway A's own environment variables (README "Configuration"), read by the slice at boot. */
export interface GatewayAConfig {
  /** CHECKOUT_PROXY_URL: the free plan's proxy (the platform's OAuth pages, token exchange and API) */
  proxyUrl: string;
  /** GATEWAY_A_API_BASE: the gateway's API origin on the Pro plan */
  apiBase: string;
  /** GATEWAY_A_JS_URL: the browser library the hosted payment page loads (Stripe.js) */
  jsUrl: string;
}

export function readGatewayAConfig(env: NodeJS.ProcessEnv): GatewayAConfig {
  return {
    proxyUrl: envUrl(env, 'CHECKOUT_PROXY_URL', 'https://proxy.checkout.example', ['http:', 'https:']).replace(/\/$/, ''),
    apiBase: envUrl(env, 'GATEWAY_A_API_BASE', 'https://api.stripe.com', ['http:', 'https:']).replace(/\/$/, ''),
    jsUrl: envScriptUrl(env, 'GATEWAY_A_JS_URL', 'https://js.stripe.com/v3/'),
  };
}

/** Injected in the slice as `@Inject(GATEWAY_A_CONFIG.token) config: GatewayAConfig`. */
export const GATEWAY_A_CONFIG = configSection('GATEWAY_A_CONFIG', readGatewayAConfig);
