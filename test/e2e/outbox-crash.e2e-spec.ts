import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { loadConfig } from '../../src/config/index.js';
import { buildDataSourceOptions } from '../../src/database/index.js';
import { signPayload } from '../fakes/gateway-a/index.js';
import { connectGateway, createPaymentForm, type SyncAnswer } from '../support/payment-fixtures.js';
import { type ServiceBuild, buildServiceForTest } from '../support/service-build.js';
import { ServiceProcess, stopAllServices } from '../support/service-process.js';
import { sharedDatabaseUrl } from '../support/shared-database.js';
import { SmtpSink } from '../support/smtp-sink.js';
import { basicAuth, installationIdOf, startTestApp, TEST_ADMIN_PASSWORD, TEST_SECRET } from '../support/test-app.js';

/**
 * Work after a commit survives a crash between the commit and the work: the service runs as a
 * separate process (a real SIGKILL), the send is caught in flight (the SMTP server holds the DATA
 * phase; the features API holds its answer), the process is killed, and a restarted one finds the
 * due work and does it. Delivery is at least once: whatever arrives twice carries the same
 * Message-ID / Idempotency-Key. SQLite file or the suite's MariaDB database.
 */

const REST = '/wp-json/checkout/v1';
const PUBLIC_BASE_URL = 'http://checkout.test';

interface Forwarded {
  idempotencyKey: string | undefined;
  body: string;
  answered: boolean;
}

