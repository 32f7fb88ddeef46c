import 'reflect-metadata';
import { ConfigError, loadConfig } from './config/index.js';
import { createApp, restPrefix } from './bootstrap.js';

async function main(): Promise<void> {
  let config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
  const app = await createApp();
  await app.listen(config.port, config.host);
  const base = config.publicBaseUrl;
  process.stdout.write(`Checkout API listening on ${config.host}:${config.port}\n  REST: ${base}/${restPrefix(config)}\n  Docs: ${base}/docs\n`);
}

void main();
