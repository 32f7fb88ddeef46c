import { randomBytes } from 'node:crypto';
import request from 'supertest';
import { PaymentCompletionEmails } from '../../src/modules/payments/index.js';
import { PaymentRepository } from '../../src/modules/payments/payment.repository.js';
import type { PaymentEntity } from '../../src/modules/payments/payment.entity.js';
import { type FakeGatewayA, startFakeGatewayA } from '../fakes/gateway-a/index.js';
import { advanceClock } from '../support/app-state.js';
import { startGatewayATestBed, type GatewayATestBed } from '../support/gateway-a.js';
import { gatewayClient } from '../support/gateway-a-checkout.js';
import { connectGatewayB, type GatewayBTestBed, startGatewayBTestBed } from '../support/gateway-b.js';
import { expectWpError } from '../support/http.js';
import { connectGateway, createPaymentForm, disconnectGateway } from '../support/payment-fixtures.js';
import { sharedDatabaseUrl } from '../support/shared-database.js';
import { installationIdOf, startTestApp, type TestApp } from '../support/test-app.js';

/** An answer body as supertest gives it. */
type Json = request.Response['body'];

function refundOf(t: TestApp, paymentId: number, body: object, headers: Record<string, string> = {}, auth = t.admin.auth) {
  let call = request(t.http).post(`${t.base}/administration/payments/${paymentId}/refunds`).set('Authorization', auth);
  for (const [name, value] of Object.entries(headers)) call = call.set(name, value);
  return call.send(body);
}

async function detailOf(t: TestApp, paymentId: number): Promise<Json> {
  const res = await request(t.http).get(`${t.base}/administration/payments/${paymentId}`).set('Authorization', t.admin.auth);
  expect(res.status).toBe(200);
  return res.body as Json;
}

async function refundRows(t: TestApp, paymentId: number): Promise<Json[]> {
  return t.dataSource.query(`SELECT * FROM ${t.config.tablePrefix}checkout_refunds WHERE payment_id = ? ORDER BY id`, [paymentId]);
}

async function paymentRow(t: TestApp, paymentId: number): Promise<PaymentEntity> {
  return (await t.app.get(PaymentRepository).findById(paymentId))!;
}

async function outboxKeys(t: TestApp): Promise<string[]> {
  const rows: Array<{ item_key: string }> = await t.dataSource.query(`SELECT item_key FROM ${t.config.tablePrefix}checkout_outbox WHERE topic = 'refund_emails' ORDER BY id`);
  return rows.map((row) => row.item_key);
}

/** A completed payment record holding `values` (provider refs, amounts), as a webhook would have left it. */
async function completedPayment(t: TestApp, formId: number, values: Partial<PaymentEntity>): Promise<PaymentEntity> {
  return t.app.get(PaymentRepository).insert(t.dataSource.manager, {
    formId,
    gateway: 'gateway_a',
    paymentMethod: 'ccard',
    mode: 'test',
    status: 'completed',
    amount: 1000,
    currency: 'USD',
    frequency: 'one-time',
    secretNonce: randomBytes(32).toString('base64url'),
    emailAddress: 'payer@example.test',
    firstName: 'Pat',
    ...values,
  });
}

