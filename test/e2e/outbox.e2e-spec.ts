import request from 'supertest';
import { Clock } from '../../src/common/clock/index.js';
import { readDatetime, readNullableDatetime } from '../../src/database/index.js';
import type { PaymentForm } from '../../src/modules/forms/index.js';
import { OUTBOX_SHUTDOWN_WAIT_MS, OutboxWorker } from '../../src/modules/outbox/index.js';
import { OutboxRepository } from '../../src/modules/outbox/outbox.repository.js';
import { PaymentCompletionEmails, PaymentLedgerService } from '../../src/modules/payments/index.js';
import { connectGateway, createPaymentForm, type SyncAnswer } from '../support/payment-fixtures.js';
import { sharedDatabaseUrl } from '../support/shared-database.js';
import { SmtpSink } from '../support/smtp-sink.js';
import { installationIdOf, startTestApp, type TestApp } from '../support/test-app.js';

const SECOND = 1000;

interface OutboxRow {
  id: number;
  status: string;
  attempts: number;
  progress: string | null;
  next_attempt_at: Date;
  claimed_by: string | null;
  claim_expires_at: Date | null;
  last_error: string | null;
}

interface Notification {
  id: string;
  severity: string;
  source: string;
  message: string;
  fingerprint: string;
}

/** The app's clock, moved `ms` ahead of where it is now (it stays there until moved again or restored). */
function moveClock(t: TestApp, ms: number): void {
  const clock = t.app.get(Clock);
  const target = clock.now().getTime() + ms;
  (jest.isMockFunction(clock.now) ? (clock.now as unknown as jest.SpyInstance) : jest.spyOn(clock, 'now')).mockImplementation(() => new Date(target));
}

/** Stops the worker from starting passes on its own (commit wake-ups, the poll): items stay due until a test drains them. */
function holdWorker(t: TestApp): void {
  jest.spyOn(t.app.get(OutboxWorker) as unknown as { wake(): void }, 'wake').mockImplementation(() => undefined);
}

function fixtures(t: TestApp) {
  let form: PaymentForm;
  const api = {
    async setUp(): Promise<void> {
      form = await createPaymentForm(t, { submit_actions: ['email', 'message'], success_message: 'Thanks' });
      await connectGateway(t, 'gateway_a');
    },
    async pending(email: string): Promise<number> {
      const res = await request(t.http)
        .post(`${t.base}/payment/sync-details`)
        .send({ form_id: form.id, payment_gateway: 'gateway_a', payment_method: 'ccard', plan_index: 0, price_index: 0, email_address: email, first_name: 'Ada' });
      expect(res.status).toBe(201);
      return (res.body as SyncAnswer).payment_id;
    },
    async completed(email: string): Promise<number> {
      const id = await api.pending(email);
      await t.app.get(PaymentLedgerService).transition(id, 'completed', { source: 'test' });
      return id;
    },
    async outboxRow(paymentId: number): Promise<OutboxRow | undefined> {
      const [row] = await t.dataSource.query(`SELECT * FROM ${t.config.tablePrefix}checkout_outbox WHERE topic = 'payment_emails' AND item_key = ?`, [`payment-${paymentId}`]);
      if (!row) return undefined;
      return {
        ...row,
        id: Number(row.id),
        attempts: Number(row.attempts),
        next_attempt_at: readDatetime(row.next_attempt_at),
        claim_expires_at: readNullableDatetime(row.claim_expires_at),
      } as OutboxRow;
    },
    async log(paymentId: number): Promise<Array<{ event: string; message: string; context: Record<string, unknown> }>> {
      const rows = await t.dataSource.query(`SELECT event, message, context FROM ${t.config.tablePrefix}checkout_log WHERE payment_id = ? ORDER BY id`, [paymentId]);
      return rows.map((row: { event: string; message: string; context: string }) => ({ ...row, context: JSON.parse(row.context) as Record<string, unknown> }));
    },
    messageId: (paymentId: number, kind: 'admin' | 'payer') => `<payment-${paymentId}.${kind}.${installationIdOf(t)}@checkout.test>`,
    async notifications(): Promise<Notification[]> {
      const res = await request(t.http).get(`${t.base}/administration/dashboard`).set('Authorization', t.admin.auth);
      expect(res.status).toBe(200);
      return res.body.notifications as Notification[];
    },
  };
  return api;
}

