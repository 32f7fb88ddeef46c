import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createConnection } from 'mysql2/promise';
import request from 'supertest';
import { runBackupCommand } from '../../src/cli-secrets.js';
import { OptionsService } from '../../src/modules/settings/index.js';
import { gatewayAOption } from '../../src/modules/gateway-a/index.js';
import { WebhookEventRepository } from '../../src/modules/webhooks/webhook-event.repository.js';
import { connectGateway, createPaymentForm, type SyncAnswer } from '../support/payment-fixtures.js';
import { peerDatabaseUrl } from '../support/peer-database.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

const onMariadb = /^(mysql|mariadb):/.test(process.env.DATABASE_URL ?? '');
const hasMariadbClients = !spawnSync('mariadb-dump', ['--version'], { stdio: 'ignore' }).error && !spawnSync('mariadb', ['--version'], { stdio: 'ignore' }).error;
// On MariaDB the drill needs mariadb-dump and the mariadb client (the backup command runs the first, a restore the second).
const drill = !onMariadb || hasMariadbClients ? describe : describe.skip;
if (onMariadb && !hasMariadbClients) console.warn('restore drill skipped on MariaDB: mariadb-dump or the mariadb client is not on PATH');

/** A new, empty database beside this worker's (dropped first if a previous run left it). */
async function emptyPeerDatabase(): Promise<string> {
  const databaseUrl = await peerDatabaseUrl('restored');
  const url = new URL(databaseUrl);
  const name = url.pathname.replace(/^\//, '');
  const server = await createConnection({ host: url.hostname, port: Number(url.port || 3306), user: decodeURIComponent(url.username), password: decodeURIComponent(url.password) });
  try {
    await server.query('DROP DATABASE IF EXISTS ??', [name]);
    await server.query('CREATE DATABASE ??', [name]);
  } finally {
    await server.end();
  }
  return databaseUrl;
}

/** docs/operations.md "Restore" for MariaDB: `mariadb <database> < dump.sql`. */
function restoreDump(databaseUrl: string, dumpFile: string): void {
  const url = new URL(databaseUrl);
  const args = [`--host=${url.hostname}`, `--port=${url.port || '3306'}`, `--user=${decodeURIComponent(url.username)}`, url.pathname.replace(/^\//, '')];
  const result = spawnSync('mariadb', args, { input: readFileSync(dumpFile), env: { ...process.env, MYSQL_PWD: decodeURIComponent(url.password) } });
  if (result.status !== 0) throw new Error(`mariadb restore failed: ${result.stderr.toString()}`);
}

/**
 * The restore drill of docs/operations.md: payments and provider events on an installation whose
 * master secret is the generated `secret.key`, a backup through the CLI's command, then the backup
 * and the key file (kept apart: the backup holds neither) restored into an empty data folder and
 * database, where a new boot finds every payment and event and opens the gateway credential.
 */
drill('restore drill: backup, restore into an empty database with its secret, boot, find everything', () => {
  const work = mkdtempSync(join(tmpdir(), 'checkout-drill-'));
  const source = { dataDir: join(work, 'source'), backups: join(work, 'backups'), restored: join(work, 'restored') };
  let t: TestApp;
  const payments: number[] = [];
  const events = ['evt_drill_1', 'evt_drill_2', 'evt_drill_3'];

  beforeAll(async () => {
    // No CHECKOUT_SECRET: the key file under DATA_DIR; on SQLite the database file is there too.
    t = await startTestApp({ CHECKOUT_SECRET: undefined, DATA_DIR: source.dataDir, DATABASE_URL: onMariadb ? process.env.DATABASE_URL : undefined });
    await connectGateway(t, 'gateway_a', 'test');
    const form = await createPaymentForm(t);
    for (let i = 0; i < 3; i++) {
      const res = await request(t.http).post(`${t.base}/payment/sync-details`).send({ form_id: form.id, payment_gateway: 'gateway_a', payment_method: 'ccard' });
      expect(res.status).toBe(201);
      payments.push((res.body as SyncAnswer).payment_id);
    }
    const store = t.app.get(WebhookEventRepository);
    for (const [i, eventId] of events.entries()) {
      const outcome = await store.recordEventOnce({ provider: 'gateway_a', eventId, type: 'payment_intent.succeeded', mode: 'test' });
      if (outcome.recorded) await store.markOutcome(outcome.event.id, 'processed', payments[i]);
    }
  });
  afterAll(async () => {
    await t?.close();
    rmSync(work, { recursive: true, force: true });
  });

  it('restores every payment and event, and the gateway credential opens with the restored key file', async () => {
    const lines: string[] = [];
    const backupFile = join(source.backups, onMariadb ? 'drill.sql' : 'drill.sqlite');
    mkdirSync(source.backups, { recursive: true });
    // The backup runs while the service is up (SQLite's online backup; mariadb-dump --single-transaction).
    expect(await runBackupCommand(t.config, backupFile, { out: (line) => lines.push(line), err: (line) => lines.push(line) })).toBe(0);
    expect(statSync(backupFile).mode & 0o777).toBe(0o600);
    expect(lines.join('\n')).toContain('secret.key separately');
    const key = readFileSync(join(source.dataDir, 'secret.key'), 'utf8').trim();
    expect(readFileSync(backupFile).includes(key)).toBe(false);
    await t.close();

    // Restore into an empty data folder (and, on MariaDB, an empty database): the backup, then the key file.
    mkdirSync(source.restored, { recursive: true });
    let databaseUrl: string | undefined;
    if (onMariadb) {
      databaseUrl = await emptyPeerDatabase();
      restoreDump(databaseUrl, backupFile);
    } else {
      copyFileSync(backupFile, join(source.restored, 'checkout.sqlite'));
    }
    copyFileSync(join(source.dataDir, 'secret.key'), join(source.restored, 'secret.key'));

    t = await startTestApp({ CHECKOUT_SECRET: undefined, DATA_DIR: source.restored, DATABASE_URL: databaseUrl }, { keepDatabase: true });
    const listed = await request(t.http).get(`${t.base}/administration/payments`).query({ per_page: 100 }).set('Authorization', t.admin.auth);
    expect(listed.status).toBe(200);
    expect((listed.body as Array<{ id: number }>).map((payment) => payment.id).sort((a, b) => a - b)).toEqual(payments);
    const received = await request(t.http).get(`${t.base}/administration/webhook-events`).query({ per_page: 100 }).set('Authorization', t.admin.auth);
    expect(received.status).toBe(200);
    expect((received.body as Array<{ event_id: string; payment_id: number }>).map((event) => [event.event_id, event.payment_id]).sort()).toEqual(events.map((id, i) => [id, payments[i]]));
    expect(await t.app.get(OptionsService).getSecret(gatewayAOption.credential('test', 'secret_key'))).toBe('sk_test_1234567890');
  });
});
