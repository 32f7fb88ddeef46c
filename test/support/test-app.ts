import type { DynamicModule, Type } from '@nestjs/common';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { Test } from '@nestjs/testing';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Writable } from 'node:stream';
import { createConnection } from 'mysql2/promise';
import { PARAMS_PROVIDER_TOKEN } from 'nestjs-pino';
import { DataSource } from 'typeorm';
import { AppModule } from '../../src/app.module.js';
import { configureApp } from '../../src/bootstrap.js';
import { loggerOptions } from '../../src/common/logging/index.js';
import { APP_CONFIG, type AppConfig, CONFIG_ENV, loadConfig } from '../../src/config/index.js';
import { buildDataSourceOptions, databaseKind } from '../../src/database/index.js';
import { IdentityService } from '../../src/modules/identity/index.js';
import { InstallationService } from '../../src/modules/settings/index.js';

export const TEST_ADMIN_PASSWORD = 'test-admin-application-password';
export const TEST_SECRET = 'test-checkout-secret-of-at-least-32-bytes!!';

export interface TestUser {
  id: number;
  login: string;
  password: string;
  /** `Authorization` header value */
  auth: string;
}

export interface TestApp {
  app: NestExpressApplication;
  /** The http.Server to hand to supertest */
  http: ReturnType<NestExpressApplication['getHttpServer']>;
  config: AppConfig;
  /** `/wp-json/checkout/v1` */
  base: string;
  admin: TestUser;
  createUser(role: string, login?: string): Promise<TestUser>;
  dataSource: DataSource;
  close(): Promise<void>;
}

let userCounter = 0;

export function basicAuth(login: string, password: string): string {
  return `Basic ${Buffer.from(`${login}:${password}`).toString('base64')}`;
}

/**
 * Boots the whole AppModule against a fresh database: in-memory SQLite by default, or the
 * MySQL/MariaDB of DATABASE_URL (created when missing, emptied first). Under Jest, DATABASE_URL
 * already names this worker's own database (test/setup-env.js). `env` overrides configuration
 * variables. `keepDatabase` starts a second instance on the same MySQL database without emptying it.
 * `logStream` receives the service's log lines (JSON, one per line, at `LOG_LEVEL` or info), the
 * request log included; the first app of a test file decides where service lines go (nestjs-pino
 * keeps one process logger). `modules` are imported beside AppModule: the one way a test adds code
 * the production application does not have, e.g. the test-only gateway slice of test/gateway-x/
 * (a slice's module registers its catalog entry, adapter, routes and webhook verifier itself, so
 * importing it is all a test needs; src/app.module.ts stays as it is).
 */
export async function startTestApp(
  env: Record<string, string | undefined> = {},
  options: { keepDatabase?: boolean; logStream?: Writable; modules?: Array<Type | DynamicModule> } = {},
): Promise<TestApp> {
  const dataDir = mkdtempSync(join(tmpdir(), 'checkout-test-'));
  // The configuration's whole environment: the core reads it here, each gateway slice its own variables of it (CONFIG_ENV).
  const environment: NodeJS.ProcessEnv = {
    CHECKOUT_SECRET: TEST_SECRET,
    CHECKOUT_ADMIN_PASSWORD: TEST_ADMIN_PASSWORD,
    DATABASE_URL: process.env.DATABASE_URL || 'sqlite::memory:',
    DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    PUBLIC_BASE_URL: 'http://checkout.test',
    ...env,
  };
  const config = loadConfig(environment);
  if (databaseKind(config) === 'mysql' && !options.keepDatabase) await emptyDatabase(config);

  let builder = Test.createTestingModule({ imports: [AppModule, ...(options.modules ?? [])] })
    .overrideProvider(CONFIG_ENV)
    .useValue(environment)
    .overrideProvider(APP_CONFIG)
    .useValue(config);
  if (options.logStream) {
    const level = env.LOG_LEVEL ?? 'info';
    builder = builder.overrideProvider(PARAMS_PROVIDER_TOKEN).useValue({ pinoHttp: { ...(loggerOptions({ logLevel: level }).pinoHttp as object), stream: options.logStream } });
  }
  const moduleRef = await builder.compile();
  const app = moduleRef.createNestApplication<NestExpressApplication>({ bodyParser: false, logger: false });
  configureApp(app);
  try {
    await app.init();
  } catch (error) {
    // A refused boot (e.g. the secret canary) must not leave its database and Redis handles open.
    await app.close().catch(() => undefined);
    throw error;
  }

  const identity = app.get(IdentityService);
  const adminUser = await identity.findUserByLogin('admin');
  const admin: TestUser = { id: adminUser.id, login: 'admin', password: TEST_ADMIN_PASSWORD, auth: basicAuth('admin', TEST_ADMIN_PASSWORD) };

  return {
    app,
    http: app.getHttpServer(),
    config,
    base: `/${config.restRoot}/checkout/v1`,
    admin,
    dataSource: app.get(DataSource),
    async createUser(role: string, login = `${role}${++userCounter}`): Promise<TestUser> {
      const user = await identity.createUser({ login, email: `${login}@example.test`, role });
      const { password } = await identity.createApplicationPassword(user.id, 'test');
      return { id: user.id, login, password, auth: basicAuth(login, password) };
    },
    async close(): Promise<void> {
      await app.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * Creates the MySQL/MariaDB test database when missing (a worker's first test file) and drops
 * every table of it, so each test file starts clean.
 */
async function emptyDatabase(config: AppConfig): Promise<void> {
  const options = buildDataSourceOptions(config);
  if (options.type !== 'mysql') throw new Error('emptyDatabase is for MySQL/MariaDB');
  const server = await createConnection({ host: options.host, port: options.port, user: options.username, password: options.password });
  try {
    await server.query('CREATE DATABASE IF NOT EXISTS ??', [options.database]);
  } finally {
    await server.end();
  }
  const dataSource = new DataSource({ ...options, migrationsRun: false });
  await dataSource.initialize();
  try {
    await dataSource.dropDatabase();
  } finally {
    await dataSource.destroy();
  }
}

/** The installation id of an app (it prefixes every gateway idempotency key and marks its gateway objects). */
export function installationIdOf(t: TestApp): string {
  return t.app.get(InstallationService).id();
}