describe('outbox: completion emails', () => {
  let sink: SmtpSink;
  let t: TestApp;
  let f: ReturnType<typeof fixtures>;
  let worker: OutboxWorker;

  beforeAll(async () => {
    sink = await SmtpSink.start();
    t = await startTestApp({ SMTP_URL: sink.url, OUTBOX_MAX_ATTEMPTS: '3', OUTBOX_RETRY_BASE_SECONDS: '60', OUTBOX_RETRY_MAX_SECONDS: '100', OUTBOX_LEASE_SECONDS: '30' });
    f = fixtures(t);
    await f.setUp();
    worker = t.app.get(OutboxWorker);
  });
  afterAll(async () => {
    await t.close();
    await sink.close();
  });
  afterEach(async () => {
    jest.restoreAllMocks();
    sink.refuse.clear();
    sink.hold = false;
  });

  it('writes the emails due in the commit that completes the payment, and sends each once with its stable Message-ID', async () => {
    const id = await f.completed('first@example.test');
    await worker.drain();

    expect(sink.accepted.filter((message) => message.messageId?.includes(`payment-${id}.`)).map((message) => [message.messageId, message.to])).toEqual([
      [f.messageId(id, 'admin'), ['owner@example.test']],
      [f.messageId(id, 'payer'), ['first@example.test']],
    ]);
    expect(await f.outboxRow(id)).toMatchObject({ status: 'sent', attempts: 1, claimed_by: null, last_error: null });
    const sent = (await f.log(id)).filter((entry) => entry.event === 'emails_sent');
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({ message: 'Payment emails sent: admin, payer.', context: { kinds: ['admin', 'payer'], attempt: 1 } });

    // A repeated completion (webhook redelivery, checkout retry) writes nothing more.
    await t.app.get(PaymentLedgerService).transition(id, 'completed', { source: 'test', tolerateRefusal: true });
    await worker.drain();
    expect(sink.count(f.messageId(id, 'admin'))).toBe(1);
  });

  it('writes nothing when the completing transaction rolls back (the emails and the move commit together)', async () => {
    const id = await f.pending('rollback@example.test');
    const emails = t.app.get(PaymentCompletionEmails);
    const schedule = emails.schedule.bind(emails);
    jest.spyOn(emails, 'schedule').mockImplementation(async (manager, payment) => {
      await schedule(manager, payment);
      throw new Error('the transaction fails after the outbox write');
    });
    await expect(t.app.get(PaymentLedgerService).transition(id, 'completed', { source: 'test' })).rejects.toThrow('after the outbox write');
    jest.restoreAllMocks();
    await worker.drain();

    const [payment] = await t.dataSource.query(`SELECT status FROM ${t.config.tablePrefix}checkout_payments WHERE id = ?`, [id]);
    expect(payment.status).toBe('pending');
    expect(await f.outboxRow(id)).toBeUndefined();
    expect(sink.count(f.messageId(id, 'admin'))).toBe(0);
  });

  it('retries with exponential backoff up to OUTBOX_MAX_ATTEMPTS without resending the email already sent, then fails the item and raises a dismissable notification', async () => {
    sink.refuse.add('refused@example.test');
    const id = await f.completed('refused@example.test');
    const started = t.app.get(Clock).now().getTime();
    await worker.drain();

    // Attempt 1: the owner's notification went out, the payer's was refused.
    let row = (await f.outboxRow(id))!;
    expect(row).toMatchObject({ status: 'pending', attempts: 1, progress: '["admin"]', claimed_by: null, last_error: 'The mail server could not be reached or refused the message.' });
    expect(row.next_attempt_at.getTime() - started).toBeGreaterThanOrEqual(60 * SECOND);
    expect(row.next_attempt_at.getTime() - started).toBeLessThan(65 * SECOND);
    let failed = (await f.log(id)).filter((entry) => entry.event === 'emails_failed');
    expect(failed).toHaveLength(1);
    expect(failed[0].message).toMatch(/^The payment emails could not be sent \(attempt 1 of 3; next attempt at \d{4}-.+Z\)\.$/);
    expect(failed[0].context).toMatchObject({ attempt: 1, max_attempts: 3, sent_kinds: ['admin'] });

    // Not due before its time.
    moveClock(t, 59 * SECOND);
    await worker.drain();
    expect((await f.outboxRow(id))!.attempts).toBe(1);

    // Attempt 2 at +60 s; the next wait doubles to 120 s, capped by OUTBOX_RETRY_MAX_SECONDS (100).
    moveClock(t, 1 * SECOND);
    const second = t.app.get(Clock).now().getTime();
    await worker.drain();
    row = (await f.outboxRow(id))!;
    expect(row).toMatchObject({ status: 'pending', attempts: 2 });
    expect(row.next_attempt_at.getTime() - second).toBe(100 * SECOND);

    expect((await f.notifications()).map((notification) => notification.id)).not.toContain('outbox.failed');

    // Attempt 3 is the last.
    moveClock(t, 100 * SECOND);
    await worker.drain();
    row = (await f.outboxRow(id))!;
    expect(row).toMatchObject({ status: 'failed', attempts: 3, claimed_by: null, last_error: 'The mail server could not be reached or refused the message.' });
    failed = (await f.log(id)).filter((entry) => entry.event === 'emails_failed');
    expect(failed.map((entry) => entry.context.attempt)).toEqual([1, 2, 3]);
    expect(failed[2].message).toBe('The payment emails could not be sent (attempt 3 of 3; no further attempt).');
    expect((await f.log(id)).map((entry) => entry.event)).not.toContain('emails_sent');
    expect(sink.count(f.messageId(id, 'admin'))).toBe(1);
    expect(sink.count(f.messageId(id, 'payer'))).toBe(0);

    // Nothing more happens to a failed item.
    moveClock(t, 3600 * SECOND);
    await worker.drain();
    expect((await f.outboxRow(id))!.attempts).toBe(3);

    const [notice] = (await f.notifications()).filter((notification) => notification.id === 'outbox.failed');
    expect(notice).toMatchObject({ severity: 'error', source: 'outbox', message: '1 outbox item failed after the last attempt (payment_emails: 1); the service log says why, and the payment log for payment emails.' });

    // Dismissed, it stays away until another item fails.
    const dismissed = await request(t.http).post(`${t.base}/administration/dismiss-notification`).set('Authorization', t.admin.auth).send({ id: 'outbox.failed' });
    expect(dismissed.status).toBe(200);
    expect(dismissed.body).toEqual({ success: true, message: 'Notification dismissed.', id: 'outbox.failed', fingerprint: notice.fingerprint });
    expect((await f.notifications()).map((notification) => notification.id)).not.toContain('outbox.failed');

    sink.refuse.add('owner@example.test');
    const other = await f.completed('other@example.test');
    for (let attempt = 0; attempt < 3; attempt++) {
      await worker.drain();
      moveClock(t, 100 * SECOND);
    }
    expect((await f.outboxRow(other))!.status).toBe('failed');
    const [again] = (await f.notifications()).filter((notification) => notification.id === 'outbox.failed');
    expect(again.message).toMatch(/^2 outbox items failed after the last attempt \(payment_emails: 2\)/);
    expect(again.fingerprint).not.toBe(notice.fingerprint);
  });

  it('sends on a later attempt only the email that failed, and logs emails_sent once', async () => {
    sink.refuse.add('later@example.test');
    const id = await f.completed('later@example.test');
    await worker.drain();
    expect((await f.outboxRow(id))!.attempts).toBe(1);

    sink.refuse.clear();
    moveClock(t, 60 * SECOND);
    await worker.drain();

    expect(await f.outboxRow(id)).toMatchObject({ status: 'sent', attempts: 2, progress: '["admin","payer"]' });
    expect(sink.count(f.messageId(id, 'admin'))).toBe(1);
    expect(sink.count(f.messageId(id, 'payer'))).toBe(1);
    const events = (await f.log(id)).map((entry) => entry.event);
    expect(events.filter((event) => event === 'emails_failed')).toHaveLength(1);
    expect(events.filter((event) => event === 'emails_sent')).toHaveLength(1);
  });

  it('stores an attempt\'s outcome again while the database cannot serve (a cut-off Galera node), so an email sent is not sent again', async () => {
    const id = await f.completed('cutoff@example.test');
    const repository = t.app.get(OutboxRepository);
    // 1047: "WSREP has not yet prepared node for application use", as a node cut off from the cluster answers.
    const cutOff = () => Object.assign(new Error('WSREP has not yet prepared node for application use'), { errno: 1047, code: 'ER_UNKNOWN_COM_ERROR' });
    const saveProgress = repository.saveProgress.bind(repository);
    const markSent = repository.markSent.bind(repository);
    const progress = jest.spyOn(repository, 'saveProgress').mockRejectedValueOnce(cutOff()).mockRejectedValueOnce(cutOff()).mockImplementation(saveProgress);
    const sent = jest.spyOn(repository, 'markSent').mockRejectedValueOnce(cutOff()).mockImplementation(markSent);
    await worker.drain();

    expect(progress.mock.calls.length).toBeGreaterThanOrEqual(4);
    expect(sent).toHaveBeenCalledTimes(2);
    expect(await f.outboxRow(id)).toMatchObject({ status: 'sent', attempts: 1, progress: '["admin","payer"]', claimed_by: null });
    expect(sink.count(f.messageId(id, 'admin'))).toBe(1);
    expect(sink.count(f.messageId(id, 'payer'))).toBe(1);

    // Any other error is not waited out: the attempt fails as before (and is retried later).
    const other = await f.completed('other-error@example.test');
    jest.spyOn(repository, 'saveProgress').mockRejectedValueOnce(new Error('something else')).mockImplementation(saveProgress);
    await worker.drain();
    expect(await f.outboxRow(other)).toMatchObject({ status: 'pending', attempts: 1 });
  });

  it('leaves an item claimed by another worker alone until the claim lapses, then takes it (a crashed claimer)', async () => {
    holdWorker(t);
    const id = await f.completed('lapsed@example.test');
    const row = (await f.outboxRow(id))!;
    expect(row).toMatchObject({ status: 'pending', attempts: 0, claimed_by: null });

    const items = t.app.get(OutboxRepository);
    const now = t.app.get(Clock).now();
    expect(await items.claim(row.id, 'dead-worker', now, new Date(now.getTime() + 30 * SECOND))).not.toBeNull();
    // A second claim of a held item fails, whoever asks.
    expect(await items.claim(row.id, worker.owner, now, new Date(now.getTime() + 30 * SECOND))).toBeNull();

    await worker.drain();
    expect(await f.outboxRow(id)).toMatchObject({ status: 'pending', claimed_by: 'dead-worker' });
    expect(sink.count(f.messageId(id, 'admin'))).toBe(0);

    moveClock(t, 31 * SECOND);
    await worker.drain();
    expect(await f.outboxRow(id)).toMatchObject({ status: 'sent', attempts: 2, claimed_by: null });
    expect(sink.count(f.messageId(id, 'admin'))).toBe(1);
    expect(sink.count(f.messageId(id, 'payer'))).toBe(1);
    // The dead worker's late outcome is refused: the item is no longer its own.
    expect(await items.markSent(row.id, 'dead-worker', now)).toBe(false);
  });
});