describe('refunds at gateway A (POST /administration/payments/{id}/refunds)', () => {
  let bed: GatewayATestBed;
  let t: TestApp;
  let fake: FakeGatewayA;
  let formId: number;

  /** A PaymentIntent paid at the fake and the completed record holding it. */
  async function paid(amount = 1000, fee: number | null = null, currency = 'usd'): Promise<PaymentEntity> {
    const client = await gatewayClient(t);
    const intent = await client.paymentIntents.create({ amount, currency, confirm: true, payment_method: 'pm_card_visa', ...(fee !== null ? { application_fee_amount: fee } : {}) });
    expect(intent.status).toBe('succeeded');
    return completedPayment(t, formId, { amount, amountReceived: amount, currency: currency.toUpperCase(), applicationFeeAmount: fee, providerPaymentRef: intent.id });
  }

  const fakeRefunded = (intentId: string) => fake.resources.refundsOf(intentId).filter((refund) => refund.status === 'succeeded').reduce((sum, refund) => sum + (refund.amount as number), 0);

  beforeAll(async () => {
    bed = await startGatewayATestBed();
    ({ t, fake } = bed);
    await connectGateway(t, 'gateway_a', 'test');
    formId = (await createPaymentForm(t)).id;
  });

  afterAll(async () => {
    await bed?.close();
  });

  it('refunds in part then in full on the PaymentIntent, with the application fee on the free plan, and the ledger equals the provider', async () => {
    const payment = await paid(1000, 100);
    fake.clearRequests();
    const first = await refundOf(t, payment.id, { amount: 300, reason: 'requested_by_customer', note: 'asked by phone' });
    expect(first.status).toBe(201);
    expect(first.body.refund).toMatchObject({ amount: 300, currency: 'USD', status: 'succeeded', reason: 'requested_by_customer', note: 'asked by phone', source: 'api', created_by: t.admin.id, application_fee_refunded: 30 });
    expect(first.body.refund.provider_refund_id).toMatch(/^re_/);
    expect(first.body.payment).toMatchObject({ id: payment.id, status: 'completed', amount_refunded: 300, refundable_amount: 700, dispute: null });

    const [call] = fake.requestsTo('POST', '/v1/refunds');
    expect(call.idempotencyKey).toBe(`checkout-${installationIdOf(t)}-refund-${first.body.refund.id}`);
    expect(call.body).toMatchObject({ payment_intent: payment.providerPaymentRef, amount: '300', reason: 'requested_by_customer', refund_application_fee: 'true' });
    expect((call.body.metadata as Json).checkout_refund_id).toBe(String(first.body.refund.id));

    const rest = await refundOf(t, payment.id, { reason: 'other' });
    expect(rest.status).toBe(201);
    expect(rest.body.refund).toMatchObject({ amount: 700, status: 'succeeded', reason: 'other' });
    expect(fake.requestsTo('POST', '/v1/refunds')[1].body.reason).toBeUndefined();
    expect(rest.body.payment).toMatchObject({ amount_refunded: 1000, refundable_amount: 0 });
    expect(rest.body.payment.refunds.map((refund: Json) => refund.id)).toEqual([rest.body.refund.id, first.body.refund.id]);
    expect(fakeRefunded(payment.providerPaymentRef!)).toBe(1000);
    expect(fake.resources.applicationFeeRefunded.get(payment.providerPaymentRef!)).toBe(100);

    const none = await refundOf(t, payment.id, {});
    expectWpError(none.body, 'checkout_invalid_state', 409);
    expect(await outboxKeys(t)).toEqual(expect.arrayContaining([`refund-${first.body.refund.id}`, `refund-${rest.body.refund.id}`]));
    // The outbox worker sends the payer's refund emails (one per refund) and logs them.
    await t.app.get(PaymentCompletionEmails).settled();
    const sent: Array<{ status: string }> = await t.dataSource.query(`SELECT status FROM ${t.config.tablePrefix}checkout_outbox WHERE topic = 'refund_emails' AND item_key IN (?, ?)`, [`refund-${first.body.refund.id}`, `refund-${rest.body.refund.id}`]);
    expect(sent.map((row) => row.status)).toEqual(['sent', 'sent']);
    expect((await detailOf(t, payment.id)).log.filter((line: Json) => line.event === 'refund_email_sent')).toHaveLength(2);

    const list = await request(t.http).get(`${t.base}/administration/payments`).query({ refunded: 'full' }).set('Authorization', t.admin.auth);
    expect(list.body.map((row: Json) => row.id)).toContain(payment.id);
    expect(list.body.find((row: Json) => row.id === payment.id)).toMatchObject({ amount_refunded: 1000, disputed: false });
    const partialList = await request(t.http).get(`${t.base}/administration/payments`).query({ refunded: 'partial' }).set('Authorization', t.admin.auth);
    expect(partialList.body.map((row: Json) => row.id)).not.toContain(payment.id);
  });

  it('names the teammates its refunds were made by (user_names), and leaves out one who was removed', async () => {
    const payment = await paid(1000);
    expect((await detailOf(t, payment.id)).user_names).toEqual({});
    const support = await t.createUser('support');
    const leaver = await t.createUser('support');
    const users = `${t.config.tablePrefix}users`;
    await t.dataSource.query(`UPDATE ${users} SET display_name = ? WHERE id = ?`, ['Grace Hopper', support.id]);
    expect((await refundOf(t, payment.id, { amount: 100 }, {}, support.auth)).status).toBe(201);
    expect((await refundOf(t, payment.id, { amount: 200 }, {}, leaver.auth)).status).toBe(201);
    const detail = await detailOf(t, payment.id);
    expect(detail.refunds.map((refund: Json) => refund.created_by)).toEqual([leaver.id, support.id]);
    expect(detail.user_names).toEqual({ [String(support.id)]: 'Grace Hopper', [String(leaver.id)]: leaver.login });

    expect((await request(t.http).delete(`${t.base}/administration/users/${leaver.id}`).set('Authorization', t.admin.auth)).status).toBe(200);
    expect((await detailOf(t, payment.id)).user_names).toEqual({ [String(support.id)]: 'Grace Hopper' });
  });

  it('refuses bad input, missing rights and impossible states, and changes nothing', async () => {
    const payment = await paid(1000);
    const limited = await t.createUser('viewer');
    fake.clearRequests();
    expectWpError((await request(t.http).post(`${t.base}/administration/payments/${payment.id}/refunds`).send({})).body, 'rest_not_logged_in', 401);
    expectWpError((await refundOf(t, payment.id, {}, {}, limited.auth)).body, 'rest_forbidden', 403);
    expectWpError((await refundOf(t, 999_999, {}, {}, limited.auth)).body, 'rest_forbidden', 403);
    for (const amount of ['500', 1.5, 0, -1, 1001]) {
      const res = await refundOf(t, payment.id, { amount });
      expect(expectWpError(res.body, 'rest_invalid_param', 400).data.params).toHaveProperty('amount');
    }
    // null is a missing value for the validation pipe (docs/decisions.md §2: rest_missing_callback_param), naming the field too.
    expect(expectWpError((await refundOf(t, payment.id, { amount: null })).body, 'rest_missing_callback_param', 400).data.params).toHaveProperty('amount');
    expect(expectWpError((await refundOf(t, payment.id, { reason: 'because' })).body, 'rest_invalid_param', 400).data.params).toHaveProperty('reason');
    expect(expectWpError((await refundOf(t, payment.id, { note: 'n'.repeat(501) })).body, 'rest_invalid_param', 400).data.params).toHaveProperty('note');
    expectWpError((await refundOf(t, 999_999, {})).body, 'checkout_not_found', 404);

    const pending = await completedPayment(t, formId, { status: 'pending', amountReceived: null, providerPaymentRef: null });
    expectWpError((await refundOf(t, pending.id, {})).body, 'checkout_invalid_state', 409);
    const trial = await completedPayment(t, formId, { amountReceived: 0, providerPaymentRef: 'seti_1' });
    expectWpError((await refundOf(t, trial.id, {})).body, 'checkout_invalid_state', 409);
    await t.dataSource.query(`UPDATE ${t.config.tablePrefix}checkout_payments SET dispute = ? WHERE id = ?`, [
      JSON.stringify({ status: 'needs_response', amount: 1000, reason: 'fraudulent', evidence_due_by: null, provider_dispute_id: 'dp_1' }),
      payment.id,
    ]);
    expect(expectWpError((await refundOf(t, payment.id, {})).body, 'checkout_invalid_state', 409).message).toMatch(/dispute/);
    const disputed = await request(t.http).get(`${t.base}/administration/payments`).query({ disputed: 'true' }).set('Authorization', t.admin.auth);
    expect(disputed.body.map((row: Json) => row.id)).toEqual([payment.id]);
    await t.dataSource.query(`UPDATE ${t.config.tablePrefix}checkout_payments SET dispute = NULL WHERE id = ?`, [payment.id]);

    await disconnectGateway(t, 'gateway_a', 'test');
    try {
      expect(expectWpError((await refundOf(t, payment.id, {})).body, 'checkout_invalid_state', 409).message).toMatch(/not connected in test mode/);
    } finally {
      await connectGateway(t, 'gateway_a', 'test');
    }

    expect(fake.requestsTo('POST', '/v1/refunds')).toHaveLength(0);
    expect(await refundRows(t, payment.id)).toEqual([]);
    expect(await paymentRow(t, payment.id)).toMatchObject({ amountRefunded: 0, refundReserved: 0, status: 'completed' });
  });

  it("refuses an amount gateway A's own currency rules cannot take (ISK whole krónur, three-decimal KWD ending in 0), before the provider hears of it", async () => {
    const isk = await paid(10_000, null, 'isk');
    const kwd = await paid(10_000, null, 'kwd');
    fake.clearRequests();
    for (const [payment, amount] of [[isk, 150], [kwd, 1235]] as const) {
      const res = await refundOf(t, payment.id, { amount });
      expect(expectWpError(res.body, 'rest_invalid_param', 400).data.params).toHaveProperty('amount');
    }
    expect(fake.requestsTo('POST', '/v1/refunds')).toHaveLength(0);
    expect(await refundRows(t, isk.id)).toEqual([]);
    expect((await refundOf(t, isk.id, { amount: 200 })).body.refund).toMatchObject({ amount: 200, currency: 'ISK', status: 'succeeded' });
    expect((await refundOf(t, kwd.id, { amount: 1230 })).body.refund).toMatchObject({ amount: 1230, currency: 'KWD', status: 'succeeded' });
  });

  it('answers a repeated Idempotency-Key with the same refund, refuses it with another body, and refunds once for a double click', async () => {
    const payment = await paid(1000);
    fake.clearRequests();
    const key = { 'Idempotency-Key': `refund-${randomBytes(8).toString('hex')}` };
    const first = await refundOf(t, payment.id, { amount: 200 }, key);
    const again = await refundOf(t, payment.id, { amount: 200 }, key);
    expect([first.status, again.status]).toEqual([201, 201]);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body.refund.id).toBe(first.body.refund.id);
    expectWpError((await refundOf(t, payment.id, { amount: 300 }, key)).body, 'checkout_idempotency_mismatch', 422);
    expect(fake.requestsTo('POST', '/v1/refunds')).toHaveLength(1);

    // Keys belong to a user and a payment: the same key from another user, or on another payment, is another refund.
    const colleague = await t.createUser('administrator');
    const theirs = await refundOf(t, payment.id, { amount: 200 }, key, colleague.auth);
    expect(theirs.status).toBe(201);
    expect(theirs.headers['idempotent-replayed']).toBeUndefined();
    expect(theirs.body.refund.id).not.toBe(first.body.refund.id);
    const other = await paid(1000);
    const elsewhere = await refundOf(t, other.id, { amount: 200 }, key);
    expect(elsewhere.status).toBe(201);
    expect(elsewhere.body.refund.id).not.toBe(first.body.refund.id);
    expect(fake.requestsTo('POST', '/v1/refunds')).toHaveLength(3);

    // A double click: the same key twice at once refunds once.
    fake.latencyMs = 150;
    try {
      const click = { 'Idempotency-Key': `refund-${randomBytes(8).toString('hex')}` };
      const answers = await Promise.all([refundOf(t, payment.id, { amount: 100 }, click), refundOf(t, payment.id, { amount: 100 }, click)]);
      expect(answers.map((res) => res.status).sort()).toEqual(expect.arrayContaining([201]));
      for (const res of answers) if (res.status !== 201) expectWpError(res.body, 'checkout_idempotency_in_progress', 409);
    } finally {
      fake.latencyMs = 0;
    }
    expect(fake.requestsTo('POST', '/v1/refunds')).toHaveLength(4);
    expect((await paymentRow(t, payment.id)).amountRefunded).toBe(500);
    expect(fakeRefunded(payment.providerPaymentRef!)).toBe(500);
  });

  it('never refunds more than was paid when refunds of one payment run at once', async () => {
    const payment = await paid(1000);
    fake.clearRequests();
    fake.latencyMs = 100;
    let answers: request.Response[];
    try {
      answers = await Promise.all(Array.from({ length: 6 }, () => refundOf(t, payment.id, { amount: 300 })));
    } finally {
      fake.latencyMs = 0;
    }
    const created = answers.filter((res) => res.status === 201);
    expect(created).toHaveLength(3);
    for (const res of answers.filter((each) => each.status !== 201)) expect([400, 409]).toContain(res.status);
    const row = await paymentRow(t, payment.id);
    expect(row).toMatchObject({ amountRefunded: 900, refundReserved: 0 });
    expect(fakeRefunded(payment.providerPaymentRef!)).toBe(900);
    // The reservation refused the others before the provider heard of them (not the provider's own check).
    expect(fake.requestsTo('POST', '/v1/refunds')).toHaveLength(3);
    expect(await refundRows(t, payment.id)).toHaveLength(3);
  });

  it('a refund made at the provider meanwhile: 409, and the payment reads the provider refunds again', async () => {
    const payment = await paid(1000);
    const client = await gatewayClient(t);
    await client.refunds.create({ payment_intent: payment.providerPaymentRef!, amount: 600 });
    const res = await refundOf(t, payment.id, { amount: 500 });
    expectWpError(res.body, 'checkout_invalid_state', 409);
    const detail = await detailOf(t, payment.id);
    expect(detail).toMatchObject({ amount_refunded: 600, refundable_amount: 400 });
    expect(detail.refunds.map((refund: Json) => [refund.source, refund.status, refund.amount])).toEqual(
      expect.arrayContaining([
        ['provider', 'succeeded', 600],
        ['api', 'failed', 500],
      ]),
    );
    expect(detail.refunds.find((refund: Json) => refund.status === 'failed').failure_code).toBe('amount_too_large');
    const rest = await refundOf(t, payment.id, {});
    expect(rest.body.refund).toMatchObject({ amount: 400, status: 'succeeded' });
    expect(fakeRefunded(payment.providerPaymentRef!)).toBe(1000);
  });

  it('a provider refusal fails the refund and gives its amount back (502, our message)', async () => {
    const payment = await paid(1000);
    fake.fail({ method: 'POST', path: '/v1/refunds', status: 400, error: { type: 'invalid_request_error', code: 'charge_disputed', message: 'Provider text that must not be shown' } });
    const res = await refundOf(t, payment.id, { amount: 100 });
    const error = expectWpError(res.body, 'checkout_gateway_error', 502);
    expect(error.message).not.toMatch(/Provider text/);
    expect(await paymentRow(t, payment.id)).toMatchObject({ amountRefunded: 0, refundReserved: 0 });
    expect((await refundRows(t, payment.id)).map((row) => row.status)).toEqual(['failed']);
  });
});

