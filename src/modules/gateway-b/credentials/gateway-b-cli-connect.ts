import type { INestApplicationContext } from '@nestjs/common';
import { type ConnectIo, connectEnv, ConnectUsageError, connectValue, type GatewayConnectCommand, type GatewayMode, GatewayRegistry, noteSiteMode } from '../../gateways/index.js';

/**
 * Gateway B: client id + secret checked by asking the provider for a token and stored by the
 * slice's credential service; the Webhook ID (GATEWAY_B_WEBHOOK_ID), when given, saved as
 * save-webhook-settings does; then the adapter's own diagnosis asks the provider whether that
 * listener delivers the capture-completed event to this service. Exit 0 only when the credentials
 * work and the listener is verified (the credentials stay saved either way).
 */
export async function connectGatewayB(app: INestApplicationContext, mode: GatewayMode, email: string | undefined, io: ConnectIo): Promise<number> {
  if (!email || !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email)) throw new ConnectUsageError('--email (the gateway B account email, shown to admins) is required');
  const adapter = app.get(GatewayRegistry).get('gateway_b');
  if (!adapter.credentialSettings) throw new Error('gateway B takes no credential settings');
  const clientId = await connectValue(io, 'GATEWAY_B_CLIENT_ID', 'Gateway B client id: ', false);
  const secret = await connectValue(io, 'GATEWAY_B_CLIENT_SECRET', 'Gateway B secret (not shown): ', true);
  const view = await adapter.credentialSettings.save(mode, { email, client_id: clientId, secret });
  io.out(`Gateway B connected in ${mode} mode (client id ${view.client_id}, secret ${view.secret}).`);
  const webhookId = connectEnv(io, 'GATEWAY_B_WEBHOOK_ID');
  if (webhookId) {
    const saved = await adapter.saveWebhookSettings(mode, { webhook_id: webhookId });
    io.out(`Webhook ID ${saved.webhook_id} saved.`);
  }
  const checks = adapter.diagnose ? await adapter.diagnose(mode) : [];
  const webhook = checks.find((check) => check.check.endsWith('webhook'));
  for (const check of checks) {
    const line = `${check.status}: ${check.message}${check.fix ? ` (fix: ${check.fix})` : ''}`;
    if (check.status === 'ok') io.out(line);
    else io.err(line);
  }
  await noteSiteMode(app, 'gateway_b', mode, io);
  return webhook?.status === 'ok' && checks.every((check) => check.status === 'ok') ? 0 : 1;
}

/** `npm run cli -- gateway-b:connect --mode <test|live> --email <email>` (the `connect` of gateway B's slice). */
export const GATEWAY_B_CONNECT_COMMAND: GatewayConnectCommand = {
  name: 'gateway-b:connect',
  usage: `  gateway-b:connect --mode <test|live> --email <email>  connects gateway B: GATEWAY_B_CLIENT_ID and GATEWAY_B_CLIENT_SECRET from the
                                                        environment, else asked (not echoed); GATEWAY_B_WEBHOOK_ID saved and its
                                                        listener verified with the gateway`,
  run: (app, mode, options, io) => connectGatewayB(app, mode, options.email, io),
};
