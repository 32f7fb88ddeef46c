import { configSection, envScriptUrl } from '../../src/config/index.js';

/** Gateway X's own environment variables, read by the slice at boot like gateway A's and B's. */
export interface GatewayXConfig {
  /** GATEWAY_X_JS_URL: where the hosted page loads its browser library; unset, the provider's own `/x.js` */
  jsUrl?: string;
}

export function readGatewayXConfig(env: NodeJS.ProcessEnv): GatewayXConfig {
  return { jsUrl: env.GATEWAY_X_JS_URL ? envScriptUrl(env, 'GATEWAY_X_JS_URL', '') : undefined };
}

export const GATEWAY_X_CONFIG = configSection('GATEWAY_X_CONFIG', readGatewayXConfig);
