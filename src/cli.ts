import 'reflect-metadata';
import { Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { parseArgs } from 'node:util';
import { CryptoModule } from './common/crypto/index.js';
import { DomainError } from './common/errors/index.js';
import { RedisModule } from './common/redis/index.js';
import { ShutdownModule } from './common/shutdown/index.js';
import { BootError } from './common/errors/index.js';
import { ConfigError, ConfigModule, loadConfig } from './config/index.js';
import { terminalPrompt } from './cli-connect.js';
import { runBackupCommand, runRotateSecretCommand } from './cli-secrets.js';
import { parseReconcileArguments, parseSince, type ReconcileRequest, ReconcileUsageError, runReconcileCommand } from './cli-reconcile.js';
import { DatabaseModule } from './database/index.js';
import { checkGatewaySliceConfig, ConnectUsageError, type GatewayConnectCommand, gatewayConnectCommands, parseMode } from './modules/gateways/index.js';
import { IdentityModule, IdentityService } from './modules/identity/index.js';
import { databasePreflight, type DoctorCheck, DoctorService, formatDoctorCheck } from './modules/operations/index.js';

const USAGE = `Usage: npm run cli -- <command> [options]
  user:create      --login <login> --email <email> --role <administrator|editor|support|viewer|author|subscriber>
  password:create  --login <login> [--name <label>]     prints the new application password once
  password:list    --login <login>
  password:revoke  --login <login> --uuid <uuid>
  reconcile        [--since <date|7d|24h>] [--min-age <30s|10m|2h|7d>]
                                                        re-reads waiting payments from their provider, prints what changed:
                                                        those created since --since (default 30 days) and untouched for
                                                        --min-age (default 5 minutes)
  reconcile        --payment <id>                       that payment only, at once, whatever its age (a webhook you know was lost)
  doctor                                                checks the configuration and the world around it (exit 1 on a fail)
  backup           [--out <file>]                       SQLite: an online copy of the database file; MariaDB: runs mariadb-dump
                                                        --single-transaction (prints the line when it is not on PATH). Never the secret
  search-terms     [--since <date|7d|24h>]              writes again the admin search's terms of the payments updated since --since
                                                        (default 1d): after a rolling deploy onto the release that added them, once
                                                        the last instance of the previous release has stopped (docs/decisions.md §25)
  rotate-secret    [--list-stale]                       seals every stored secret again under CHECKOUT_SECRET (with CHECKOUT_SECRET_PREVIOUS
                                                        set), then lists what still needs the previous secret; --list-stale only lists`;

const CORE_COMMANDS = ['user:create', 'password:create', 'password:list', 'password:revoke', 'reconcile', 'doctor', 'backup', 'rotate-secret', 'search-terms'];

/** The gateway slices' connect commands (each slice registers its own); loading them loads the application's modules. */
async function connectCommands(): Promise<GatewayConnectCommand[]> {
  await import('./app.module.js');
  return gatewayConnectCommands();
}

/** The usage text: the core commands, then each slice's connect command. */
async function usage(): Promise<string> {
  return [USAGE, ...(await connectCommands()).map((command) => command.usage)].join('\n');
}

/** The slice of the app the CLI needs: configuration, database (migrations applied) and identity. */
// ShutdownModule: the outbox worker that IdentityModule brings (account emails) reads its state.
@Module({ imports: [ConfigModule, CryptoModule, RedisModule, ShutdownModule, DatabaseModule, IdentityModule] })
class CliModule {}

async function run(argv: string[]): Promise<number> {
  const { positionals, values } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      login: { type: 'string' },
      email: { type: 'string' },
      role: { type: 'string' },
      name: { type: 'string' },
      uuid: { type: 'string' },
      since: { type: 'string' },
      'min-age': { type: 'string' },
      payment: { type: 'string' },
      mode: { type: 'string' },
      out: { type: 'string' },
      'list-stale': { type: 'boolean' },
    },
  });
  const command = positionals[0];
  if (command === 'doctor') return doctor();
  if (command === 'backup') return runBackupCommand(loadConfig(), values.out, io);
  if (command === 'rotate-secret') return rotateSecret(Boolean(values['list-stale']));
  if (command === 'search-terms') return searchTerms(parseSince(values.since ?? '1d'));
  if (command === 'reconcile') return reconcile(parseReconcileArguments({ since: values.since, minAge: values['min-age'], payment: values.payment }));
  const connectCommand = command && !CORE_COMMANDS.includes(command) ? (await connectCommands()).find((candidate) => candidate.name === command) : undefined;
  if (connectCommand) {
    // A key typed as an argument would stay in the shell history and the process list; it is refused, never echoed.
    if (positionals.length > 1) throw new UsageError(`${connectCommand.name} takes no arguments besides its options: keys come from the environment or the prompt, never the command line`);
    return connect(connectCommand, values.mode, values.email);
  }
  const required = (key: keyof typeof values): string => {
    const value = values[key];
    if (typeof value !== 'string' || !value) throw new UsageError(`--${key} is required`);
    return value;
  };
  if (!command || !['user:create', 'password:create', 'password:list', 'password:revoke'].includes(command)) {
    throw new UsageError(command ? `unknown command ${command}` : 'a command is required');
  }

  const app = await NestFactory.createApplicationContext(CliModule, { logger: ['error'] });
  try {
    const identity = app.get(IdentityService);
    switch (command) {
      case 'user:create': {
        const email = required('email');
        if (!/^[^\s@]+@[^\s@]+$/.test(email)) throw new UsageError('--email must be an email address');
        const user = await identity.createUser({ login: required('login'), email, role: required('role') });
        console.log(`Created user ${user.login} (id ${user.id}, role ${user.role}).`);
        break;
      }
      case 'password:create': {
        const user = await identity.findUserByLogin(required('login'));
        const { uuid, password } = await identity.createApplicationPassword(user.id, values.name ?? 'cli');
        console.log(`Application password ${uuid} for ${user.login} (shown only this once):\n${password}`);
        break;
      }
      case 'password:list': {
        const user = await identity.findUserByLogin(required('login'));
        console.table(await identity.listApplicationPasswords(user.id));
        break;
      }
      case 'password:revoke': {
        const user = await identity.findUserByLogin(required('login'));
        if (!(await identity.revokeApplicationPassword(user.id, required('uuid')))) {
          console.error('No such application password for that user.');
          return 1;
        }
        console.log('Revoked.');
        break;
      }
    }
    return 0;
  } finally {
    await app.close();
  }
}

