import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import { Clock } from '../../src/common/clock/index.js';
import type { PaymentForm } from '../../src/modules/forms/index.js';
import { OutboxWorker } from '../../src/modules/outbox/index.js';
import { PaymentAftermathService, PaymentLedgerService, PaymentQueriesService } from '../../src/modules/payments/index.js';
import { connectGateway, createPaymentForm, type SyncAnswer } from '../support/payment-fixtures.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

interface Received {
  headers: IncomingHttpHeaders;
  body: string;
}

/** A merchant's receiver: records every request and answers what `answer` says (200 by default). */
async function startReceiver(): Promise<{ url: string; received: Received[]; answer: { status: number; body: string }; close(): Promise<void> }> {
  const received: Received[] = [];
  const answer = { status: 200, body: 'ok' };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      received.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      res.writeHead(answer.status, { 'Content-Type': 'text/plain' }).end(answer.body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/hook`, received, answer, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

/** What a receiver does with the header (the docs' snippet in TypeScript): the `v1=` values that match `secret`. */
function verifies(header: string, body: string, secret: string): boolean {
  const parts = header.split(',');
  const t = parts.find((part) => part.startsWith('t='))!.slice(2);
  const expected = createHmac('sha256', secret).update(`${t}.${body}`).digest();
  return parts.filter((part) => part.startsWith('v1=')).some((part) => {
    const given = Buffer.from(part.slice(3), 'hex');
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
}

function moveClock(t: TestApp, ms: number): void {
  const clock = t.app.get(Clock);
  const target = clock.now().getTime() + ms;
  (jest.isMockFunction(clock.now) ? (clock.now as unknown as jest.SpyInstance) : jest.spyOn(clock, 'now')).mockImplementation(() => new Date(target));
}

describe('outgoing webhooks: delivery', () => {
  let t: TestApp;
  let form: PaymentForm;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  const admin = (method: 'get' | 'post' | 'patch' | 'delete', path: string) => request(t.http)[method](`${t.base}/administration${path}`).set('Authorization', t.admin.auth);
  const drain = () => t.app.get(OutboxWorker).drain();

  beforeAll(async () => {
    t = await startTestApp({ OUTGOING_WEBHOOKS_ALLOW_PRIVATE: 'true', OUTBOX_RETRY_BASE_SECONDS: '60', OUTBOX_RETRY_MAX_SECONDS: '3600' });
    // Passes run only when a test drains: every attempt is the test's.
    jest.spyOn(t.app.get(OutboxWorker) as unknown as { wake(): void }, 'wake').mockImplementation(() => undefined);
    form = await createPaymentForm(t);
    await connectGateway(t, 'gateway_a');
    receiver = await startReceiver();
  });
  afterAll(async () => {
    await receiver.close();
    await t.close();
  });
  afterEach(() => {
    receiver.received.length = 0;
    receiver.answer.status = 200;
  });

  const newPayment = async (): Promise<number> => {
    const res = await request(t.http).post(`${t.base}/payment/sync-details`).send({ form_id: form.id, payment_gateway: 'gateway_a', payment_method: 'ccard', plan_index: 0, price_index: 0 });
    expect(res.status).toBe(201);
    return (res.body as SyncAnswer).payment_id;
  };
  const complete = async (paymentId: number) => t.app.get(PaymentLedgerService).transition(paymentId, 'completed', { source: 'test' });
  const createEndpoint = async (url: string, events?: string[]) => {
    const res = await admin('post', '/webhook-endpoints').send({ url, ...(events ? { events } : {}), description: 'CRM' });
    expect(res.status).toBe(201);
    return res.body as { id: number; secret: string; url: string; events: string[]; status: string };
  };
  const deliveries = async (endpointId: number) => {
    const res = await admin('get', `/webhook-endpoints/${endpointId}/deliveries`);
    expect(res.status).toBe(200);
    return res.body as Array<{ id: number; event_id: number; status: string; attempts: number; status_code: number | null; response_excerpt: string | null; duration_ms: number | null }>;
  };

  let endpoint: { id: number; secret: string };

  it('creates an endpoint, shows its secret once and never again', async () => {
    endpoint = await createEndpoint(receiver.url);
    expect(endpoint).toMatchObject({ url: receiver.url, events: ['*'], status: 'enabled' });
    expect(endpoint.secret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
    const list = await admin('get', '/webhook-endpoints');
    expect(list.status).toBe(200);
    expect(JSON.stringify(list.body)).not.toContain(endpoint.secret);
    const stored = await t.dataSource.query(`SELECT secret_sealed FROM ${t.config.tablePrefix}checkout_webhook_endpoints WHERE id = ?`, [endpoint.id]);
    expect(stored[0].secret_sealed).not.toContain(endpoint.secret);
  });

  it('sends a signed payment.completed once, with the admin detail of the payment and no log or secret', async () => {
    const paymentId = await newPayment();
    await complete(paymentId);
    await drain();
    await complete(paymentId).catch(() => undefined); // a repeat is no new move
    await drain();
    expect(receiver.received).toHaveLength(1);
    const [{ headers, body }] = receiver.received;
    expect(verifies(String(headers['checkout-signature']), body, endpoint.secret)).toBe(true);
    expect(verifies(String(headers['checkout-signature']), body, 'whsec_other')).toBe(false);
    const event = JSON.parse(body);
    expect(event).toMatchObject({ type: 'payment.completed', sequence: 1, data: { payment: { id: paymentId, status: 'completed' } } });
    expect(typeof event.id).toBe('number');
    expect(typeof event.created).toBe('number');
    expect(event.data.payment.log).toBeUndefined();
    expect(body).not.toMatch(/nonce|checkout_token|secret/i);
    const [delivery] = await deliveries(endpoint.id);
    expect(delivery).toMatchObject({ event_id: event.id, status: 'succeeded', attempts: 1, status_code: 200, response_excerpt: 'ok' });
  });

  it('sends it again with the same id after a 500, and resends it on request', async () => {
    receiver.answer.status = 500;
    receiver.answer.body = 'x'.repeat(3000);
    const paymentId = await newPayment();
    await complete(paymentId);
    await drain();
    expect(receiver.received).toHaveLength(1);
    let [delivery] = await deliveries(endpoint.id);
    expect(delivery).toMatchObject({ status: 'pending', attempts: 1, status_code: 500 });
    expect(delivery.response_excerpt).toHaveLength(1024);

    receiver.answer.status = 200;
    receiver.answer.body = 'ok';
    await drain();
    expect(receiver.received).toHaveLength(1); // the retry waits OUTBOX_RETRY_BASE_SECONDS
    moveClock(t, 61_000);
    await drain();
    expect(receiver.received).toHaveLength(2);
    const [first, second] = receiver.received.map((r) => JSON.parse(r.body) as { id: number });
    expect(second.id).toBe(first.id);
    [delivery] = await deliveries(endpoint.id);
    expect(delivery).toMatchObject({ status: 'succeeded', attempts: 2, status_code: 200 });

    const resent = await admin('post', `/webhook-endpoints/${endpoint.id}/deliveries/${delivery.id}/resend`);
    expect(resent.status).toBe(202);
    await drain();
    expect(receiver.received).toHaveLength(3);
    expect((JSON.parse(receiver.received[2].body) as { id: number }).id).toBe(first.id);
    expect((await admin('post', `/webhook-endpoints/${endpoint.id}/deliveries/999999/resend`)).status).toBe(404);
  });

  it('numbers the events of one payment in order (sequence), and lists them for pollers', async () => {
    const paymentId = await newPayment();
    const ledger = t.app.get(PaymentLedgerService);
    await ledger.transition(paymentId, 'failed', { source: 'test' });
    await ledger.transition(paymentId, 'completed', { source: 'test' });
    await drain();
    const events = receiver.received.map((r) => JSON.parse(r.body) as { id: number; type: string; sequence: number });
    expect(events.map((e) => [e.type, e.sequence])).toEqual([
      ['payment.failed', 1],
      ['payment.completed', 2],
    ]);
    const polled = await admin('get', `/outgoing-events?since=${events[0].id - 1}`);
    expect(polled.status).toBe(200);
    expect((polled.body as Array<{ id: number }>).map((e) => e.id)).toEqual(events.map((e) => e.id));
    expect((await admin('get', '/outgoing-events?since=abc')).body.code).toBe('rest_invalid_param');
  });

  it('sends payment.refunded once per refund that succeeded (not again on a second pass) and payment.disputed for a new dispute', async () => {
    const paymentId = await newPayment();
    await t.app.get(PaymentLedgerService).transition(paymentId, 'completed', { source: 'test', patch: { amountReceived: 1000 } });
    const { currency } = (await t.app.get(PaymentQueriesService).findById(paymentId))!;
    const aftermath = t.app.get(PaymentAftermathService);
    const refund = { providerRefundId: 're_outgoing_1', amount: 300, currency, status: 'pending' as const, reason: null, applicationFeeRefunded: null, ownRefundId: null, failureCode: null };
    // Pending: nothing told yet; succeeded: told once, however often it is read again.
    await aftermath.apply({ paymentId, refunds: [refund], disputes: [] }, 'test');
    await aftermath.apply({ paymentId, refunds: [{ ...refund, status: 'succeeded' }], disputes: [] }, 'test');
    await aftermath.apply({ paymentId, refunds: [{ ...refund, status: 'succeeded' }], disputes: [] }, 'test');
    const dispute = { providerDisputeId: 'du_outgoing_1', amount: 500, currency, status: 'needs_response', reason: 'fraudulent', evidenceDueBy: null, dashboardUrl: 'https://dashboard.example/disputes/du_outgoing_1', createdAt: new Date() };
    await aftermath.apply({ paymentId, refunds: [], disputes: [dispute] }, 'test');
    // A change of a known dispute is no new dispute.
    await aftermath.apply({ paymentId, refunds: [], disputes: [{ ...dispute, status: 'under_review' }] }, 'test');
    await drain();
    const events = receiver.received.map((r) => JSON.parse(r.body) as { type: string; sequence: number; data: Record<string, Record<string, unknown>> }).filter((e) => e.data.payment.id === paymentId);
    expect(events.map((e) => [e.type, e.sequence])).toEqual([
      ['payment.completed', 1],
      ['payment.refunded', 2],
      ['payment.disputed', 3],
    ]);
    expect(events[1].data.refund).toMatchObject({ provider_refund_id: 're_outgoing_1', amount: 300, currency, status: 'succeeded', source: 'provider' });
    expect(events[1].data.payment).toMatchObject({ amount_refunded: 300, refundable_amount: 700 });
    expect(events[2].data.dispute).toMatchObject({ provider_dispute_id: 'du_outgoing_1', status: 'needs_response', amount: 500, provider_url: 'https://dashboard.example/disputes/du_outgoing_1' });
    expect(events[2].data.payment.dispute).toMatchObject({ provider_dispute_id: 'du_outgoing_1', provider_url: 'https://dashboard.example/disputes/du_outgoing_1' });
  });

  it('signs with the new secret first and the old one second for 24 hours after a rotation', async () => {
    const rotated = await admin('post', `/webhook-endpoints/${endpoint.id}/rotate-secret`);
    expect(rotated.status).toBe(200);
    const secret = rotated.body.secret as string;
    expect(secret).not.toBe(endpoint.secret);
    await complete(await newPayment());
    await drain();
    const [{ headers, body }] = receiver.received;
    const header = String(headers['checkout-signature']);
    const v1 = header.split(',').filter((part) => part.startsWith('v1='));
    expect(v1).toHaveLength(2);
    const t0 = header.split(',')[0];
    expect(verifies(`${t0},${v1[0]}`, body, secret)).toBe(true);
    expect(verifies(`${t0},${v1[1]}`, body, endpoint.secret)).toBe(true);

    receiver.received.length = 0;
    moveClock(t, 24 * 3600_000 + 1000);
    await complete(await newPayment());
    await drain();
    const later = String(receiver.received[0].headers['checkout-signature']);
    expect(later.split(',').filter((part) => part.startsWith('v1='))).toHaveLength(1);
    expect(verifies(later, receiver.received[0].body, secret)).toBe(true);
    endpoint.secret = secret;
  });

  it("keeps one endpoint's failures from delaying another's deliveries, and gives up 3 days after the first attempt", async () => {
    moveClock(t, 1000); // the clock stands still between moves: events of earlier tests stay before `start`
    const start = t.app.get(Clock).now();
    const down = await startReceiver();
    down.answer.status = 503;
    const failing = await createEndpoint(down.url, ['payment.completed']);
    const paymentId = await newPayment();
    await complete(paymentId);
    await drain();
    expect(receiver.received).toHaveLength(1);
    expect(down.received).toHaveLength(1);

    // Another event while the failing endpoint waits for its retry: the healthy one gets it at once.
    await complete(await newPayment());
    await drain();
    expect(receiver.received).toHaveLength(2);
    expect(down.received).toHaveLength(2);

    for (let hour = 0; hour < 80; hour++) {
      moveClock(t, 3600_000);
      await drain();
    }
    const log = await deliveries(failing.id);
    expect(log.map((d) => d.status)).toEqual(['failed', 'failed']);
    const attemptsBefore = down.received.length;
    moveClock(t, 7 * 24 * 3600_000);
    await drain();
    expect(down.received).toHaveLength(attemptsBefore);
    const dashboard = await admin('get', '/dashboard');
    expect((dashboard.body.notifications as Array<{ id: string }>).map((n) => n.id)).toContain('outbox.failed');

    // The endpoint is back: send it what it missed.
    down.answer.status = 200;
    const since = start.toISOString();
    const replay = await admin('post', `/webhook-endpoints/${failing.id}/replay`).send({ since });
    expect(replay.status).toBe(202);
    expect(replay.body).toEqual({ queued: 2, truncated: false });
    const before = down.received.length;
    await drain();
    expect(down.received.length - before).toBe(2);
    await down.close();
  });

  it('updates and deletes an endpoint; a deleted endpoint gets nothing more', async () => {
    const patched = await admin('patch', `/webhook-endpoints/${endpoint.id}`).send({ events: ['payment.failed'], description: null });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ events: ['payment.failed'], description: null });
    expect((await admin('patch', `/webhook-endpoints/${endpoint.id}`).send({ events: ['payment.nothing'] })).status).toBe(400);
    const deleted = await admin('delete', `/webhook-endpoints/${endpoint.id}`);
    expect(deleted.status).toBe(200);
    expect(deleted.body).toMatchObject({ deleted: true, previous: { id: endpoint.id } });
    expect((await admin('delete', `/webhook-endpoints/${endpoint.id}`)).status).toBe(404);
    await t.app.get(PaymentLedgerService).transition(await newPayment(), 'failed', { source: 'test' });
    await drain();
    expect(receiver.received).toHaveLength(0);
  });
});

describe('outgoing webhooks: server-side request forgery', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());
  const create = (url: string) => request(t.http).post(`${t.base}/administration/webhook-endpoints`).set('Authorization', t.admin.auth).send({ url });

  it.each([
    'http://93.184.216.34/hook',
    'https://127.0.0.1/hook',
    'https://localhost/hook',
    'https://10.0.0.1/hook',
    'https://172.16.5.4/hook',
    'https://192.168.1.1/hook',
    'https://169.254.169.254/latest/meta-data',
    'https://0.0.0.0/hook',
    'https://100.64.0.1/hook',
    'https://198.18.0.1/hook',
    'https://224.0.0.1/hook',
    'https://[::1]/hook',
    'https://[fd00::1]/hook',
    'https://[fe80::1]/hook',
    'https://[::ffff:127.0.0.1]/hook',
    'https://[::ffff:169.254.169.254]/hook',
    'https://2130706433/hook',
    'https://0x7f.1/hook',
    'https://user:pass@93.184.216.34/hook',
    'ftp://93.184.216.34/hook',
    'not a url',
  ])('refuses %s with 400 rest_invalid_param naming url', async (url) => {
    const res = await create(url);
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('rest_invalid_param');
    expect(Object.keys(res.body.data.params)).toEqual(['url']);
  });

  it('accepts a public https address, and refuses to send to an internal one at send time (no request made)', async () => {
    const res = await create('https://93.184.216.34/hook');
    expect(res.status).toBe(201);
    const receiver = await startReceiver();
    // As if the name had been re-pointed after creation: the send-time check refuses it.
    await t.dataSource.query(`UPDATE ${t.config.tablePrefix}checkout_webhook_endpoints SET url = ? WHERE id = ?`, [receiver.url.replace('http:', 'https:'), res.body.id]);
    const form = await createPaymentForm(t);
    await connectGateway(t, 'gateway_a');
    const sync = await request(t.http).post(`${t.base}/payment/sync-details`).send({ form_id: form.id, payment_gateway: 'gateway_a', payment_method: 'ccard', plan_index: 0, price_index: 0 });
    await t.app.get(PaymentLedgerService).transition((sync.body as SyncAnswer).payment_id, 'completed', { source: 'test' });
    await t.app.get(OutboxWorker).drain();
    expect(receiver.received).toHaveLength(0);
    const log = await request(t.http).get(`${t.base}/administration/webhook-endpoints/${res.body.id}/deliveries`).set('Authorization', t.admin.auth);
    expect(log.body[0]).toMatchObject({ status: 'pending', status_code: null });
    expect(log.body[0].error).toMatch(/^refused: .*internal address/);
    await receiver.close();
  });
});
