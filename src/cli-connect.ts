import type { INestApplicationContext } from '@nestjs/common';
import { createInterface } from 'node:readline';
import type { Readable, Writable } from 'node:stream';
import { APP_CONFIG, type AppConfig, type ConnectSecrets } from './config/index.js';
import { GATEWAY_MODES, type GatewayMode, GatewayRegistry, GatewayStateService } from './modules/gateways/index.js';

/**
 * `gateway-a:connect` and `gateway-b:connect`: connecting a mode with the merchant's own
 * credentials. Secrets come from the environment (ConnectSecrets) or a prompt whose input is not
 * echoed, never from argv; they go straight to the gateway slice's own credential path (reached
 * through the gateway registry) and are never printed. Run in-process by the tests.
 */
export interface ConnectIo {
  secrets: ConnectSecrets;
  /** Asks for one value; `hidden`: the typed characters are not echoed. Null when no one can answer (no terminal). */
  prompt(question: string, options: { hidden: boolean }): Promise<string | null>;
  out(line: string): void;
  err(line: string): void;
}

export class ConnectUsageError extends Error {}

export function parseMode(value: string | undefined): GatewayMode {
  if (!value) throw new ConnectUsageError('--mode is required (test or live)');
  if (!(GATEWAY_MODES as readonly string[]).includes(value)) throw new ConnectUsageError('--mode must be test or live');
  return value as GatewayMode;
}

async function valueOf(io: ConnectIo, fromEnv: string | undefined, variable: string, question: string, hidden: boolean): Promise<string> {
  if (fromEnv) return fromEnv;
  const answer = (await io.prompt(question, { hidden }))?.trim();
  if (!answer) throw new ConnectUsageError(`${variable} is not set and there is no terminal to ask for it`);
  return answer;
}

/** Gateway A: publishable + secret key, checked with the gateway, stored as the connect callback stores them, webhook contract provisioned and verified. */
export async function connectGatewayA(app: INestApplicationContext, mode: GatewayMode, io: ConnectIo): Promise<number> {
  const adapter = app.get(GatewayRegistry).get('gateway_a');
  if (!adapter.keyConnect) throw new Error('gateway A offers no key connect');
  if (app.get<AppConfig>(APP_CONFIG).plan === 'free') {
    io.err('Note: CHECKOUT_PLAN=free sends gateway A calls through CHECKOUT_PROXY_URL with the platform fee; your own keys are meant for CHECKOUT_PLAN=pro.');
  }
  const publishableKey = await valueOf(io, io.secrets.gatewayAPublishableKey, 'GATEWAY_A_PUBLISHABLE_KEY', `Gateway A publishable key (pk_${mode}_…): `, false);
  const secretKey = await valueOf(io, io.secrets.gatewayASecretKey, 'GATEWAY_A_SECRET_KEY', `Gateway A secret key (sk_${mode}_…, not shown): `, true);
  const result = await adapter.keyConnect.connectWithKeys(mode, { publishableKey, secretKey }, 'cli');
  io.out(`Gateway A connected in ${mode} mode (account ${result.accountId}).`);
  const ok = result.webhook.status === 'verified';
  if (ok) io.out(`Webhook endpoint ${result.webhook.endpointId} created and verified: gateway A checkout is open in ${mode} mode.`);
  else io.err(`The webhook endpoint could not be set up (${result.webhook.lastError ?? result.webhook.status}): gateway A checkout stays paused in ${mode} mode. Run the command again, or configure the webhook manually (POST /payment-gateway/save-webhook-settings).`);
  await noteSiteMode(app, 'gateway_a', mode, io);
  return ok ? 0 : 1;
}

/**
 * Gateway B: client id + secret checked by asking the provider for a token and stored by the
 * slice's credential service; the Webhook ID, when given, saved as save-webhook-settings does; then
 * the adapter's own diagnosis asks the provider whether that listener delivers the
 * capture-completed event to this service. Exit 0 only when the credentials work and the listener
 * is verified (the credentials stay saved either way).
 */
export async function connectGatewayB(app: INestApplicationContext, mode: GatewayMode, email: string | undefined, io: ConnectIo): Promise<number> {
  if (!email || !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email)) throw new ConnectUsageError('--email (the gateway B account email, shown to admins) is required');
  const adapter = app.get(GatewayRegistry).get('gateway_b');
  if (!adapter.credentialSettings) throw new Error('gateway B takes no credential settings');
  const clientId = await valueOf(io, io.secrets.gatewayBClientId, 'GATEWAY_B_CLIENT_ID', 'Gateway B client id: ', false);
  const secret = await valueOf(io, io.secrets.gatewayBClientSecret, 'GATEWAY_B_CLIENT_SECRET', 'Gateway B secret (not shown): ', true);
  const view = await adapter.credentialSettings.save(mode, { email, client_id: clientId, secret });
  io.out(`Gateway B connected in ${mode} mode (client id ${view.client_id}, secret ${view.secret}).`);
  if (io.secrets.gatewayBWebhookId) {
    const saved = await adapter.saveWebhookSettings(mode, { webhook_id: io.secrets.gatewayBWebhookId });
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

async function noteSiteMode(app: INestApplicationContext, gateway: 'gateway_a' | 'gateway_b', mode: GatewayMode, io: ConnectIo): Promise<void> {
  const current = await app.get(GatewayStateService).getMode(gateway);
  if (current !== mode) io.err(`Note: ${gateway} takes payments in ${current} mode; POST /payment-gateway/set-mode switches it to ${mode}.`);
}

/**
 * A prompt on a terminal: the question on `output`, the answer read from `input`, and with
 * `hidden` nothing of what is typed echoed back. Null when `input` is not a terminal.
 */
export function terminalPrompt(input: Readable & { isTTY?: boolean } = process.stdin, output: Writable = process.stderr): ConnectIo['prompt'] {
  return (question, { hidden }) => {
    if (!input.isTTY) return Promise.resolve(null);
    return new Promise((resolve) => {
      const rl = createInterface({ input, output, terminal: true });
      let muted = false;
      // readline echoes through _writeToOutput; while muted nothing typed reaches the terminal.
      const internal = rl as unknown as { _writeToOutput(text: string): void };
      const write = internal._writeToOutput.bind(rl);
      internal._writeToOutput = (text: string) => {
        if (!muted) write(text);
      };
      rl.question(question, (answer) => {
        if (hidden) output.write('\n');
        rl.close();
        resolve(answer);
      });
      muted = hidden;
    });
  };
}