/** `search-terms`: the admin search's terms of the payments updated since `since`, written again (PaymentSearchIndex). */
async function searchTerms(since: Date): Promise<number> {
  const { AppModule } = await import('./app.module.js');
  const { PaymentSearchIndex } = await import('./modules/payments/index.js');
  const app = await NestFactory.createApplicationContext(AppModule, { logger: ['error'] });
  try {
    const done = await app.get(PaymentSearchIndex).catchUp(since, (count) => io.err(`… ${count} payments`));
    io.out(`Search terms written again for ${done} payment(s) updated since ${since.toISOString()}.`);
    return 0;
  } finally {
    await app.close();
  }
}

/** `reconcile` (cli-reconcile.ts) in the full application: every gateway slice and its reconciler. */
async function reconcile(request: ReconcileRequest): Promise<number> {
  const { AppModule } = await import('./app.module.js');
  const app = await NestFactory.createApplicationContext(AppModule, { logger: ['error'] });
  try {
    return await runReconcileCommand(app, request, { out: (line) => console.log(line), err: (line) => console.error(line) });
  } finally {
    await app.close();
  }
}

/**
 * A slice's `<gateway>:connect`: in the full application (the gateway slices and their credential
 * paths); secrets from the environment or a prompt without echo, never from argv.
 */
async function connect(command: GatewayConnectCommand, modeArgument: string | undefined, email: string | undefined): Promise<number> {
  const mode = parseMode(modeArgument);
  const { AppModule } = await import('./app.module.js');
  const app = await NestFactory.createApplicationContext(AppModule, { logger: ['error'] });
  try {
    const io = { env: process.env, prompt: terminalPrompt(), out: (line: string) => console.log(line), err: (line: string) => console.error(line) };
    return await command.run(app, mode, { email }, io);
  } finally {
    await app.close();
  }
}

/** `rotate-secret` (cli-secrets.ts) in the full application: every module's stored secrets. */
async function rotateSecret(listOnly: boolean): Promise<number> {
  loadConfig(); // a bad variable (CHECKOUT_SECRET_PREVIOUS equal to the secret...) in one line, before the application starts
  const { AppModule } = await import('./app.module.js');
  const app = await NestFactory.createApplicationContext(AppModule, { logger: ['error'] });
  try {
    return await runRotateSecretCommand(app, { listOnly }, io);
  } finally {
    await app.close();
  }
}

/** `doctor`: the database first (starting the application would apply migrations), then the rest. */
async function doctor(): Promise<number> {
  const config = loadConfig();
  const { AppModule } = await import('./app.module.js');
  checkGatewaySliceConfig(process.env);
  const checks: DoctorCheck[] = [{ name: 'configuration', status: 'ok', message: 'every variable is valid' }];
  const print = () => {
    for (const check of checks) console.log(formatDoctorCheck(check));
    return checks.some((check) => check.status === 'fail') ? 1 : 0;
  };
  checks.push(await databasePreflight(config));
  if (checks.some((check) => check.status === 'fail')) return print();
  let app;
  try {
    app = await NestFactory.createApplicationContext(AppModule, { logger: false });
  } catch (error) {
    if (!(error instanceof BootError)) throw error;
    checks.push({ name: 'secret canary', status: 'fail', message: error.message });
    return print();
  }
  try {
    checks.push(...(await app.get(DoctorService).run()));
  } finally {
    await app.close();
  }
  return print();
}

class UsageError extends Error {}

const io = { out: (line: string) => console.log(line), err: (line: string) => console.error(line) };

run(process.argv.slice(2)).then(
  (code) => process.exit(code),
  async (error: unknown) => {
    if (error instanceof UsageError || error instanceof ConnectUsageError || error instanceof ReconcileUsageError) console.error(`${error.message}\n\n${await usage()}`);
    else if (error instanceof DomainError) console.error([error.message, ...Object.values((error.data.params ?? {}) as Record<string, string>).map((text) => `  ${text}`)].join('\n'));
    else if (error instanceof ConfigError || error instanceof BootError) console.error(error.message);
    else console.error(error instanceof Error ? error.message : error);
    process.exit(error instanceof UsageError || error instanceof ConnectUsageError || error instanceof ReconcileUsageError ? 2 : 1);
  },
);