describe('outbox: two instances on one database', () => {
  let sink: SmtpSink;
  let a: TestApp;
  let b: TestApp;

  beforeAll(async () => {
    sink = await SmtpSink.start();
    const databaseUrl = sharedDatabaseUrl();
    a = await startTestApp({ DATABASE_URL: databaseUrl, SMTP_URL: sink.url });
    b = await startTestApp({ DATABASE_URL: databaseUrl, SMTP_URL: sink.url }, { keepDatabase: true });
  });
  afterAll(async () => {
    await a.close();
    await b.close();
    await sink.close();
  });
  afterEach(() => jest.restoreAllMocks());

  it('never send one item twice, even when both work through the same due items at once', async () => {
    const f = fixtures(a);
    await f.setUp();
    holdWorker(a);
    holdWorker(b);
    const ids: number[] = [];
    for (let i = 0; i < 6; i++) ids.push(await f.completed(`pair${i}@example.test`));
    sink.delayMs = 80;

    const handled = [a, b].map((t) => jest.spyOn(t.app.get(PaymentCompletionEmails), 'handle'));
    await Promise.all([a.app.get(OutboxWorker).drain(), b.app.get(OutboxWorker).drain()]);

    const expected = ids.flatMap((id) => [f.messageId(id, 'admin'), f.messageId(id, 'payer')]).sort();
    expect(sink.accepted.map((message) => message.messageId).sort()).toEqual(expected);
    for (const id of ids) expect(await f.outboxRow(id)).toMatchObject({ status: 'sent', attempts: 1 });
    // Both took part, and between them each item was handled once.
    expect(handled.map((spy) => spy.mock.calls.length).reduce((sum, n) => sum + n, 0)).toBe(ids.length);
    for (const spy of handled) expect(spy.mock.calls.length).toBeGreaterThan(0);
  });
});