describe('refunds at gateway B', () => {
  let bed: GatewayBTestBed;
  let t: TestApp;
  let formId: number;

  /** A captured order at the sandbox and the completed record holding it. */
  async function captured(value: string, currency = 'USD', minor = Math.round(Number(value) * 100)): Promise<PaymentEntity> {
    const orders = bed.sandbox.orders;
    const order = orders.create(bed.sandbox.clientId, { intent: 'CAPTURE', purchase_units: [{ amount: { currency_code: currency, value }, custom_id: '1' }] });
    orders.approve(order.id);
    const done = orders.capture(bed.sandbox.clientId, order.id);
    const capture = ((done.purchaseUnits[0].payments as Json).captures as Json[])[0];
    return completedPayment(t, formId, { gateway: 'gateway_b', paymentMethod: 'standard_checkout', amount: minor, amountReceived: minor, currency, providerPaymentRef: order.id, providerCaptureRef: capture.id as string });
  }

  beforeAll(async () => {
    bed = await startGatewayBTestBed();
    t = bed.t;
    await connectGatewayB(bed, 'test');
    formId = (await createPaymentForm(t)).id;
  });

  afterAll(async () => {
    await bed?.close();
  });

  it('refunds a capture in part and in full with a PayPal-Request-Id per refund', async () => {
    const payment = await captured('20.00');
    const first = await refundOf(t, payment.id, { amount: 500 });
    expect(first.status).toBe(201);
    expect(first.body.refund).toMatchObject({ amount: 500, status: 'succeeded', currency: 'USD' });
    const rest = await refundOf(t, payment.id, {});
    expect(rest.body.refund).toMatchObject({ amount: 1500, status: 'succeeded' });
    expect(rest.body.payment).toMatchObject({ amount_refunded: 2000, refundable_amount: 0 });
    const calls = bed.sandbox.calls.filter((call) => call.method === 'POST' && call.path === `/v2/payments/captures/${payment.providerCaptureRef}/refund`);
    expect(calls.map((call) => call.requestId)).toEqual([`checkout-${installationIdOf(t)}-refund-${first.body.refund.id}`, `checkout-${installationIdOf(t)}-refund-${rest.body.refund.id}`]);
    expect(calls[0].body).toMatchObject({ amount: { currency_code: 'USD', value: '5.00' }, custom_id: `checkout-${installationIdOf(t)}-refund-${first.body.refund.id}` });
    const { capture } = bed.sandbox.orders.findCapture(bed.sandbox.clientId, payment.providerCaptureRef!);
    expect(capture.status).toBe('REFUNDED');
    expectWpError((await refundOf(t, payment.id, {})).body, 'checkout_invalid_state', 409);
  });

  it('HUF and TWD in whole units only, 180 days at most, and a capture refunded meanwhile is 409 with the ledger read again', async () => {
    const huf = await captured('1500', 'HUF', 150_000);
    expect(expectWpError((await refundOf(t, huf.id, { amount: 150 })).body, 'rest_invalid_param', 400).data.params).toHaveProperty('amount');
    expect((await refundOf(t, huf.id, { amount: 10_000 })).body.refund).toMatchObject({ amount: 10_000, status: 'succeeded' });
    // TWD has two decimals in minor units, but gateway B takes whole dollars only.
    const twd = await captured('300', 'TWD', 30_000);
    expect(expectWpError((await refundOf(t, twd.id, { amount: 150 })).body, 'rest_invalid_param', 400).data.params).toMatchObject({ amount: expect.stringMatching(/whole units/) });
    expect(await refundRows(t, twd.id)).toEqual([]);
    expect((await refundOf(t, twd.id, { amount: 100 })).body.refund).toMatchObject({ amount: 100, currency: 'TWD', status: 'succeeded' });

    const old = await captured('10.00');
    await t.dataSource.query(`UPDATE ${t.config.tablePrefix}checkout_payments SET created_at = ? WHERE id = ?`, [
      t.dataSource.options.type === 'better-sqlite3' ? '2025-01-01 00:00:00.000' : new Date('2025-01-01T00:00:00Z'),
      old.id,
    ]);
    expect(expectWpError((await refundOf(t, old.id, {})).body, 'checkout_invalid_state', 409).message).toMatch(/180 days/);
    expect(await refundRows(t, old.id)).toEqual([]);
    // The limit is read on the application's clock: 181 days after a capture made today.
    const recent = await captured('10.00');
    const clock = advanceClock(t, 181 * 86_400_000);
    try {
      expect(expectWpError((await refundOf(t, recent.id, {})).body, 'checkout_invalid_state', 409).message).toMatch(/180 days/);
    } finally {
      clock.mockRestore();
    }
    expect((await refundOf(t, recent.id, { amount: 100 })).status).toBe(201);

    const elsewhere = await captured('10.00');
    bed.sandbox.orders.refund(bed.sandbox.clientId, elsewhere.providerCaptureRef!, {});
    expectWpError((await refundOf(t, elsewhere.id, { amount: 100 })).body, 'checkout_invalid_state', 409);
    expect(await detailOf(t, elsewhere.id)).toMatchObject({ amount_refunded: 1000, refundable_amount: 0 });
  });
});

