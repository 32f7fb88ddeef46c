import 'reflect-metadata';
import { BootError } from './common/errors/index.js';
import { ConfigError, loadConfig } from './config/index.js';
import { createApp, restPrefix } from './bootstrap.js';
import { limitHeapGrowth } from './heap-growth.js';

async function main(): Promise<void> {
  limitHeapGrowth();
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
  try {
    const app = await createApp();
    await app.listen(config.port, config.host);
  } catch (error) {
    // A refusal to start (e.g. the master secret does not match the database): the message says
    // what to fix and holds no secret; a stack trace would only bury it.
    if (error instanceof BootError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
  const base = config.publicBaseUrl;
  process.stdout.write(`Checkout API listening on ${config.host}:${config.port}\n  REST: ${base}/${restPrefix(config)}\n  Docs: ${base}/docs\n`);
}

void main();