describe('outbox: shutdown', () => {
  let sink: SmtpSink;
  let databaseUrl: string;

  beforeAll(async () => {
    sink = await SmtpSink.start();
    databaseUrl = sharedDatabaseUrl();
  });
  afterAll(() => sink.close());
  afterEach(() => jest.restoreAllMocks());

  it('claims nothing new and finishes the send in flight before the database closes', async () => {
    const t = await startTestApp({ DATABASE_URL: databaseUrl, SMTP_URL: sink.url });
    const f = fixtures(t);
    await f.setUp();
    holdWorker(t);
    const first = await f.completed('shutdown1@example.test');
    const second = await f.completed('shutdown2@example.test');
    sink.delayMs = 500;
    const before = sink.started;
    const draining = t.app.get(OutboxWorker).drain();
    await sink.until('the first email on the wire', () => sink.started > before);
    await t.close();
    await draining;

    expect(sink.count(f.messageId(first, 'admin'))).toBe(1);
    expect(sink.count(f.messageId(first, 'payer'))).toBe(1);
    expect(sink.count(f.messageId(second, 'admin'))).toBe(0);

    // The next instance's boot finds the second item due: never claimed before (its one attempt is this one).
    sink.delayMs = 0;
    const again = await startTestApp({ DATABASE_URL: databaseUrl, SMTP_URL: sink.url }, { keepDatabase: true });
    try {
      await again.app.get(OutboxWorker).drain();
      const g = fixtures(again);
      expect(await g.outboxRow(first)).toMatchObject({ status: 'sent', attempts: 1 });
      expect(await g.outboxRow(second)).toMatchObject({ status: 'sent', attempts: 1 });
      expect(sink.count(f.messageId(second, 'admin'))).toBe(1);
      expect(sink.count(f.messageId(first, 'admin'))).toBe(1);
    } finally {
      await again.close();
    }
  });

  it('waits for a send in flight at most OUTBOX_SHUTDOWN_WAIT_MS; the unfinished item is left to its lapsing claim', async () => {
    const t = await startTestApp({ DATABASE_URL: databaseUrl, SMTP_URL: sink.url });
    const f = fixtures(t);
    await f.setUp();
    sink.hold = true;
    const before = sink.started;
    const id = await f.completed('stuck@example.test');
    await sink.until('the email on the wire', () => sink.started > before);
    const closing = Date.now();
    await t.close();
    const waited = Date.now() - closing;
    sink.releaseHeld();
    sink.hold = false;

    expect(waited).toBeGreaterThanOrEqual(OUTBOX_SHUTDOWN_WAIT_MS - 100);
    expect(waited).toBeLessThan(OUTBOX_SHUTDOWN_WAIT_MS + 5_000);
    expect(sink.count(f.messageId(id, 'admin'))).toBe(0);
  }, 40_000);
});