/** A features API whose answers a test holds back (`hold`) or gives (200). */
async function startFeaturesApi(): Promise<{ url: string; received: Forwarded[]; hold: boolean; close(): Promise<void> }> {
  const held: ServerResponse[] = [];
  const api = {
    url: '',
    received: [] as Forwarded[],
    hold: true,
    close: () =>
      new Promise<void>((resolve) => {
        for (const res of held) res.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const entry: Forwarded = { idempotencyKey: req.headers['idempotency-key'] as string | undefined, body: Buffer.concat(chunks).toString('utf8'), answered: false };
      api.received.push(entry);
      if (api.hold) return void held.push(res);
      entry.answered = true;
      res.writeHead(200, { 'Content-Type': 'application/json' }).end('{"ok":true}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  api.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/interest`;
  return api;
}

async function until(what: string, done: () => boolean | Promise<boolean>, timeoutMs = 30_000): Promise<void> {
  const giveUpAt = Date.now() + timeoutMs;
  while (!(await done())) {
    if (Date.now() > giveUpAt) throw new Error(`${what} did not happen within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('work after a commit survives a kill -9 between the commit and the work', () => {
  let build: ServiceBuild;
  let sink: SmtpSink;
  let features: Awaited<ReturnType<typeof startFeaturesApi>>;
  let databaseUrl: string;
  let db: DataSource;
  let installationId: string;
  let webhookSecret: string;
  let paymentId: number;
  const dataDirs: string[] = [];

  const prefix = 'wp_';
  const start = (name: string) => {
    const dataDir = mkdtempSync(join(tmpdir(), `checkout-crash-${name}-`));
    dataDirs.push(dataDir);
    return ServiceProcess.start(
      name,
      {
        DATABASE_URL: databaseUrl,
        SMTP_URL: sink.url,
        FEATURES_API_URL: features.url,
        PUBLIC_BASE_URL,
        CHECKOUT_SECRET: TEST_SECRET,
        CHECKOUT_ADMIN_PASSWORD: TEST_ADMIN_PASSWORD,
        DATA_DIR: dataDir,
        LOG_LEVEL: 'info',
        RECONCILE_INTERVAL_SECONDS: '0',
        // A killed worker's claim lapses after 2 s; the restarted instance looks every second.
        OUTBOX_LEASE_SECONDS: '2',
        OUTBOX_POLL_SECONDS: '1',
      },
      build.main,
    ).then((instance) => instance.ready());
  };
  const outboxRows = async (topic: string) =>
    (await db.query(`SELECT id, item_key, status, attempts, claimed_by, progress FROM ${prefix}checkout_outbox WHERE topic = ? ORDER BY id`, [topic])) as Array<{
      id: number;
      item_key: string;
      status: string;
      attempts: number | string;
      claimed_by: string | null;
      progress: string | null;
    }>;

  beforeAll(async () => {
    build = buildServiceForTest();
    sink = await SmtpSink.start();
    features = await startFeaturesApi();
    databaseUrl = sharedDatabaseUrl();

    // The installation as an admin left it: a form, a connected gateway, the generic webhook's
    // secret and one pending payment with a payer email. Set up in this process, then closed.
    const setup = await startTestApp({ DATABASE_URL: databaseUrl, PUBLIC_BASE_URL });
    try {
      const form = await createPaymentForm(setup, { submit_actions: ['email', 'message'], success_message: 'Thanks' });
      await connectGateway(setup, 'gateway_a');
      const rotated = await request(setup.http).post(`${setup.base}/webhook/rotate-secret`).set('Authorization', setup.admin.auth);
      expect(rotated.status).toBe(200);
      webhookSecret = rotated.body.secret as string;
      const sync = await request(setup.http)
        .post(`${setup.base}/payment/sync-details`)
        .send({ form_id: form.id, payment_gateway: 'gateway_a', payment_method: 'ccard', plan_index: 0, price_index: 0, email_address: 'payer@example.test', first_name: 'Ada' });
      expect(sync.status).toBe(201);
      paymentId = (sync.body as SyncAnswer).payment_id;
      installationId = installationIdOf(setup);
    } finally {
      await setup.close();
    }
    db = new DataSource(buildDataSourceOptions(loadConfig({ DATABASE_URL: databaseUrl, DATA_DIR: tmpdir() })));
    await db.initialize();
  }, 120_000);

  afterAll(async () => {
    await stopAllServices();
    await db?.destroy();
    await sink?.close();
    await features?.close();
    build?.remove();
    for (const dir of dataDirs) rmSync(dir, { recursive: true, force: true });
  });

  it('sends both completion emails after a restart, each recognisable by its stable Message-ID', async () => {
    sink.hold = true;
    const first = await start('first');

    // The payment completes (the commit), and its first email is on the wire when the process dies.
    const raw = JSON.stringify({ id: `evt_crash_${Date.now()}`, event: 'payment_intent.succeeded', data: { transaction_id: String(paymentId), amount: '10', currency: 'USD' } });
    const res = await fetch(`${first.url}${REST}/webhook/receive`, { method: 'POST', headers: { 'Content-Type': 'application/json', 'Checkout-Signature': signPayload(raw, webhookSecret) }, body: raw });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ outcome: 'processed' });
    await sink.until('the first email reaching DATA', () => sink.started >= 1);
    const [payment] = await db.query(`SELECT status FROM ${prefix}checkout_payments WHERE id = ?`, [paymentId]);
    expect(payment.status).toBe('completed');
    const [claimed] = await outboxRows('payment_emails');
    expect(claimed).toMatchObject({ item_key: `payment-${paymentId}`, status: 'pending', progress: null });
    expect(claimed.claimed_by).toEqual(expect.stringContaining(`:${first.child.pid}:`));
    first.kill('SIGKILL');
    expect((await first.exited).signal).toBe('SIGKILL');
    expect(sink.accepted).toEqual([]);

    // A new process finds the emails still due (once the dead one's claim lapsed) and sends them.
    sink.hold = false;
    const second = await start('second');
    const ids = ['admin', 'payer'].map((kind) => `<payment-${paymentId}.${kind}.${installationId}@checkout.test>`);
    await sink.until('both emails accepted', () => ids.every((id) => sink.count(id) >= 1));
    await until('the item marked sent', async () => (await outboxRows('payment_emails'))[0].status === 'sent');

    // Once or, at most, recognisably twice; nothing else for this payment.
    for (const id of ids) expect(sink.count(id)).toBeGreaterThanOrEqual(1);
    for (const id of ids) expect(sink.count(id)).toBeLessThanOrEqual(2);
    expect(sink.accepted.every((message) => ids.includes(message.messageId!))).toBe(true);
    expect(sink.accepted.find((message) => message.messageId === ids[0])!.to).toEqual(['owner@example.test']);
    expect(sink.accepted.find((message) => message.messageId === ids[1])!.to).toEqual(['payer@example.test']);
    const [sent] = await outboxRows('payment_emails');
    expect(sent).toMatchObject({ status: 'sent', claimed_by: null, progress: '["admin","payer"]' });
    expect(Number(sent.attempts)).toBe(2);
    const log: Array<{ event: string }> = await db.query(`SELECT event FROM ${prefix}checkout_log WHERE payment_id = ? ORDER BY id`, [paymentId]);
    expect(log.map((entry) => entry.event).filter((event) => event.startsWith('emails_'))).toEqual(['emails_sent']);

    await second.stop();
    expect(second.errors()).toEqual([]);
  }, 90_000);

  it('forwards the tagging answer after a restart, with the same Idempotency-Key', async () => {
    features.hold = true;
    const first = await start('third');
    const res = await fetch(`${first.url}${REST}/tagging/apply`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Authorization: basicAuth('admin', TEST_ADMIN_PASSWORD) },
      body: JSON.stringify({ area_slug: 'templates', tags: ['template-export'], email_address: 'owner@example.test', first_name: 'Ada' }),
    });
    expect(res.status).toBe(200);
    await until('the forward reaching the features API', () => features.received.length >= 1);
    const [item] = await outboxRows('features_api_forward');
    expect(item).toMatchObject({ status: 'pending' });
    expect(item.claimed_by).toEqual(expect.stringContaining(`:${first.child.pid}:`));
    first.kill('SIGKILL');
    await first.exited;

    features.hold = false;
    const second = await start('fourth');
    await until('the forward answered', () => features.received.some((entry) => entry.answered));
    await until('the item marked sent', async () => (await outboxRows('features_api_forward'))[0].status === 'sent');

    expect(features.received.length).toBeGreaterThanOrEqual(2);
    expect(features.received.map((entry) => entry.idempotencyKey)).toEqual(features.received.map(() => item.item_key));
    expect(item.item_key).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(new Set(features.received.map((entry) => entry.body)).size).toBe(1);
    expect(features.received[0].body).toBe('area=templates&tags%5B%5D=template-export&email_address=owner%40example.test&first_name=Ada&last_name=');

    await second.stop();
    expect(second.errors()).toEqual([]);
  }, 90_000);
});
