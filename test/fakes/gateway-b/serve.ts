import { startFakeGatewayB } from './fake-gateway-b.js';
import { serveUntilSignalled } from '../loopback-server.js';

/**
 * A local demo of the service without PayPal: `npm run build`, then
 * `node dist/test/fakes/gateway-b/serve.js [port] [sandbox|live]` (default 12112, sandbox), and
 * start the service with GATEWAY_B_API_BASE_TEST (or _LIVE) set to the printed origin. The
 * printed client id, secret and webhook id are the ones to save in the admin. The approval page
 * (`/checkoutnow?token=…`) approves every order; requests are printed as they arrive.
 */
async function main(): Promise<void> {
  const port = Number(process.argv[2] ?? 12112);
  const environment = process.argv[3] ?? 'sandbox';
  if (!Number.isInteger(port) || port < 0 || port > 65535 || (environment !== 'sandbox' && environment !== 'live')) {
    throw new Error('usage: serve.js [port] [sandbox|live]');
  }
  const fake = await startFakeGatewayB({ environment }, port);
  process.stdout.write(
    `Fake gateway B (${environment}) listening at ${fake.url}\n  client id:  ${fake.clientId}\n  secret:     ${fake.clientSecret}\n  webhook id: ${fake.webhookId}\n`,
  );
  serveUntilSignalled(fake, () => fake.calls);
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
