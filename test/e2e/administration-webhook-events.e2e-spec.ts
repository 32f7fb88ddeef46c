import request from 'supertest';
import { GatewayAContractService } from '../../src/modules/gateway-a/index.js';
import { PaymentLedgerService } from '../../src/modules/payments/index.js';
import { InstallationService } from '../../src/modules/settings/index.js';
import { signedEvent, signPayload } from '../fakes/gateway-a/index.js';
import { connectThroughProxy, type GatewayATestBed, startGatewayATestBed } from '../support/gateway-a.js';
import { expectWpError } from '../support/http.js';
import { createPaymentForm, type SyncAnswer } from '../support/payment-fixtures.js';
import type { TestApp } from '../support/test-app.js';

/** GET /administration/webhook-events: an addition to the spec (issue: a view of received provider events). */
describe('GET /administration/webhook-events', () => {
  let bed: GatewayATestBed;
  let t: TestApp;
  let secret: string;
  let counter = 0;
  const ids: Record<string, string> = {};
  let paymentId: number;

  const ours = (fields: Record<string, string> = {}) => ({ checkout_installation_id: t.app.get(InstallationService).id(), ...fields });
  const intent = (id: string, payment: number, fields: Record<string, unknown> = {}) => ({
    id,
    object: 'payment_intent',
    amount: 1000,
    amount_received: 1000,
    currency: 'usd',
    status: 'succeeded',
    metadata: ours({ checkout_payment_id: String(payment) }),
    receipt_email: 'payer-private@example.test',
    ...fields,
  });
  const deliver = (type: string, object: Record<string, unknown>, id = `evt_list_${++counter}`) => {
    const { body, signature } = signedEvent(type, object, secret, { id });
    return request(t.http).post(`${t.base}/webhook/gateway-a-callback/test`).set('Content-Type', 'application/json').set('Gateway-A-Signature', signature).send(body);
  };
  /** Section B's generic webhook, signed with the site's generic secret (rotated once to read it whole). */
  let genericSecret: string;
  const deliverGeneric = (envelope: Record<string, unknown>) => {
    const raw = JSON.stringify(envelope);
    return request(t.http).post(`${t.base}/webhook/receive`).set('Content-Type', 'application/json').set('Checkout-Signature', signPayload(raw, genericSecret)).send(raw);
  };
  const list = (query: Record<string, string | number> = {}, auth = t.admin.auth) => request(t.http).get(`${t.base}/administration/webhook-events`).query(query).set('Authorization', auth);

  beforeAll(async () => {
    bed = await startGatewayATestBed();
    t = bed.t;
    const landing = await connectThroughProxy(bed, 'test');
    expect(landing.searchParams.get('gateway_a_webhook')).toBe('verified');
    secret = (await t.app.get(GatewayAContractService).getSigningSecret('test'))!;
    genericSecret = (await request(t.http).post(`${t.base}/webhook/rotate-secret`).set('Authorization', t.admin.auth)).body.secret;
    expect(genericSecret).toMatch(/^whsec_/);
    const form = await createPaymentForm(t);
    const sync = (await request(t.http).post(`${t.base}/payment/sync-details`).send({ form_id: form.id, payment_gateway: 'gateway_a', payment_method: 'ccard' })).body as SyncAnswer;
    paymentId = sync.payment_id;
    await t.app.get(PaymentLedgerService).recordProviderDetails(paymentId, { providerPaymentRef: 'pi_listed' }, 'test');

    ids.rejected = 'evt_list_rejected';
    expect((await deliver('payment_intent.succeeded', intent('pi_listed', paymentId, { amount: 999 }), ids.rejected)).body.outcome).toBe('rejected');
    ids.ignored = 'evt_list_ignored';
    expect((await deliver('charge.refunded', { id: 'ch_1', object: 'charge' }, ids.ignored)).body.outcome).toBe('ignored');
    ids.failed = 'evt_list_failed';
    jest.spyOn(t.app.get(PaymentLedgerService), 'transition').mockRejectedValueOnce(Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }));
    expect((await deliver('payment_intent.succeeded', intent('pi_listed', paymentId), ids.failed)).status).toBe(503);
    jest.restoreAllMocks();
    ids.processed = 'evt_list_processed';
    expect((await deliver('payment_intent.succeeded', intent('pi_listed', paymentId), ids.processed)).body.outcome).toBe('processed');
    expect((await deliver('payment_intent.succeeded', intent('pi_listed', paymentId), ids.processed)).body.outcome).toBe('duplicate');
  });
  afterAll(() => bed.close());

  it('lists every received event newest first with its outcome, reason and payment, and the paging headers', async () => {
    const res = await list();
    expect(res.status).toBe(200);
    expect(res.headers['x-wp-total']).toBe('4');
    expect(res.headers['x-wp-totalpages']).toBe('1');
    expect(res.body.map((entry: { event_id: string }) => entry.event_id)).toEqual([ids.processed, ids.failed, ids.ignored, ids.rejected]);
    const byId = Object.fromEntries(res.body.map((entry: { event_id: string }) => [entry.event_id, entry]));
    expect(byId[ids.rejected]).toEqual({
      id: expect.any(Number),
      gateway: 'gateway_a',
      event_id: ids.rejected,
      event_type: 'payment_intent.succeeded',
      mode: 'test',
      outcome: 'rejected',
      reason: 'amount or currency differs from the record',
      payment_id: paymentId,
      received_at: expect.stringMatching(/Z$/),
      processed_at: expect.stringMatching(/Z$/),
    });
    expect(byId[ids.ignored]).toMatchObject({ outcome: 'ignored', payment_id: null, event_type: 'charge.refunded' });
    expect(byId[ids.failed]).toMatchObject({ outcome: 'failed', reason: 'attempt failed: checkout_unavailable', processed_at: null });
    expect(byId[ids.processed]).toMatchObject({ outcome: 'processed', reason: null, payment_id: paymentId });
    // No payload: the payer's email in the event never reaches the list.
    expect(JSON.stringify(res.body)).not.toContain('payer-private@example.test');
  });

  it('filters by outcome, gateway and mode, and pages', async () => {
    expect((await list({ outcome: 'rejected' })).body.map((entry: { event_id: string }) => entry.event_id)).toEqual([ids.rejected]);
    expect((await list({ outcome: 'failed' })).body.map((entry: { event_id: string }) => entry.event_id)).toEqual([ids.failed]);
    expect((await list({ outcome: 'pending' })).body).toEqual([]);
    expect((await list({ gateway: 'gateway_b' })).body).toEqual([]);
    expect((await list({ mode: 'live' })).body).toEqual([]);
    expect((await list({ gateway: 'gateway_a', mode: 'test' })).body).toHaveLength(4);
    const second = await list({ per_page: 3, page: 2 });
    expect(second.body.map((entry: { event_id: string }) => entry.event_id)).toEqual([ids.rejected]);
    expect(second.headers['x-wp-totalpages']).toBe('2');
  });

  it('pages by keyset too: after the previous page\'s X-Checkout-Next-Cursor, once each; a forged cursor is 400 rest_invalid_param (issue 36)', async () => {
    const whole = ((await list()).body as Array<{ event_id: string }>).map((entry) => entry.event_id);
    const seen: string[] = [];
    let after: string | undefined;
    for (;;) {
      const res = await list(after === undefined ? { per_page: 1 } : { per_page: 1, after });
      expect(res.status).toBe(200);
      expect(res.headers['x-checkout-total-estimated']).toBe('false');
      expect(res.headers['x-wp-total']).toBe(String(whole.length));
      seen.push(...res.body.map((entry: { event_id: string }) => entry.event_id));
      after = res.headers['x-checkout-next-cursor'] as string | undefined;
      if (after === undefined) break;
    }
    expect(seen).toEqual(whole);
    for (const forged of ['%%%', Buffer.from('1.x').toString('base64url'), Buffer.from('12').toString('base64url')]) {
      const res = await list({ after: forged });
      expect(res.status).toBe(400);
      expect(expectWpError(res.body, 'rest_invalid_param', 400).data.params).toHaveProperty('after');
    }
    const valid = (await list({ per_page: 1 })).headers['x-checkout-next-cursor'] as string;
    expect(expectWpError((await list({ after: valid, page: 2 })).body, 'rest_invalid_param', 400).data.params).toHaveProperty('page');
  });

  it('filters by event type, payment, received time and the generic provider', async () => {
    const eventIds = async (query: Record<string, string | number>) => {
      const res = await list(query);
      expect(res.status).toBe(200);
      return res.body.map((entry: { event_id: string }) => entry.event_id);
    };
    expect(await eventIds({ event_type: 'charge.refunded' })).toEqual([ids.ignored]);
    expect(await eventIds({ event_type: ' charge.refunded ' })).toEqual([ids.ignored]);
    // Blank is no filter, like the payments list's search.
    expect(await eventIds({ event_type: ' ' })).toHaveLength(4);
    // Exact, not a prefix or a pattern.
    expect(await eventIds({ event_type: 'charge' })).toEqual([]);
    expect(await eventIds({ event_type: 'charge.%' })).toEqual([]);
    // The failed attempt stored no payment (its outcome was never written), so it is not this payment's.
    expect(await eventIds({ payment_id: paymentId })).toEqual([ids.processed, ids.rejected]);
    expect(await eventIds({ payment_id: paymentId, outcome: 'rejected' })).toEqual([ids.rejected]);
    expect(await eventIds({ payment_id: paymentId + 1000 })).toEqual([]);
    const total = await list({ payment_id: paymentId, per_page: 1 });
    expect(total.headers['x-wp-total']).toBe('2');

    // Received times: from is inclusive, before is exclusive, a date alone is midnight UTC.
    const entries = (await list()).body as Array<{ event_id: string; received_at: string }>;
    const ignoredAt = entries.find((entry) => entry.event_id === ids.ignored)!.received_at;
    expect(await eventIds({ received_from: ignoredAt, event_type: 'charge.refunded' })).toEqual([ids.ignored]);
    expect(await eventIds({ received_before: ignoredAt, event_type: 'charge.refunded' })).toEqual([]);
    expect(await eventIds({ received_before: new Date(Date.parse(ignoredAt) + 1).toISOString(), event_type: 'charge.refunded' })).toEqual([ids.ignored]);
    const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
    expect(await eventIds({ received_from: tomorrow })).toEqual([]);
    expect(await eventIds({ received_before: tomorrow })).toHaveLength(4);

    // Section B's generic webhook is a provider of its own (no mode).
    expect(await eventIds({ gateway: 'generic' })).toEqual([]);
    const generic = await deliverGeneric({ id: 'evt_list_generic', event: 'charge.refunded', data: { transaction_id: 'nothing', amount: 1, currency: 'USD' } });
    expect(generic.body.outcome).toBe('ignored');
    expect(await eventIds({ gateway: 'generic' })).toEqual(['evt_list_generic']);
    expect((await list({ gateway: 'generic' })).body[0]).toMatchObject({ gateway: 'generic', mode: null, outcome: 'ignored', event_type: 'charge.refunded' });
    expect(await eventIds({ gateway: 'gateway_a', event_type: 'charge.refunded' })).toEqual([ids.ignored]);
  });

  it('refuses bad filters with 400 naming them', async () => {
    for (const [query, field] of [
      [{ outcome: 'duplicate' }, 'outcome'],
      [{ gateway: 'gateway_z' }, 'gateway'],
      [{ mode: 'prod' }, 'mode'],
      [{ per_page: 101 }, 'per_page'],
      [{ page: 0 }, 'page'],
      [{ event_type: 'x'.repeat(256) }, 'event_type'],
      [{ payment_id: 0 }, 'payment_id'],
      [{ payment_id: 'abc' }, 'payment_id'],
      [{ received_from: '2026-01-31T12:00:00' }, 'received_from'],
      [{ received_before: 'yesterday' }, 'received_before'],
      [{ received_from: '2026-02-01', received_before: '2026-02-01' }, 'received_before'],
    ] as const) {
      const res = await list(query);
      expect(res.status).toBe(400);
      expect(expectWpError(res.body, 'rest_invalid_param', 400).data.params).toHaveProperty(field);
    }
  });

  it('is an admin route: 401 without credentials, 403 without the capability', async () => {
    const anonymous = await request(t.http).get(`${t.base}/administration/webhook-events`);
    expectWpError(anonymous.body, 'rest_not_logged_in', 401);
    const editor = await t.createUser('editor');
    expectWpError((await list({}, editor.auth)).body, 'rest_forbidden', 403);
  });
});