describe('refunds from two instances on one database', () => {
  let fake: FakeGatewayA;
  let one: TestApp;
  let two: TestApp;
  let formId: number;

  beforeAll(async () => {
    fake = await startFakeGatewayA();
    const env = { DATABASE_URL: sharedDatabaseUrl(), CHECKOUT_PROXY_URL: fake.url, GATEWAY_A_API_BASE: fake.url };
    one = await startTestApp(env);
    await connectGateway(one, 'gateway_a', 'test');
    formId = (await createPaymentForm(one)).id;
    two = await startTestApp(env, { keepDatabase: true });
  });

  afterAll(async () => {
    await two?.close();
    await one?.close();
    await fake?.stop();
  });

  it('concurrent refunds of one payment on both instances never exceed what was paid, and equal the provider total', async () => {
    const intent = await (await gatewayClient(one)).paymentIntents.create({ amount: 1000, currency: 'usd', confirm: true, payment_method: 'pm_card_visa' });
    const payment = await completedPayment(one, formId, { amountReceived: 1000, providerPaymentRef: intent.id });
    fake.clearRequests();
    fake.latencyMs = 100;
    let answers: request.Response[];
    try {
      answers = await Promise.all([one, two, one, two, one, two].map((t) => refundOf(t, payment.id, { amount: 300 })));
    } finally {
      fake.latencyMs = 0;
    }
    expect(answers.filter((res) => res.status === 201)).toHaveLength(3);
    for (const res of answers.filter((each) => each.status !== 201)) expect([400, 409]).toContain(res.status);
    expect(await paymentRow(two, payment.id)).toMatchObject({ amountRefunded: 900, refundReserved: 0 });
    const provider = fake.resources.refundsOf(intent.id).reduce((sum, refund) => sum + (refund.amount as number), 0);
    expect(provider).toBe(900);
    // The reservation refused the others before the provider heard of them (not the provider's own check).
    expect(fake.requestsTo('POST', '/v1/refunds')).toHaveLength(3);
    expect(await refundRows(one, payment.id)).toHaveLength(3);
  });
});
