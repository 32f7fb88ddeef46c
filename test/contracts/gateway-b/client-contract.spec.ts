import { GatewayBClient, GatewayBError, toGatewayBAmount } from '../../../src/modules/gateway-b/client/index.js';
import { type FakeGatewayB, type RecordedCall, startFakeGatewayB } from '../../fakes/gateway-b/index.js';
import { PayPalReference } from './paypal-reference.js';

/**
 * Each operation of the gateway-B client, made against the fake: the request the client sends and
 * the answer the fake gives must both be what PayPal's published reference describes (for every
 * status the service can meet, errors included). The checker's own tests are at the end: it must
 * find what is wrong, or these tests prove nothing.
 */
describe('gateway B contract: the client against the fake, checked with PayPal\'s reference', () => {
  const reference = PayPalReference.load();
  let fake: FakeGatewayB;
  let client: GatewayBClient;
  let sequence = 0;

  beforeAll(async () => {
    fake = await startFakeGatewayB();
  });
  afterAll(() => fake.stop());
  beforeEach(() => {
    fake.clearCalls();
    fake.clearFaults();
    client = new GatewayBClient({ baseUrl: fake.url, clientId: fake.clientId, clientSecret: fake.clientSecret }, { retryDelayMs: 5 });
  });

  /** Every call of the test so far conforms, and the log holds what the test expected. */
  function expectConforming(expected: Array<[string, RegExp | string, number]>): void {
    const calls = fake.apiCalls();
    expect(calls.map((c) => [c.method, c.path, c.status])).toEqual(expected.map(([m, p, s]) => [m, typeof p === 'string' ? p : expect.stringMatching(p), s]));
    expect(reference.check(calls)).toEqual([]);
  }
  const createOrder = (minor = 1999, currency = 'USD') =>
    client.createOrder({
      amount: toGatewayBAmount(minor, currency),
      customId: '42',
      invoiceId: `checkout-test-${(sequence += 1)}`,
      requestId: `checkout-test-order-${sequence}-${minor}-${currency}`,
      description: 'Contract test',
    });
  async function refusal(promise: Promise<unknown>): Promise<GatewayBError> {
    const error = await promise.then(
      () => undefined,
      (e: unknown) => e,
    );
    if (!(error instanceof GatewayBError)) throw new Error(`expected a GatewayBError, got ${String(error)}`);
    return error;
  }
  const ORDER = /^\/v2\/checkout\/orders\/[A-Z0-9]+$/;
  const CAPTURE = /^\/v2\/checkout\/orders\/[A-Z0-9]+\/capture$/;

  describe('token (RFC 6749 client credentials)', () => {
    it('request and answer; a refused secret answers the RFC error', async () => {
      await client.verifyCredentials();
      const refused = new GatewayBClient({ baseUrl: fake.url, clientId: fake.clientId, clientSecret: 'not-the-secret' });
      expect(await refusal(refused.verifyCredentials())).toMatchObject({ status: 401, errorName: 'invalid_client' });
      expectConforming([
        ['POST', '/v1/oauth2/token', 200],
        ['POST', '/v1/oauth2/token', 401],
      ]);
    });

    it('an injected 500 (the client asks again) and a 503', async () => {
      fake.fault({ path: '/v1/oauth2/token', status: 500 });
      await client.verifyCredentials();
      fake.fault({ path: '/v1/oauth2/token', status: 503, times: 2 });
      await refusal(client.verifyCredentials());
      expect(fake.apiCalls().map((c) => c.status)).toEqual([500, 200, 503, 503]);
      // The token endpoint's errors are RFC 6749's; PayPal's 5xx bodies are not described for it.
      const calls = fake.apiCalls();
      expect(calls.flatMap((c) => reference.checkRequest(c))).toEqual([]);
      expect(reference.checkAnswer(calls[1])).toEqual([]);
    });
  });

  describe('Orders v2', () => {
    it('create (201), replay of the same PayPal-Request-Id (200), get (200)', async () => {
      const created = await createOrder();
      const replayed = await client.createOrder({ amount: toGatewayBAmount(1999, 'USD'), customId: '42', invoiceId: `checkout-test-${sequence}`, requestId: `checkout-test-order-${sequence}-1999-USD` });
      expect(replayed.id).toBe(created.id);
      await client.getOrder(created.id);
      expectConforming([
        ['POST', '/v1/oauth2/token', 200],
        ['POST', '/v2/checkout/orders', 201],
        ['POST', '/v2/checkout/orders', 200],
        ['GET', ORDER, 200],
      ]);
    });

    it('create for a redirect (return and cancel URL: PAYER_ACTION_REQUIRED) and in a currency without decimals', async () => {
      sequence += 1;
      await client.createOrder({
        amount: toGatewayBAmount(500, 'JPY'),
        customId: '43',
        requestId: `checkout-test-order-${sequence}-500-JPY`,
        returnUrl: 'https://shop.example.test/return',
        cancelUrl: 'https://shop.example.test/cancel',
        referenceId: 'default',
      });
      expectConforming([
        ['POST', '/v1/oauth2/token', 200],
        ['POST', '/v2/checkout/orders', 201],
      ]);
    });

    it('capture before approval (422 ORDER_NOT_APPROVED), after approval (201), again (422 ORDER_ALREADY_CAPTURED), replayed (200)', async () => {
      const created = await createOrder();
      expect(await refusal(client.captureOrder(created.id, `checkout-test-capture-${created.id}-a0`))).toMatchObject({ status: 422 });
      fake.approveOrder(created.id);
      await client.captureOrder(created.id, `checkout-test-capture-${created.id}`);
      expect(await refusal(client.captureOrder(created.id, `checkout-test-capture-${created.id}-a1`))).toMatchObject({ status: 422 });
      await client.captureOrder(created.id, `checkout-test-capture-${created.id}`);
      await client.getOrder(created.id);
      expectConforming([
        ['POST', '/v1/oauth2/token', 200],
        ['POST', '/v2/checkout/orders', 201],
        ['POST', CAPTURE, 422],
        ['POST', CAPTURE, 201],
        ['POST', CAPTURE, 422],
        ['POST', CAPTURE, 200],
        ['GET', ORDER, 200],
      ]);
      expect(fake.apiCalls()[3].answer?.raw).toContain('"invoice_id"');
    });

    it('the order read back after refunds made in the dashboard: its refunds (completed, pending) and the capture partially refunded', async () => {
      const created = await createOrder();
      fake.approveOrder(created.id);
      await client.captureOrder(created.id, `checkout-test-capture-${created.id}`);
      fake.orders.dashboardRefund(created.id, { value: '1.00' });
      fake.orders.dashboardRefund(created.id, { value: '2.00', status: 'PENDING', customId: 'checkout-test-refund-7' });
      const order = await client.getOrder(created.id);
      expect(order.purchase_units[0].payments?.refunds?.map((refund) => refund.status)).toEqual(['COMPLETED', 'PENDING']);
      expect(order.purchase_units[0].payments?.captures[0].status).toBe('PARTIALLY_REFUNDED');
      expectConforming([
        ['POST', '/v1/oauth2/token', 200],
        ['POST', '/v2/checkout/orders', 201],
        ['POST', CAPTURE, 201],
        ['GET', ORDER, 200],
      ]);
    });

    it('refund a capture (Payments v2): part (201), the same PayPal-Request-Id replayed (the same refund, 201), more than is left (422 REFUND_AMOUNT_EXCEEDED), the rest pending (201), then fully refunded (422 CAPTURE_FULLY_REFUNDED)', async () => {
      const created = await createOrder();
      fake.approveOrder(created.id);
      const captured = await client.captureOrder(created.id, `checkout-test-capture-${created.id}`);
      const captureId = captured.purchase_units[0].payments!.captures[0].id;
      const part = { requestId: `checkout-test-refund-${created.id}-1`, amount: { currency_code: 'USD', value: '5.00' }, customId: `checkout-test-refund-${created.id}-1` };
      const first = await client.refundCapture(captureId, part);
      expect(await client.refundCapture(captureId, part)).toMatchObject({ id: first.id });
      expect(await refusal(client.refundCapture(captureId, { requestId: `checkout-test-refund-${created.id}-2`, amount: { currency_code: 'USD', value: '15.00' }, customId: 'x' }))).toMatchObject({ status: 422 });
      fake.orders.refundStatus = 'PENDING';
      try {
        expect(await client.refundCapture(captureId, { requestId: `checkout-test-refund-${created.id}-3`, customId: 'checkout-test-refund-3' })).toMatchObject({ status: 'PENDING' });
      } finally {
        fake.orders.refundStatus = 'COMPLETED';
      }
      fake.orders.setRefundStatus(first.id, 'COMPLETED');
      expect(await refusal(client.refundCapture(captureId, { requestId: `checkout-test-refund-${created.id}-4`, customId: 'x' }))).toMatchObject({ status: 422 });
      const REFUND = /^\/v2\/payments\/captures\/[A-Z0-9]+\/refund$/;
      expectConforming([
        ['POST', '/v1/oauth2/token', 200],
        ['POST', '/v2/checkout/orders', 201],
        ['POST', CAPTURE, 201],
        ['POST', REFUND, 201],
        ['POST', REFUND, 201],
        ['POST', REFUND, 422],
        ['POST', REFUND, 201],
        ['POST', REFUND, 422],
      ]);
      expect(fake.apiCalls().filter((call) => call.status === 422).map((call) => call.answer?.raw)).toEqual([expect.stringContaining('REFUND_AMOUNT_EXCEEDED'), expect.stringContaining('CAPTURE_FULLY_REFUNDED')]);
    });

    it('captures the service reads: PENDING with a reason, DECLINED', async () => {
      const pending = await createOrder();
      fake.approveOrder(pending.id);
      fake.setCaptureOutcome(pending.id, { status: 'PENDING' });
      await client.captureOrder(pending.id, `checkout-test-capture-${pending.id}`);
      const declined = await createOrder();
      fake.approveOrder(declined.id);
      fake.setCaptureOutcome(declined.id, { status: 'DECLINED' });
      await client.captureOrder(declined.id, `checkout-test-capture-${declined.id}`);
      expect(reference.check(fake.apiCalls())).toEqual([]);
    });

    it('an order the app does not know (404), a token that expired (401, then a fresh one)', async () => {
      expect(await refusal(client.getOrder('5O190127TN364715T'))).toMatchObject({ status: 404 });
      const created = await createOrder();
      fake.expireAllTokens();
      await client.getOrder(created.id);
      expectConforming([
        ['POST', '/v1/oauth2/token', 200],
        ['GET', ORDER, 404],
        ['POST', '/v2/checkout/orders', 201],
        ['GET', ORDER, 401],
        ['POST', '/v1/oauth2/token', 200],
        ['GET', ORDER, 200],
      ]);
    });

    it('amounts PayPal refuses (the service checks them first): a currency it does not take, decimals it does not support, zero (422)', async () => {
      for (const [value, currency] of [
        ['10.00', 'XTS'],
        ['10.5', 'JPY'],
        ['1500.50', 'HUF'],
        ['0.00', 'USD'],
      ]) {
        sequence += 1;
        const error = await refusal(client.createOrder({ amount: { currency_code: currency, value }, customId: '44', requestId: `checkout-test-order-${sequence}` }));
        expect(error).toMatchObject({ status: 422 });
      }
      expect(reference.check(fake.apiCalls())).toEqual([]);
    });

    it('injected 500 and 503 answers of create, get and capture', async () => {
      const created = await createOrder();
      fake.approveOrder(created.id);
      fake.fault({ method: 'GET', path: ORDER, status: 503, times: 2 });
      await refusal(client.getOrder(created.id));
      fake.fault({ method: 'POST', path: CAPTURE, status: 500 });
      await client.captureOrder(created.id, `checkout-test-capture-${created.id}`);
      expect(fake.apiCalls().map((c) => c.status)).toEqual([200, 201, 503, 503, 500, 201]);
      expect(reference.check(fake.apiCalls())).toEqual([]);
    });
  });

  describe('Customer Disputes v1', () => {
    const DISPUTES = /^\/v1\/customer\/disputes$/;
    const DISPUTE = /^\/v1\/customer\/disputes\/PP-D-\d+$/;
    const captured = async () => {
      const created = await createOrder();
      fake.approveOrder(created.id);
      const order = await client.captureOrder(created.id, `checkout-test-capture-${created.id}`);
      return { orderId: created.id, captureId: order.purchase_units[0].payments!.captures[0].id };
    };
    const token = () => fake.issuedTokens().filter((issued) => issued.clientId === fake.clientId).at(-1)!.token;

    it('list by disputed transaction: none yet (no items, as minItems 1 says), then the capture\'s disputes newest first; show each (200)', async () => {
      const { orderId, captureId } = await captured();
      expect(await client.listDisputes(captureId)).toEqual({ disputeIds: [] });
      const first = fake.openDispute(orderId, { value: '5.00' }).dispute;
      const second = fake.openDispute(orderId, { status: 'WAITING_FOR_BUYER_RESPONSE', stage: 'INQUIRY', reason: 'UNAUTHORISED' }).dispute;
      const listed = await client.listDisputes(captureId);
      expect(new Set(listed.disputeIds)).toEqual(new Set([first.dispute_id, second.dispute_id]));
      const shown = await client.getDispute(first.dispute_id as string);
      expect(shown).toMatchObject({ dispute_id: first.dispute_id, status: 'WAITING_FOR_SELLER_RESPONSE', disputed_transactions: [{ seller_transaction_id: captureId }], dispute_amount: { currency_code: 'USD', value: '5.00' } });
      expect(shown.seller_response_due_date).toEqual(expect.any(String));
      const [call] = fake.callsTo('GET', '/v1/customer/disputes');
      expect(call.query).toEqual({ disputed_transaction_id: captureId, page_size: '50' });
      expectConforming([
        ['POST', '/v1/oauth2/token', 200],
        ['POST', '/v2/checkout/orders', 201],
        ['POST', CAPTURE, 201],
        ['GET', DISPUTES, 200],
        ['GET', DISPUTES, 200],
        ['GET', DISPUTE, 200],
      ]);
    });

    it('a resolved dispute shows its outcome; another merchant\'s dispute is not listed and not shown (404)', async () => {
      const { orderId, captureId } = await captured();
      const opened = fake.openDispute(orderId).dispute;
      fake.resolveDispute(opened.dispute_id as string, 'RESOLVED_BUYER_FAVOUR', { amountRefunded: '19.99' });
      expect(await client.getDispute(opened.dispute_id as string)).toMatchObject({ status: 'RESOLVED', dispute_outcome: { outcome_code: 'RESOLVED_BUYER_FAVOUR', amount_refunded: { currency_code: 'USD', value: '19.99' } } });
      const other = fake.addApp();
      const stranger = new GatewayBClient({ baseUrl: fake.url, clientId: other.clientId, clientSecret: other.clientSecret }, { retryDelayMs: 5 });
      expect(await stranger.listDisputes(captureId)).toEqual({ disputeIds: [] });
      expect(await refusal(stranger.getDispute(opened.dispute_id as string))).toMatchObject({ status: 404, errorName: 'RESOURCE_NOT_FOUND' });
      expect(reference.check(fake.apiCalls())).toEqual([]);
      expect(fake.apiCalls().map((c) => c.status)).toEqual([200, 201, 201, 200, 200, 200, 404]);
    });

    it('pages: the next link\'s next_page_token asks for the page after (only the token is taken)', async () => {
      const { orderId, captureId } = await captured();
      const opened = Array.from({ length: 3 }, () => fake.openDispute(orderId).dispute.dispute_id as string);
      // The client asks for 50 a page; a smaller page of the fake's own shows the link.
      const page = (await fetch(`${fake.url}/v1/customer/disputes?disputed_transaction_id=${captureId}&page_size=2`, { headers: { Authorization: `Bearer ${token()}` } }).then((res) => res.json())) as {
        items: Array<{ dispute_id: string }>;
        links: Array<{ rel: string; href: string }>;
      };
      expect(page.items).toHaveLength(2);
      const next = new URL(page.links.find((link) => link.rel === 'next')!.href).searchParams.get('next_page_token')!;
      const rest = await client.listDisputes(captureId, next);
      expect(rest.disputeIds).toHaveLength(1);
      expect(rest.nextPageToken).toBeUndefined();
      expect(new Set([...page.items.map((item) => item.dispute_id), ...rest.disputeIds])).toEqual(new Set(opened));
      expect(reference.check(fake.apiCalls())).toEqual([]);
    });

    it('the fake refuses a malformed query (400, as the error schema says); injected 503', async () => {
      const { captureId } = await captured();
      for (const query of ['disputed_transaction_id=abc-1', 'page_size=51', `disputed_transaction_id=${captureId}&start_time=2026-01-01T00:00:00Z`]) {
        expect((await fetch(`${fake.url}/v1/customer/disputes?${query}`, { headers: { Authorization: `Bearer ${token()}` } })).status).toBe(400);
      }
      fake.fault({ method: 'GET', path: DISPUTES, status: 503, times: 2 });
      expect(await refusal(client.listDisputes(captureId))).toMatchObject({ status: 503 });
      const answers = fake.apiCalls().filter((c) => c.path === '/v1/customer/disputes');
      expect(answers.map((c) => c.status)).toEqual([400, 400, 400, 503, 503]);
      // The requests are wrong on purpose: only the answers are held to the reference.
      expect(answers.slice(0, 3).flatMap((c) => reference.checkAnswerOf(c))).toEqual([]);
      expect(reference.checkRequest(answers[1]).join()).toContain('query parameter page_size');
      expect(reference.check(answers.slice(3))).toEqual([]);
    });

    it('the dispute of a CUSTOMER.DISPUTE.* event is the reference\'s dispute, in its webhook envelope', async () => {
      const { orderId } = await captured();
      const { event } = fake.openDispute(orderId);
      expect(reference.validate('webhooks', '/components/schemas/event', event)).toEqual([]);
      expect(reference.validate('disputes', '/components/schemas/dispute', event.resource)).toEqual([]);
    });
  });

  describe('Webhooks v1', () => {
    const captureEvent = async () => {
      const created = await createOrder();
      fake.approveOrder(created.id);
      await client.captureOrder(created.id, `checkout-test-capture-${created.id}`);
      return fake.captureCompletedEvent(created.id);
    };

    it('verify-webhook-signature: SUCCESS for a genuine delivery, FAILURE for another body or webhook id', async () => {
      const delivery = fake.webhookDelivery(await captureEvent());
      expect(await client.verifyWebhookSignature({ headers: delivery.headers, webhookId: fake.webhookId, rawBody: delivery.rawBody })).toMatchObject({ verified: true });
      const changed = Buffer.from(delivery.rawBody.toString('utf8').replace('"COMPLETED"', '"PENDING"'));
      expect(await client.verifyWebhookSignature({ headers: delivery.headers, webhookId: fake.webhookId, rawBody: changed })).toEqual({ verified: false, reason: 'signature_rejected' });
      expect(await client.verifyWebhookSignature({ headers: delivery.headers, webhookId: 'WH1234567890ABCDEF', rawBody: delivery.rawBody })).toMatchObject({ verified: false });
      const postbacks = fake.callsTo('POST', '/v1/notifications/verify-webhook-signature');
      expect(postbacks.map((c) => c.status)).toEqual([200, 200, 200]);
      expect(reference.check(fake.apiCalls())).toEqual([]);
    });

    it('the delivered event is PayPal\'s envelope around a Payments v2 capture', async () => {
      const event = await captureEvent();
      expect(reference.validate('webhooks', '/components/schemas/event', event)).toEqual([]);
      expect(reference.validate('payments', '/components/schemas/capture-2', event.resource)).toEqual([]);
    });

    it('show webhook details: the listener (200), an id the app does not have (404)', async () => {
      fake.setWebhookListener(fake.webhookId, { url: 'https://shop.example.test/wp-json/checkout/v1/webhook/gateway-b-callback/test', eventTypes: ['PAYMENT.CAPTURE.COMPLETED', 'CHECKOUT.ORDER.APPROVED'] });
      await client.getWebhook(fake.webhookId);
      expect(await refusal(client.getWebhook('WH1234567890ABCDEF'))).toMatchObject({ status: 404 });
      expectConforming([
        ['POST', '/v1/oauth2/token', 200],
        ['GET', `/v1/notifications/webhooks/${fake.webhookId}`, 200],
        ['GET', '/v1/notifications/webhooks/WH1234567890ABCDEF', 404],
      ]);
    });

    it('a token that expired: the v1 APIs answer 401 too, and the client asks for a fresh token', async () => {
      await client.verifyCredentials();
      fake.expireAllTokens();
      await client.getWebhook(fake.webhookId);
      expectConforming([
        ['POST', '/v1/oauth2/token', 200],
        ['GET', `/v1/notifications/webhooks/${fake.webhookId}`, 401],
        ['POST', '/v1/oauth2/token', 200],
        ['GET', `/v1/notifications/webhooks/${fake.webhookId}`, 200],
      ]);
    });
  });

  describe('the checker finds what is wrong', () => {
    const call = (overrides: Partial<RecordedCall>): RecordedCall => ({
      method: 'POST',
      path: '/v2/checkout/orders',
      query: {},
      headers: { 'content-type': 'application/json', 'paypal-request-id': 'r-1', prefer: 'return=representation', authorization: 'Bearer x' },
      authorization: 'bearer',
      rawBody: '{}',
      body: { intent: 'CAPTURE', purchase_units: [{ amount: { currency_code: 'USD', value: '1.00' } }] },
      ...overrides,
    });

    it('in requests: unknown operation, undeclared header, bad header value, body against the schema, authentication', () => {
      expect(reference.checkRequest(call({}))).toEqual([]);
      expect(reference.checkRequest(call({ path: '/v2/checkout/order' }))).toEqual([expect.stringContaining('no operation of the reference')]);
      expect(reference.checkRequest(call({ headers: { ...call({}).headers, 'paypal-idempotency-key': 'x' } }))).toEqual([expect.stringContaining('header paypal-idempotency-key is not a parameter of orders.create')]);
      expect(reference.checkRequest(call({ headers: { ...call({}).headers, prefer: 'return=representation; handling=strict' } }))[0]).toContain('header Prefer');
      expect(reference.checkRequest(call({ headers: { ...call({}).headers, 'paypal-request-id': 'x'.repeat(109) } }))).toEqual([expect.stringContaining('header PayPal-Request-Id')]);
      expect(reference.checkRequest(call({ body: { intent: 'SALE', purchase_units: [{ amount: { currency_code: 'USD', value: '1.00' } }] } }))[0]).toContain('/intent must be equal to one of the allowed values');
      expect(reference.checkRequest(call({ body: { intent: 'CAPTURE', purchase_units: [{ custom_id: '1' }] } }))[0]).toContain("must have required property 'amount'");
      expect(reference.checkRequest(call({ authorization: 'basic' }))).toEqual([expect.stringContaining('authorization is basic')]);
      expect(reference.checkRequest(call({ method: 'GET', path: '/v2/checkout/orders/abc-1', rawBody: '', body: undefined, headers: { authorization: 'Bearer x' } }))[0]).toContain('path parameter id');
      expect(reference.checkRequest(call({ method: 'GET', path: '/v2/checkout/orders/ABC1', query: { expand: 'all' }, rawBody: '', body: undefined, headers: { authorization: 'Bearer x' } }))).toEqual([expect.stringContaining('query parameter expand')]);
      const token = call({ path: '/v1/oauth2/token', authorization: 'basic', headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: 'Basic x' }, rawBody: 'grant_type=password', body: { grant_type: 'password' } });
      expect(reference.checkRequest(token)[0]).toContain('/grant_type must be equal to constant');
    });

    it('in answers: a missing required field, a value outside an enum, an issue code the operation does not document, an undocumented status', () => {
      const answer = (status: number, body: unknown, path = '/v2/checkout/orders/ABC1/capture', method = 'POST') =>
        call({ method, path, answer: { status, contentType: 'application/json', raw: JSON.stringify(body) } });
      expect(reference.checkAnswer(answer(201, { id: 'ABC1', status: 'COMPLETED' }))).toEqual([]);
      expect(reference.checkAnswer(answer(201, { id: 'ABC1', status: 'CAPTURED' }))[0]).toContain('/status must be equal to one of the allowed values');
      const unprocessable = { name: 'UNPROCESSABLE_ENTITY', message: 'The requested action could not be performed, semantically incorrect, or failed business validation.', debug_id: 'abc' };
      expect(reference.checkAnswer(answer(422, { ...unprocessable, details: [{ issue: 'ORDER_ALREADY_CAPTURED', description: "Order already captured.If 'intent=CAPTURE' only one capture per order is allowed." }] }))).toEqual([]);
      expect(reference.checkAnswer(answer(422, { ...unprocessable, details: [{ issue: 'ORDER_CAPTURED_ALREADY' }] })).join()).toContain('must match a schema in anyOf');
      expect(reference.checkAnswer(answer(429, { name: 'RATE_LIMIT_REACHED', message: 'Too many requests.', debug_id: 'abc' })).join()).toContain('must match exactly one schema in oneOf');
      expect(reference.checkAnswer(answer(200, { verification_status: 'MAYBE' }, '/v1/notifications/verify-webhook-signature'))[0]).toContain('/verification_status must be equal to one of the allowed values');
      expect(reference.checkAnswer(answer(200, { url: 'https://x.test/' }, '/v1/notifications/webhooks/WH1', 'GET'))[0]).toContain("must have required property 'event_types'");
      expect(reference.checkAnswer(answer(200, { token_type: 'Bearer', expires_in: 3600 }, '/v1/oauth2/token'))[0]).toContain("must have required property 'access_token'");
      expect(reference.checkAnswer(answer(200, { access_token: 'A21AAx', token_type: 'Bearer' }, '/v1/oauth2/token'))).toEqual([]);
      expect(reference.checkAnswer(answer(403, { error: 'access_denied' }, '/v1/oauth2/token'))[0]).toContain('status 403 is not an answer of oauth2.token');
    });
  });
});
