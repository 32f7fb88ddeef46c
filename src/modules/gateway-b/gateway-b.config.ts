import { configSection, envInteger, envScriptUrl, envUrl } from '../../config/index.js';

/** Gateway B's own environment variables (README "Configuration"), read by the slice at boot. */
export interface GatewayBConfig {
  /** GATEWAY_B_API_BASE_TEST: the REST API origin of the sandbox */
  apiBaseTest: string;
  /** GATEWAY_B_API_BASE_LIVE: the REST API origin of live */
  apiBaseLive: string;
  /** GATEWAY_B_JS_URL: the browser library the hosted payment page loads (PayPal JS SDK, without query) */
  jsUrl: string;
  /** Bounds on the webhook verification, which costs a provider call (docs/gateway-b.md). */
  webhook: {
    /** GATEWAY_B_WEBHOOK_TOLERANCE_SECONDS: a PAYPAL-TRANSMISSION-TIME further from now (either way) is refused without a call. */
    toleranceSeconds: number;
    /** GATEWAY_B_WEBHOOK_VERIFY_CONCURRENCY: verify-webhook-signature calls in flight per instance at most. */
    verifyConcurrency: number;
  };
}

export function readGatewayBConfig(env: NodeJS.ProcessEnv): GatewayBConfig {
  return {
    apiBaseTest: envUrl(env, 'GATEWAY_B_API_BASE_TEST', 'https://api-m.sandbox.paypal.com', ['http:', 'https:']).replace(/\/$/, ''),
    apiBaseLive: envUrl(env, 'GATEWAY_B_API_BASE_LIVE', 'https://api-m.paypal.com', ['http:', 'https:']).replace(/\/$/, ''),
    jsUrl: envScriptUrl(env, 'GATEWAY_B_JS_URL', 'https://www.paypal.com/sdk/js'),
    webhook: {
      toleranceSeconds: envInteger(env, 'GATEWAY_B_WEBHOOK_TOLERANCE_SECONDS', 300, { min: 30, max: 3600 }),
      verifyConcurrency: envInteger(env, 'GATEWAY_B_WEBHOOK_VERIFY_CONCURRENCY', 4, { min: 1, max: 64 }),
    },
  };
}

/** Injected in the slice as `@Inject(GATEWAY_B_CONFIG.token) config: GatewayBConfig`. */
export const GATEWAY_B_CONFIG = configSection('GATEWAY_B_CONFIG', readGatewayBConfig);
