/**
 * The provider credentials `npm run cli -- gateway-a:connect | gateway-b:connect` may take from
 * the environment instead of a prompt. They are read only by those commands (never by the
 * service), never from argv, and never printed.
 */
export interface ConnectSecrets {
  /** GATEWAY_A_SECRET_KEY: `sk_test_…` / `sk_live_…` (or a restricted `rk_…` key) */
  gatewayASecretKey?: string;
  /** GATEWAY_A_PUBLISHABLE_KEY: `pk_test_…` / `pk_live_…` */
  gatewayAPublishableKey?: string;
  /** GATEWAY_B_CLIENT_ID: the REST app's client id */
  gatewayBClientId?: string;
  /** GATEWAY_B_CLIENT_SECRET: the REST app's secret */
  gatewayBClientSecret?: string;
  /** GATEWAY_B_WEBHOOK_ID: the Webhook ID the provider shows for the webhook of this service's URL */
  gatewayBWebhookId?: string;
}

export function readConnectSecrets(env: NodeJS.ProcessEnv = process.env): ConnectSecrets {
  const read = (name: string): string | undefined => {
    const value = env[name]?.trim();
    return value ? value : undefined;
  };
  return {
    gatewayASecretKey: read('GATEWAY_A_SECRET_KEY'),
    gatewayAPublishableKey: read('GATEWAY_A_PUBLISHABLE_KEY'),
    gatewayBClientId: read('GATEWAY_B_CLIENT_ID'),
    gatewayBClientSecret: read('GATEWAY_B_CLIENT_SECRET'),
    gatewayBWebhookId: read('GATEWAY_B_WEBHOOK_ID'),
  };
}
