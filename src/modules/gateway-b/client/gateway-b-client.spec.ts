import { createServer } from 'node:net';
import { inspect } from 'node:util';
import { type FakeGatewayB, startFakeGatewayB } from '../../../../test/fakes/gateway-b/index.js';
import { ASSUMED_TOKEN_LIFETIME_SECONDS, refreshMarginMs } from './access-token-cache.js';
import { GatewayBClient, type GatewayBClientOptions, isGatewayBOrderId } from './gateway-b-client.js';
import { GatewayBCredentialsError, GatewayBError, GatewayBMalformedResponseError, GatewayBRefusedError, GatewayBUnreachableError } from './gateway-b-errors.js';
import { toGatewayBAmount } from './gateway-b-money.js';
import { approvalUrl, firstCapture } from './gateway-b-wire.js';

describe('GatewayBClient (against the fake gateway B)', () => {
  let fake: FakeGatewayB;
  let now = Date.now();
  const clock = { now: () => new Date(now) };

  beforeAll(async () => {
    fake = await startFakeGatewayB({ now: () => now });
  });
  afterAll(() => fake.stop());
  beforeEach(() => {
    now = Date.now();
    fake.clearCalls();
    fake.clearFaults();
  });

  const client = (options: GatewayBClientOptions = {}, secret = fake.clientSecret) =>
    new GatewayBClient({ baseUrl: fake.url, clientId: fake.clientId, clientSecret: secret }, { clock, retryDelayMs: 10, ...options });
  const tokenCalls = () => fake.callsTo('POST', '/v1/oauth2/token');
  const order = (c: GatewayBClient, requestId = `req-${Math.random()}`, minor = 1999) =>
    c.createOrder({ amount: toGatewayBAmount(minor, 'USD'), customId: 'payment-7', requestId });
  /** The error a promise rejects with (fails the test if it resolves). */
  async function failure(promise: Promise<unknown>): Promise<GatewayBError> {
    try {
      await promise;
    } catch (error) {
      if (error instanceof GatewayBError) return error;
      throw error;
    }
    throw new Error('expected a GatewayBError');
  }

  describe('construction and credentials', () => {
    it('takes an http(s) base URL (a path prefix is kept) and refuses credentials in it', () => {
      expect(new GatewayBClient({ baseUrl: 'https://api-m.sandbox.paypal.com/', clientId: 'a', clientSecret: 'b' }).baseUrl).toBe('https://api-m.sandbox.paypal.com');
      expect(new GatewayBClient({ baseUrl: 'http://proxy.test/paypal/', clientId: 'a', clientSecret: 'b' }).baseUrl).toBe('http://proxy.test/paypal');
      expect(() => new GatewayBClient({ baseUrl: 'ftp://x', clientId: 'a', clientSecret: 'b' })).toThrow(TypeError);
      expect(() => new GatewayBClient({ baseUrl: 'https://u:p@x', clientId: 'a', clientSecret: 'b' })).toThrow(TypeError);
      expect(() => new GatewayBClient({ baseUrl: 'https://x', clientId: 'a', clientSecret: '' })).toThrow(TypeError);
    });

    it('verifyCredentials() asks for a token: app id, scopes and expiry, never the token', async () => {
      const info = await client().verifyCredentials();
      expect(info).toEqual({ scopes: expect.arrayContaining(['openid']), expiresAt: new Date(now + 32_400_000) });
      expect(tokenCalls()).toHaveLength(1);
      expect(tokenCalls()[0]).toMatchObject({ authorization: 'basic', clientId: fake.clientId, headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: { grant_type: 'client_credentials' } });
    });

    it('refused credentials: GatewayBCredentialsError (401 invalid_client), with no secret in it', async () => {
      const error = await failure(client({}, 'wrong-secret-value').verifyCredentials());
      expect(error).toBeInstanceOf(GatewayBCredentialsError);
      expect(error).toMatchObject({ kind: 'refused', operation: 'token', status: 401, errorName: 'invalid_client', outcomeUnknown: false });
      expect(`${error.message} ${error.stack} ${JSON.stringify(error)} ${inspect(error)}`).not.toContain('wrong-secret-value');
      expect(tokenCalls()).toHaveLength(1); // a 401 is not retried
    });
  });

  describe('the access token', () => {
    it('is requested once for many calls, and once for concurrent first calls', async () => {
      const c = client();
      const created = await order(c);
      await Promise.all([c.getOrder(created.id), c.getOrder(created.id), c.getOrder(created.id)]);
      await c.getOrder(created.id);
      expect(tokenCalls()).toHaveLength(1);
      const fresh = client();
      await Promise.all([fresh.getOrder(created.id), fresh.getOrder(created.id), order(fresh)]);
      expect(tokenCalls()).toHaveLength(2);
    });

    it('is renewed shortly before it expires, without waiting for a 401', async () => {
      const c = client();
      const created = await order(c);
      now += 32_400_000 - 59_000; // inside the last minute
      await c.getOrder(created.id);
      expect(tokenCalls()).toHaveLength(2);
      expect(fake.apiCalls().filter((call) => call.status === 401)).toEqual([]);
    });

    it('without expires_in (RFC 6749 only recommends it): cached for the assumed five minutes, renewed shortly before', async () => {
      await client().verifyCredentials();
      const issued = fake.issuedTokens().at(-1)!.token;
      const created = await order(client());
      fake.clearCalls();
      fake.fault({ path: '/v1/oauth2/token', body: { access_token: issued, token_type: 'Bearer', scope: 'openid' } });
      const c = client();
      expect(await c.verifyCredentials()).toEqual({ scopes: ['openid'], expiresAt: new Date(now + ASSUMED_TOKEN_LIFETIME_SECONDS * 1000), lifetimeAssumed: true });
      now += ASSUMED_TOKEN_LIFETIME_SECONDS * 1000 - refreshMarginMs(ASSUMED_TOKEN_LIFETIME_SECONDS * 1000) - 1;
      await c.getOrder(created.id);
      expect(tokenCalls()).toHaveLength(1);
      now += 1;
      await c.getOrder(created.id);
      expect(tokenCalls()).toHaveLength(2); // renewed (the fake's own answer this time, with expires_in)
      expect(fake.apiCalls().filter((call) => call.status === 401)).toEqual([]);
    });

    it('without expires_in and refused before the assumed lifetime ends: dropped on the 401, the call made again with a fresh token', async () => {
      const created = await order(client());
      fake.clearCalls();
      fake.fault({ path: '/v1/oauth2/token', body: { access_token: 'A21AAnot-issued-by-the-fake', token_type: 'bearer' } });
      const c = client();
      expect((await c.getOrder(created.id)).id).toBe(created.id);
      expect(fake.apiCalls().map((call) => [call.method, call.path, call.status])).toEqual([
        ['POST', '/v1/oauth2/token', 200],
        ['GET', `/v2/checkout/orders/${created.id}`, 401],
        ['POST', '/v1/oauth2/token', 200],
        ['GET', `/v2/checkout/orders/${created.id}`, 200],
      ]);
    });

    it('is dropped on a 401 and the call is made once more with a fresh token', async () => {
      const c = client();
      const created = await order(c);
      fake.expireAllTokens();
      fake.clearCalls();
      expect((await c.getOrder(created.id)).id).toBe(created.id);
      expect(fake.apiCalls().map((call) => [call.method, call.path, call.status])).toEqual([
        ['GET', `/v2/checkout/orders/${created.id}`, 401],
        ['POST', '/v1/oauth2/token', 200],
        ['GET', `/v2/checkout/orders/${created.id}`, 200],
      ]);
      const [refused, , retried] = fake.apiCalls();
      expect(retried.headers.authorization).not.toBe(refused.headers.authorization);
    });

    it('is refreshed once for concurrent calls that all met the 401', async () => {
      const c = client();
      const created = await order(c);
      fake.expireAllTokens();
      fake.clearCalls();
      await Promise.all([c.getOrder(created.id), c.getOrder(created.id), c.getOrder(created.id), order(c)]);
      expect(tokenCalls()).toHaveLength(1);
    });

    it('gives up after one refresh: a second 401 is GatewayBCredentialsError', async () => {
      const c = client();
      const created = await order(c);
      fake.fault({ path: `/v2/checkout/orders/${created.id}`, status: 401, times: 2 });
      const error = await failure(c.getOrder(created.id));
      expect(error).toBeInstanceOf(GatewayBCredentialsError);
      expect(error).toMatchObject({ status: 401, operation: 'get_order' });
      expect(fake.callsTo('GET', `/v2/checkout/orders/${created.id}`)).toHaveLength(2);
    });
  });

  describe('orders', () => {
    it('creates with intent CAPTURE, the amount, custom_id, PayPal-Request-Id and return=representation', async () => {
      const c = client();
      const created = await c.createOrder({ amount: toGatewayBAmount(150000, 'HUF'), customId: 'payment-8', requestId: 'pay-8-150000-HUF', invoiceId: 'INV-8', description: 'Club' });
      expect(created).toMatchObject({
        id: expect.stringMatching(/^[A-Z0-9]{17}$/),
        status: 'CREATED',
        intent: 'CAPTURE',
        purchase_units: [{ amount: { currency_code: 'HUF', value: '1500' }, custom_id: 'payment-8', invoice_id: 'INV-8', description: 'Club' }],
      });
      expect(approvalUrl(created)).toBe(`${fake.url}/checkoutnow?token=${created.id}`);
      const [call] = fake.callsTo('POST', '/v2/checkout/orders');
      expect(call).toMatchObject({ authorization: 'bearer', requestId: 'pay-8-150000-HUF', prefer: 'return=representation', headers: { 'content-type': 'application/json' } });
      expect(call.body).toEqual({ intent: 'CAPTURE', purchase_units: [{ amount: { currency_code: 'HUF', value: '1500' }, custom_id: 'payment-8', invoice_id: 'INV-8', description: 'Club' }] });
      const again = await c.createOrder({ amount: toGatewayBAmount(150000, 'HUF'), customId: 'payment-8', requestId: 'pay-8-150000-HUF', invoiceId: 'INV-8', description: 'Club' });
      expect(again.id).toBe(created.id);
      const redirect = await c.createOrder({ amount: toGatewayBAmount(100, 'EUR'), customId: 'p', requestId: 'r-redirect', returnUrl: 'https://shop.test/back', cancelUrl: 'https://shop.test/cancel' });
      expect(redirect.status).toBe('PAYER_ACTION_REQUIRED');
      expect(approvalUrl(redirect)).toContain('/checkoutnow?token=');
    });

    it('captures an approved order with its request id; the capture carries status, amount and custom_id', async () => {
      const c = client();
      const created = await order(c);
      fake.approveOrder(created.id);
      const captured = await c.captureOrder(created.id, `capture-${created.id}`);
      expect(captured.status).toBe('COMPLETED');
      expect(firstCapture(captured)).toMatchObject({ id: expect.any(String), status: 'COMPLETED', amount: { currency_code: 'USD', value: '19.99' }, custom_id: 'payment-7', final_capture: true });
      expect(fake.callsTo('POST', `/v2/checkout/orders/${created.id}/capture`)[0]).toMatchObject({ requestId: `capture-${created.id}`, prefer: 'return=representation' });
      const again = await c.captureOrder(created.id, `capture-${created.id}`);
      expect(firstCapture(again)?.id).toBe(firstCapture(captured)?.id);
      const read = await c.getOrder(created.id);
      expect(firstCapture(read)?.id).toBe(firstCapture(captured)?.id);
    });

    it('passes on what capture says, for the caller\'s contract checks (PENDING, other amount, no custom_id)', async () => {
      const c = client();
      const pending = await order(c);
      fake.approveOrder(pending.id);
      fake.setCaptureOutcome(pending.id, { status: 'PENDING' });
      expect(firstCapture(await c.captureOrder(pending.id, 'cap-pending'))).toMatchObject({ status: 'PENDING', status_details: { reason: 'PENDING_REVIEW' } });
      const tampered = await order(c);
      fake.approveOrder(tampered.id);
      fake.setCaptureOutcome(tampered.id, { amount: { currency_code: 'EUR', value: '1.00' }, custom_id: null });
      const capture = firstCapture(await c.captureOrder(tampered.id, 'cap-tampered'));
      expect(capture?.amount).toEqual({ currency_code: 'EUR', value: '1.00' });
      expect(capture).not.toHaveProperty('custom_id');
    });

    it('refuses a malformed order id, request id or amount before calling', async () => {
      const c = client();
      await expect(c.getOrder('../../v1/oauth2/token')).rejects.toThrow(RangeError);
      await expect(c.captureOrder('ABC', '')).rejects.toThrow(RangeError);
      await expect(c.createOrder({ amount: { currency_code: 'USD', value: '19.999' }, customId: 'p', requestId: 'r' })).rejects.toThrow(RangeError);
      await expect(c.createOrder({ amount: { currency_code: 'USD', value: '1.00' }, customId: 'x'.repeat(128), requestId: 'r' })).rejects.toThrow(RangeError);
      expect(fake.apiCalls()).toEqual([]);
      expect(isGatewayBOrderId('5O190127TN364715T')).toBe(true);
      expect(isGatewayBOrderId('A'.repeat(36))).toBe(true);
      // Orders v2's `id` path parameter: ^[A-Z0-9]+$, at most 36 characters
      for (const id of ['a/b', 'pi_3FromGatewayA', '5o190127tn364715t', '5O19-0127', 'A'.repeat(37), '']) expect(isGatewayBOrderId(id)).toBe(false);
      await expect(c.getOrder('pi_3FromGatewayA')).rejects.toThrow(RangeError);
      expect(fake.apiCalls()).toEqual([]);
    });
  });

  describe('errors', () => {
    it('refused: status, PayPal name, issue codes and debug_id, without PayPal\'s prose', async () => {
      const c = client();
      const created = await order(c);
      const notApproved = await failure(c.captureOrder(created.id, 'cap-early'));
      expect(notApproved).toBeInstanceOf(GatewayBRefusedError);
      expect(notApproved).toMatchObject({ kind: 'refused', status: 422, errorName: 'UNPROCESSABLE_ENTITY', issues: [{ issue: 'ORDER_NOT_APPROVED' }], debugId: expect.stringMatching(/^[0-9a-f]{13}$/), outcomeUnknown: false, temporary: false });
      expect((notApproved as GatewayBRefusedError).hasIssue('ORDER_NOT_APPROVED')).toBe(true);
      expect(notApproved.message).toBe(`Gateway B refused capture_order: HTTP 422 UNPROCESSABLE_ENTITY [ORDER_NOT_APPROVED] (debug_id ${(notApproved as GatewayBRefusedError).debugId})`);
      expect(notApproved.message).not.toMatch(/Payer has not yet approved/);

      expect(await failure(c.getOrder('0NOSUCHORDER0000'))).toMatchObject({ status: 404, errorName: 'RESOURCE_NOT_FOUND', issues: [{ issue: 'INVALID_RESOURCE_ID', field: 'order_id', location: 'path' }] });
      const decimals = await failure(c.createOrder({ amount: { currency_code: 'JPY', value: '1000.00' }, customId: 'p', requestId: 'jpy-decimals' }));
      expect(decimals).toMatchObject({ status: 422, issues: [{ issue: 'DECIMAL_PRECISION', field: '/purchase_units/0/amount/value' }] });
      expect(JSON.stringify(decimals)).not.toContain('1000.00'); // the echoed value is dropped
    });

    it('retries a GET once after a 5xx or a dropped connection, then reports the refusal', async () => {
      const c = client();
      const created = await order(c);
      const path = `/v2/checkout/orders/${created.id}`;
      fake.fault({ path, status: 500 });
      expect((await c.getOrder(created.id)).id).toBe(created.id);
      fake.fault({ path, drop: 'before' });
      expect((await c.getOrder(created.id)).id).toBe(created.id);
      fake.clearCalls();
      fake.fault({ path, status: 503, times: 2 });
      expect(await failure(c.getOrder(created.id))).toMatchObject({ kind: 'refused', status: 503, errorName: 'SERVICE_UNAVAILABLE', temporary: true, outcomeUnknown: false });
      expect(fake.callsTo('GET', path)).toHaveLength(2);
      fake.fault({ path, status: 429 });
      expect(await failure(c.getOrder(created.id))).toMatchObject({ status: 429, temporary: true }); // not retried
      expect(fake.callsTo('GET', path)).toHaveLength(3);
    });

    it('repeats a POST with its PayPal-Request-Id after a 5xx, or a drop after PayPal acted: one order, one capture', async () => {
      const c = client();
      fake.fault({ path: '/v2/checkout/orders', status: 503 });
      const created = await order(c, 'create-after-503');
      expect(fake.callsTo('POST', '/v2/checkout/orders').map((call) => [call.requestId, call.status])).toEqual([
        ['create-after-503', 503],
        ['create-after-503', 201],
      ]);
      fake.approveOrder(created.id);
      const path = `/v2/checkout/orders/${created.id}/capture`;
      fake.fault({ path, drop: 'after' }); // captured at PayPal, answer lost
      const captured = await c.captureOrder(created.id, 'capture-dropped');
      expect(firstCapture(captured)?.status).toBe('COMPLETED');
      expect(fake.callsTo('POST', path).map((call) => [call.requestId, call.status, call.replayed ?? false])).toEqual([
        ['capture-dropped', 201, false],
        ['capture-dropped', 200, true],
      ]);
      expect((fake.order(created.id) as { purchase_units: Array<{ payments: { captures: unknown[] } }> }).purchase_units[0].payments.captures).toHaveLength(1);
    });

    it('does not repeat a POST without a PayPal-Request-Id (verify-webhook-signature)', async () => {
      const c = client();
      const delivery = fake.webhookDelivery({ id: 'WH-1', event_type: 'PAYMENT.CAPTURE.COMPLETED', resource: {} });
      fake.fault({ path: '/v1/notifications/verify-webhook-signature', status: 500 });
      const error = await failure(c.verifyWebhookSignature({ headers: delivery.headers, webhookId: fake.webhookId, rawBody: delivery.rawBody }));
      expect(error).toMatchObject({ kind: 'refused', status: 500, operation: 'verify_webhook_signature', outcomeUnknown: false });
      expect(fake.callsTo('POST', '/v1/notifications/verify-webhook-signature')).toHaveLength(1);
    });

    it('unreachable: connection refused (token first), or every attempt dropped; a POST outcome is then unknown', async () => {
      const closedPort = await new Promise<number>((resolve) => {
        const server = createServer().listen(0, '127.0.0.1', () => {
          const { port } = server.address() as { port: number };
          server.close(() => resolve(port));
        });
      });
      const nowhere = new GatewayBClient({ baseUrl: `http://127.0.0.1:${closedPort}`, clientId: 'a', clientSecret: 'b' }, { retryDelayMs: 10 });
      expect(await failure(nowhere.getOrder('ABC'))).toMatchObject({ kind: 'unreachable', reason: 'network', operation: 'token', outcomeUnknown: false });

      const c = client();
      await c.verifyCredentials();
      fake.fault({ path: '/v2/checkout/orders', drop: 'before', times: 2 });
      const error = await failure(order(c, 'create-dropped'));
      expect(error).toBeInstanceOf(GatewayBUnreachableError);
      expect(error).toMatchObject({ reason: 'network', operation: 'create_order', method: 'POST', outcomeUnknown: true });
      expect(fake.callsTo('POST', '/v2/checkout/orders')).toHaveLength(2);
    });

    it('times out after timeoutMs without retrying; PayPal may still act on a timed-out POST', async () => {
      const c = client({ timeoutMs: 300 });
      const created = await order(c);
      fake.fault({ path: `/v2/checkout/orders/${created.id}`, delayMs: 1500 });
      const started = Date.now();
      const slowRead = await failure(c.getOrder(created.id));
      expect(slowRead).toMatchObject({ kind: 'unreachable', reason: 'timeout', outcomeUnknown: false });
      expect(Date.now() - started).toBeLessThan(1200);
      expect(fake.callsTo('GET', `/v2/checkout/orders/${created.id}`)).toHaveLength(1);

      const before = fake.orders.all().length;
      fake.fault({ path: '/v2/checkout/orders', delayMs: 600 });
      const slowCreate = await failure(order(c, 'create-slow'));
      expect(slowCreate).toMatchObject({ kind: 'unreachable', reason: 'timeout', operation: 'create_order', outcomeUnknown: true });
      for (let waited = 0; fake.orders.all().length === before && waited < 5000; waited += 50) await new Promise((resolve) => setTimeout(resolve, 50));
      expect(fake.orders.all()).toHaveLength(before + 1); // created after the client gave up
      expect((await order(c, 'create-slow')).id).toBe(fake.orders.all().at(-1)!.id); // the same id finds it
    });

    it('malformed: a success that is not JSON, lacks the order id, or is too large', async () => {
      const c = client();
      const created = await order(c);
      const path = `/v2/checkout/orders/${created.id}`;
      fake.fault({ path, body: '<html>gateway</html>' });
      expect(await failure(c.getOrder(created.id))).toMatchObject({ kind: 'malformed', status: 200, problem: 'the body is not JSON', outcomeUnknown: false });
      fake.fault({ path: '/v2/checkout/orders', status: 201, body: { status: 'CREATED', links: [] } });
      const noId = await failure(order(c));
      expect(noId).toBeInstanceOf(GatewayBMalformedResponseError);
      expect(noId).toMatchObject({ status: 201, problem: 'order.id is missing or not a string', outcomeUnknown: true });
      fake.fault({ path, body: { id: created.id, status: 'COMPLETED', purchase_units: [{ payments: { captures: [{ id: 'C', status: 'COMPLETED', amount: { currency_code: 'USD', value: 19.99 } }] } }] } });
      expect(await failure(c.getOrder(created.id))).toMatchObject({ kind: 'malformed', problem: expect.stringContaining('amount.value') });
      fake.fault({ path, body: 'x'.repeat(1024 * 1024 + 1) });
      expect(await failure(c.getOrder(created.id))).toMatchObject({ kind: 'malformed', problem: 'the body is too large' });
      for (const expiresIn of [0, -5, '32400']) {
        fake.fault({ path: '/v1/oauth2/token', body: { access_token: 'A21AAx', token_type: 'Bearer', expires_in: expiresIn } });
        expect(await failure(client().verifyCredentials())).toMatchObject({ kind: 'malformed', operation: 'token', problem: 'token.expires_in is not a positive number' });
      }
      fake.fault({ path: '/v1/oauth2/token', body: { token_type: 'Bearer', expires_in: 3600 } });
      expect(await failure(client().verifyCredentials())).toMatchObject({ kind: 'malformed', operation: 'token', problem: 'token.access_token is missing or not a string' });
    });

    it('never puts the client secret or an access token into an error or the client\'s own inspection', async () => {
      const c = client();
      const created = await order(c);
      const token = fake.issuedTokens().at(-1)!.token;
      fake.expireAllTokens();
      fake.fault({ path: `/v2/checkout/orders/${created.id}`, status: 401, times: 2 });
      const errors: unknown[] = [await failure(c.getOrder(created.id)), await failure(client({}, 'bad').verifyCredentials())];
      fake.fault({ path: '/v2/checkout/orders', body: { error: fake.clientSecret, access_token: token } });
      errors.push(await failure(order(c)));
      for (const error of errors) {
        const text = `${(error as Error).message} ${(error as Error).stack} ${JSON.stringify(error)} ${inspect(error, { depth: 10, showHidden: true })}`;
        expect(text).not.toContain(fake.clientSecret);
        expect(text).not.toContain(token);
      }
      const shown = inspect(c, { depth: 10, showHidden: true });
      expect(shown).not.toContain(fake.clientSecret);
      expect(shown).not.toContain(fake.issuedTokens().at(-1)!.token);
    });
  });

  describe('verifyWebhookSignature', () => {
    async function capturedDelivery(c: GatewayBClient, pretty = false) {
      const created = await order(c);
      fake.approveOrder(created.id);
      await c.captureOrder(created.id, `cap-${created.id}`);
      const event = fake.captureCompletedEvent(created.id);
      return { orderId: created.id, delivery: fake.webhookDelivery(pretty ? JSON.stringify({ ...event, summary: 'Paiement reçu – 19.99 USD' }, null, 2) : event) };
    }
    const expressHeaders = (headers: Record<string, string>) => Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]));

    it('SUCCESS: verified, with the event parsed from the bytes received', async () => {
      const c = client();
      const { orderId, delivery } = await capturedDelivery(c);
      const result = await c.verifyWebhookSignature({ headers: expressHeaders(delivery.headers), webhookId: fake.webhookId, rawBody: delivery.rawBody });
      expect(result).toMatchObject({ verified: true, event: { event_type: 'PAYMENT.CAPTURE.COMPLETED', resource_type: 'capture', resource: { custom_id: 'payment-7', supplementary_data: { related_ids: { order_id: orderId } } } } });
      const [call] = fake.callsTo('POST', '/v1/notifications/verify-webhook-signature');
      expect(call).toMatchObject({ authorization: 'bearer', body: { webhook_id: fake.webhookId, auth_algo: 'SHA256withRSA', cert_url: fake.certUrl } });
    });

    it('sends the received bytes back unchanged, so a pretty-printed, non-ASCII body verifies too', async () => {
      const c = client();
      const { delivery } = await capturedDelivery(c, true);
      expect(await c.verifyWebhookSignature({ headers: new Headers(delivery.headers), webhookId: fake.webhookId, rawBody: delivery.rawBody })).toMatchObject({ verified: true });
    });

    it('FAILURE for a tampered body or another webhook id', async () => {
      const c = client();
      const { delivery } = await capturedDelivery(c);
      const tampered = Buffer.from(delivery.rawBody.toString().replace('"payment-7"', '"payment-8"'));
      expect(await c.verifyWebhookSignature({ headers: delivery.headers, webhookId: fake.webhookId, rawBody: tampered })).toEqual({ verified: false, reason: 'signature_rejected' });
      const otherListener = fake.addWebhook();
      expect(await c.verifyWebhookSignature({ headers: delivery.headers, webhookId: otherListener, rawBody: delivery.rawBody })).toEqual({ verified: false, reason: 'signature_rejected' });
    });

    it('a missing or malformed header, or a body that is no event, is refused without asking PayPal', async () => {
      const c = client();
      const { delivery } = await capturedDelivery(c);
      fake.clearCalls();
      const { 'PAYPAL-CERT-URL': _cert, ...withoutCert } = delivery.headers;
      expect(await c.verifyWebhookSignature({ headers: withoutCert, webhookId: fake.webhookId, rawBody: delivery.rawBody })).toEqual({ verified: false, reason: 'missing_headers', headers: ['paypal-cert-url'] });
      expect(await c.verifyWebhookSignature({ headers: { ...delivery.headers, 'PAYPAL-TRANSMISSION-TIME': 'now' }, webhookId: fake.webhookId, rawBody: delivery.rawBody })).toEqual({
        verified: false,
        reason: 'invalid_headers',
        headers: ['paypal-transmission-time'],
      });
      expect(await c.verifyWebhookSignature({ headers: delivery.headers, webhookId: fake.webhookId, rawBody: Buffer.from('not json') })).toEqual({ verified: false, reason: 'invalid_body' });
      await expect(c.verifyWebhookSignature({ headers: delivery.headers, webhookId: 'not a webhook id', rawBody: delivery.rawBody })).rejects.toThrow(TypeError);
      expect(fake.apiCalls()).toEqual([]);
    });
  });
});
