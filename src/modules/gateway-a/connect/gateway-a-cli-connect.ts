import type { INestApplicationContext } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../../../config/index.js';
import { type ConnectIo, connectValue, type GatewayConnectCommand, type GatewayMode, GatewayRegistry, noteSiteMode } from '../../gateways/index.js';

/** Gateway A: publishable + secret key, checked with the gateway, stored as the connect callback stores them, webhook contract provisioned and verified. */
export async function connectGatewayA(app: INestApplicationContext, mode: GatewayMode, io: ConnectIo): Promise<number> {
  const adapter = app.get(GatewayRegistry).get('gateway_a');
  if (!adapter.keyConnect) throw new Error('gateway A offers no key connect');
  if (app.get<AppConfig>(APP_CONFIG).plan === 'free') {
    io.err('Note: CHECKOUT_PLAN=free sends gateway A calls through CHECKOUT_PROXY_URL with the platform fee; your own keys are meant for CHECKOUT_PLAN=pro.');
  }
  const publishableKey = await connectValue(io, 'GATEWAY_A_PUBLISHABLE_KEY', `Gateway A publishable key (pk_${mode}_…): `, false);
  const secretKey = await connectValue(io, 'GATEWAY_A_SECRET_KEY', `Gateway A secret key (sk_${mode}_…, not shown): `, true);
  const result = await adapter.keyConnect.connectWithKeys(mode, { publishableKey, secretKey }, 'cli');
  io.out(`Gateway A connected in ${mode} mode (account ${result.accountId}).`);
  const ok = result.webhook.status === 'verified';
  if (ok) io.out(`Webhook endpoint ${result.webhook.endpointId} created and verified: gateway A checkout is open in ${mode} mode.`);
  else io.err(`The webhook endpoint could not be set up (${result.webhook.lastError ?? result.webhook.status}): gateway A checkout stays paused in ${mode} mode. Run the command again, or configure the webhook manually (POST /payment-gateway/save-webhook-settings).`);
  await noteSiteMode(app, 'gateway_a', mode, io);
  return ok ? 0 : 1;
}

/** `npm run cli -- gateway-a:connect --mode <test|live>` (the `connect` of gateway A's slice). */
export const GATEWAY_A_CONNECT_COMMAND: GatewayConnectCommand = {
  name: 'gateway-a:connect',
  usage: `  gateway-a:connect --mode <test|live>                  connects gateway A with your own keys: GATEWAY_A_PUBLISHABLE_KEY and
                                                        GATEWAY_A_SECRET_KEY from the environment, else asked (not echoed);
                                                        checks them, stores them, provisions and verifies the webhook endpoint`,
  run: (app, mode, _options, io) => connectGatewayA(app, mode, io),
};
