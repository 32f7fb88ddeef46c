import { startFakeGatewayA } from './fake-gateway-a.js';
import { serveUntilSignalled } from '../loopback-server.js';

/**
 * A local demo of the service without the real gateway: `npm run build`, then
 * `node dist/test/fakes/gateway-a/serve.js [port]` (default 12111), and start the service with
 * CHECKOUT_PROXY_URL (and GATEWAY_A_API_BASE) set to the printed origin. The OAuth page approves
 * every connect; requests are printed as they arrive.
 */
async function main(): Promise<void> {
  const port = Number(process.argv[2] ?? 12111);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error('usage: serve.js [port]');
  const fake = await startFakeGatewayA({}, port);
  process.stdout.write(`Fake gateway A listening at ${fake.url}\n`);
  serveUntilSignalled(fake, () => fake.requests);
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
