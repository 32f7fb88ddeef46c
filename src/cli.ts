import 'reflect-metadata';
import { Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { parseArgs } from 'node:util';
import { CryptoModule } from './common/crypto/index.js';
import { DomainError } from './common/errors/index.js';
import { RedisModule } from './common/redis/index.js';
import { ConfigError, ConfigModule } from './config/index.js';
import { DatabaseModule } from './database/index.js';
import { IdentityModule, IdentityService } from './modules/identity/index.js';

const USAGE = `Usage: npm run cli -- <command> [options]
  user:create      --login <login> --email <email> --role <administrator|editor|author|subscriber>
  password:create  --login <login> [--name <label>]     prints the new application password once
  password:list    --login <login>
  password:revoke  --login <login> --uuid <uuid>`;

/** The slice of the app the CLI needs: configuration, database (migrations applied) and identity. */
@Module({ imports: [ConfigModule, CryptoModule, RedisModule, DatabaseModule, IdentityModule] })
class CliModule {}

async function run(argv: string[]): Promise<number> {
  const { positionals, values } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: { login: { type: 'string' }, email: { type: 'string' }, role: { type: 'string' }, name: { type: 'string' }, uuid: { type: 'string' } },
  });
  const command = positionals[0];
  const required = (key: keyof typeof values): string => {
    const value = values[key];
    if (!value) throw new UsageError(`--${key} is required`);
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

class UsageError extends Error {}

run(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    if (error instanceof UsageError) console.error(`${error.message}\n\n${USAGE}`);
    else if (error instanceof ConfigError || error instanceof DomainError) console.error(error.message);
    else console.error(error instanceof Error ? error.message : error);
    process.exit(error instanceof UsageError ? 2 : 1);
  },
);
