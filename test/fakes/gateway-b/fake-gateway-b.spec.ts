import { createVerify, X509Certificate } from 'node:crypto';
import { crc32 } from 'node:zlib';
import { PayPalReference } from '../../contracts/gateway-b/paypal-reference.js';
import { type FakeGatewayB, startFakeGatewayB } from './fake-gateway-b.js';
import { rawMemberValue } from './json-member.js';
import { TRANSMISSION_HEADERS } from './webhook-signing.js';

/** A parsed JSON answer; `any` keeps the many assertions on answers short. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- answers are asserted field by field
type Body = Record<string, any>;

/**
 * The fake is a test double other tests trust: these checks pin it to PayPal's wire format
 * (OAuth2 token, Orders v2, PayPal-Request-Id, errors, webhook signing and postback verification).
 */
describe('fake gateway B (PayPal REST, over plain HTTP)', () => {
  let fake: FakeGatewayB;
  let clock = Date.now();

  beforeAll(async () => {
    fake = await startFakeGatewayB({ now: () => clock });
  });
  afterAll(() => fake.stop());
  // Whatever a test sends (often wrong on purpose), the fake answers as PayPal's reference says.
  afterEach(() => {
    expect(fake.calls.flatMap((call) => PayPalReference.load().checkAnswerOf(call))).toEqual([]);
  });
  beforeEach(() => {
    clock = Date.now();
    fake.clearCalls();
    fake.clearFaults();
    fake.unknownWebhookId = 'failure';
    fake.buyerDecision = 'approve';
  });

  const basic = (id = fake.clientId, secret = fake.clientSecret) => `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`;

  async function token(id?: string, secret?: string): Promise<{ status: number; body: Body }> {
    const response = await fetch(`${fake.url}/v1/oauth2/token`, {
      method: 'POST',
      headers: { Authorization: basic(id, secret), 'Content-Type': 'application/x-www-form-urlencoded' },
      body: 'grant_type=client_credentials',
    });
    return { status: response.status, body: (await response.json()) as Body };
  }

  async function api(method: string, path: string, options: { body?: unknown; raw?: string | Buffer; headers?: Record<string, string>; accessToken?: string } = {}) {
    const accessToken = options.accessToken ?? (await token()).body.access_token;
    const response = await fetch(`${fake.url}${path}`, {
      method,
      headers: {
        Authorization: `Bearer ${accessToken}`,
        ...(options.body !== undefined || options.raw !== undefined || method === 'POST' ? { 'Content-Type': 'application/json' } : {}),
        ...options.headers,
      },
      body: options.raw ?? (options.body === undefined ? undefined : JSON.stringify(options.body)),
    });
    const text = await response.text();
    return { status: response.status, headers: response.headers, body: (text ? JSON.parse(text) : undefined) as Body };
  }

  const orderBody = (value = '10.00', currency = 'USD', extra: Body = {}) => ({
    intent: 'CAPTURE',
    purchase_units: [{ amount: { currency_code: currency, value }, custom_id: 'payment-42', ...extra }],
  });

  describe('OAuth2 client credentials', () => {
    it('answers the token shape for the app credentials and the same token while it is valid', async () => {
      const first = await token();
      expect(first.status).toBe(200);
      expect(first.body).toEqual({
        scope: expect.stringContaining('https://uri.paypal.com/services/'),
        access_token: expect.stringMatching(/^A21AA[\w-]{40,}$/),
        token_type: 'Bearer',
        app_id: fake.app.appId,
        expires_in: 32_400,
        nonce: expect.any(String),
      });
      clock += 100_000;
      const second = await token();
      expect(second.body.access_token).toBe(first.body.access_token);
      expect(second.body.expires_in).toBe(32_300);
      expect(fake.calls[0]).toMatchObject({ method: 'POST', path: '/v1/oauth2/token', authorization: 'basic', clientId: fake.clientId, body: { grant_type: 'client_credentials' } });
    });

    it('refuses wrong credentials with 401 invalid_client and a missing grant type with 400', async () => {
      expect(await token(fake.clientId, 'wrong')).toEqual({ status: 401, body: { error: 'invalid_client', error_description: 'Client Authentication failed' } });
      expect((await token('unknown-client', fake.clientSecret)).status).toBe(401);
      const response = await fetch(`${fake.url}/v1/oauth2/token`, { method: 'POST', headers: { Authorization: basic(), 'Content-Type': 'application/x-www-form-urlencoded' }, body: '' });
      expect(response.status).toBe(400);
      expect(await response.json()).toEqual({ error: 'unsupported_grant_type', error_description: 'Grant Type is NULL' });
    });

    it('expires tokens (by time or all at once): the API answers 401 AUTHENTICATION_FAILURE, a new token is issued', async () => {
      const old = (await token()).body.access_token as string;
      fake.expireAllTokens();
      const v2 = await api('GET', '/v2/checkout/orders/UNKNOWN1', { accessToken: old });
      expect(v2.status).toBe(401);
      expect(v2.body).toMatchObject({ name: 'AUTHENTICATION_FAILURE', message: expect.any(String) });
      const v1 = await api('POST', '/v1/notifications/verify-webhook-signature', { accessToken: old, body: {} });
      expect(v1).toMatchObject({ status: 401, body: { name: 'AUTHENTICATION_FAILURE', message: expect.any(String), debug_id: expect.any(String) } });
      const fresh = (await token()).body;
      expect(fresh.access_token).not.toBe(old);
      clock += fresh.expires_in * 1000;
      expect((await api('GET', '/v2/checkout/orders/UNKNOWN1', { accessToken: fresh.access_token })).status).toBe(401);
      expect((await api('GET', '/v2/checkout/orders/UNKNOWN1', { accessToken: 'A21AAnot-issued' })).status).toBe(401);
      expect((await api('GET', '/v2/checkout/orders/UNKNOWN1', { accessToken: '' })).status).toBe(401);
    });

    it('keeps environments apart: a sandbox token is unknown to the live fake', async () => {
      const live = await startFakeGatewayB({ environment: 'live' });
      try {
        const sandboxToken = (await token()).body.access_token as string;
        const response = await fetch(`${live.url}/v2/checkout/orders/X`, { headers: { Authorization: `Bearer ${sandboxToken}` } });
        expect(response.status).toBe(401);
        const refused = await fetch(`${live.url}/v1/oauth2/token`, { method: 'POST', headers: { Authorization: basic() }, body: 'grant_type=client_credentials' });
        expect(refused.status).toBe(401);
        expect(live.certUrl).not.toBe(fake.certUrl);
      } finally {
        await live.stop();
      }
    });
  });

  describe('Orders v2', () => {
    it('creates an order: 201 with id, CREATED and the HATEOAS links (return=minimal by default)', async () => {
      const created = await api('POST', '/v2/checkout/orders', { body: orderBody() });
      expect(created.status).toBe(201);
      expect(created.body).toEqual({
        id: expect.stringMatching(/^[A-Z0-9]{17}$/),
        status: 'CREATED',
        links: [
          { href: `${fake.url}/v2/checkout/orders/${created.body.id}`, rel: 'self', method: 'GET' },
          { href: `${fake.url}/checkoutnow?token=${created.body.id}`, rel: 'approve', method: 'GET' },
          { href: `${fake.url}/v2/checkout/orders/${created.body.id}`, rel: 'update', method: 'PATCH' },
          { href: `${fake.url}/v2/checkout/orders/${created.body.id}/capture`, rel: 'capture', method: 'POST' },
        ],
      });
      const read = await api('GET', `/v2/checkout/orders/${created.body.id}`);
      expect(read.status).toBe(200);
      expect(read.body).toMatchObject({
        id: created.body.id,
        intent: 'CAPTURE',
        status: 'CREATED',
        purchase_units: [{ reference_id: 'default', amount: { currency_code: 'USD', value: '10.00' }, custom_id: 'payment-42' }],
        create_time: expect.stringMatching(/Z$/),
      });
      const full = await api('POST', '/v2/checkout/orders', { body: orderBody('5', 'EUR'), headers: { Prefer: 'return=representation' } });
      expect(full.body).toMatchObject({ status: 'CREATED', purchase_units: [{ amount: { currency_code: 'EUR', value: '5' }, custom_id: 'payment-42' }] });
    });

    it('answers PAYER_ACTION_REQUIRED with a payer-action link when payment_source.paypal is given', async () => {
      const created = await api('POST', '/v2/checkout/orders', {
        body: { ...orderBody(), payment_source: { paypal: { experience_context: { return_url: 'https://shop.example/return', cancel_url: 'https://shop.example/cancel' } } } },
      });
      expect(created.body.status).toBe('PAYER_ACTION_REQUIRED');
      expect(created.body.links).toContainEqual({ href: `${fake.url}/checkoutnow?token=${created.body.id}`, rel: 'payer-action', method: 'GET' });
      const page = await fetch(`${fake.url}/checkoutnow?token=${created.body.id}`, { redirect: 'manual' });
      expect(page.status).toBe(302);
      const back = new URL(page.headers.get('location')!);
      expect(`${back.origin}${back.pathname}`).toBe('https://shop.example/return');
      expect(back.searchParams.get('token')).toBe(created.body.id);
      expect(back.searchParams.get('PayerID')).toMatch(/^[A-Z0-9]{13}$/);
      expect(fake.order(created.body.id)).toMatchObject({ status: 'APPROVED' });
    });

    it.each([
      ['USD', '10', 'ok'],
      ['USD', '10.5', 'ok'],
      ['JPY', '1000', 'ok'],
      ['HUF', '1500', 'ok'],
      ['TWD', '300', 'ok'],
      ['JPY', '1000.00', '422 DECIMAL_PRECISION'],
      ['HUF', '10.5', '422 DECIMAL_PRECISION'],
      ['TWD', '300.0', '422 DECIMAL_PRECISION'],
      ['USD', '10.001', '422 DECIMAL_PRECISION'],
      ['EUR', '1,00', '400 INVALID_PARAMETER_SYNTAX'],
      ['USD', '1e3', '400 INVALID_PARAMETER_SYNTAX'],
      ['usd', '10.00', '400 INVALID_PARAMETER_SYNTAX'],
      ['KWD', '1.000', '422 INVALID_CURRENCY_CODE'],
      ['ISK', '100', '422 INVALID_CURRENCY_CODE'],
      ['USD', '0.00', '422 CANNOT_BE_ZERO_OR_NEGATIVE'],
      ['USD', '-1.00', '422 CANNOT_BE_ZERO_OR_NEGATIVE'],
    ])('%s %s: %s', async (currency, value, expected) => {
      const created = await api('POST', '/v2/checkout/orders', { body: orderBody(value, currency) });
      if (expected === 'ok') {
        expect(created.status).toBe(201);
        return;
      }
      const [status, issue] = expected.split(' ');
      expect(created.status).toBe(Number(status));
      expect(created.body).toEqual({
        name: status === '400' ? 'INVALID_REQUEST' : 'UNPROCESSABLE_ENTITY',
        message: expect.any(String),
        debug_id: expect.stringMatching(/^[0-9a-f]{13}$/),
        details: [expect.objectContaining({ issue, field: expect.stringMatching(/^\/purchase_units\/0\/amount\//), location: 'body', description: expect.any(String) })],
        links: [{ href: expect.stringContaining(`#error-${issue}`), rel: 'information_link', method: 'GET' }],
      });
      expect(created.headers.get('paypal-debug-id')).toBe(created.body.debug_id);
    });

    it('refuses missing and over-long fields, a body that is not JSON, and no Content-Type', async () => {
      const missing = await api('POST', '/v2/checkout/orders', { body: { intent: 'CAPTURE', purchase_units: [{ custom_id: 'x' }] } });
      expect(missing).toMatchObject({ status: 400, body: { name: 'INVALID_REQUEST', details: [{ issue: 'MISSING_REQUIRED_PARAMETER', field: '/purchase_units/0/amount' }] } });
      const long = await api('POST', '/v2/checkout/orders', { body: orderBody('1.00', 'USD', { custom_id: 'c'.repeat(128) }) });
      expect(long).toMatchObject({ status: 400, body: { details: [{ issue: 'INVALID_STRING_LENGTH', field: '/purchase_units/0/custom_id' }] } });
      const notJson = await api('POST', '/v2/checkout/orders', { raw: '{"intent":' });
      expect(notJson).toMatchObject({ status: 400, body: { name: 'INVALID_REQUEST', details: [{ issue: 'MALFORMED_REQUEST_JSON' }] } });
      const noType = await api('POST', '/v2/checkout/orders', { raw: JSON.stringify(orderBody()), headers: { 'Content-Type': 'text/plain' } });
      expect(noType).toMatchObject({ status: 415, body: { name: 'UNSUPPORTED_MEDIA_TYPE' } });
    });

    it('answers 404 RESOURCE_NOT_FOUND for an unknown order and for another app\'s order', async () => {
      const unknown = await api('GET', '/v2/checkout/orders/0NOSUCHORDER0000');
      expect(unknown).toMatchObject({
        status: 404,
        body: { name: 'RESOURCE_NOT_FOUND', details: [{ issue: 'INVALID_RESOURCE_ID', field: 'order_id', location: 'path' }], debug_id: expect.any(String) },
      });
      const created = await api('POST', '/v2/checkout/orders', { body: orderBody() });
      const other = fake.addApp();
      const otherToken = (await token(other.clientId, other.clientSecret)).body.access_token as string;
      expect((await api('GET', `/v2/checkout/orders/${created.body.id}`, { accessToken: otherToken })).status).toBe(404);
      expect((await api('POST', `/v2/checkout/orders/${created.body.id}/capture`, { accessToken: otherToken })).status).toBe(404);
    });

    it('PayPal-Request-Id on create: same id → the same order (200, latest status); no id → a new order', async () => {
      const headers = { 'PayPal-Request-Id': 'create-req-1' };
      const first = await api('POST', '/v2/checkout/orders', { body: orderBody(), headers });
      const again = await api('POST', '/v2/checkout/orders', { body: orderBody(), headers });
      expect(first.status).toBe(201);
      expect(again.status).toBe(200);
      expect(again.body.id).toBe(first.body.id);
      expect(fake.callsTo('POST', '/v2/checkout/orders').map((c) => [c.requestId, c.replayed])).toEqual([
        ['create-req-1', undefined],
        ['create-req-1', true],
      ]);
      fake.approveOrder(first.body.id);
      expect((await api('POST', '/v2/checkout/orders', { body: orderBody(), headers })).body).toMatchObject({ id: first.body.id, status: 'APPROVED' });
      const fresh = await api('POST', '/v2/checkout/orders', { body: orderBody() });
      expect(fresh.body.id).not.toBe(first.body.id);
    });

    it('PayPal-Request-Id reused with another body: the earlier order (documented)', async () => {
      const headers = { 'PayPal-Request-Id': 'create-req-2' };
      const first = await api('POST', '/v2/checkout/orders', { body: orderBody('10.00'), headers });
      const other = await api('POST', '/v2/checkout/orders', { body: orderBody('99.00'), headers: { ...headers, Prefer: 'return=representation' } });
      expect(other.body).toMatchObject({ id: first.body.id, purchase_units: [{ amount: { value: '10.00' } }] });
    });

    it('captures an approved order once: ORDER_NOT_APPROVED before, ORDER_ALREADY_CAPTURED after, same id replays', async () => {
      const created = await api('POST', '/v2/checkout/orders', { body: orderBody('25.50', 'EUR', { invoice_id: 'INV-1' }) });
      const id = created.body.id as string;
      const early = await api('POST', `/v2/checkout/orders/${id}/capture`, { headers: { 'PayPal-Request-Id': 'cap-1' } });
      expect(early).toMatchObject({ status: 422, body: { name: 'UNPROCESSABLE_ENTITY', details: [{ issue: 'ORDER_NOT_APPROVED' }] } });
      fake.approveOrder(id);
      const captured = await api('POST', `/v2/checkout/orders/${id}/capture`, { headers: { 'PayPal-Request-Id': 'cap-1', Prefer: 'return=representation' } });
      expect(captured.status).toBe(201);
      expect(captured.body).toMatchObject({
        id,
        status: 'COMPLETED',
        payer: { email_address: 'buyer@example.test', payer_id: expect.any(String) },
        purchase_units: [
          {
            custom_id: 'payment-42',
            payments: {
              captures: [
                { id: expect.stringMatching(/^[A-Z0-9]{17}$/), status: 'COMPLETED', amount: { currency_code: 'EUR', value: '25.50' }, custom_id: 'payment-42', invoice_id: 'INV-1', final_capture: true },
              ],
            },
          },
        ],
      });
      const captureId = captured.body.purchase_units[0].payments.captures[0].id;
      const replay = await api('POST', `/v2/checkout/orders/${id}/capture`, { headers: { 'PayPal-Request-Id': 'cap-1' } });
      expect(replay.status).toBe(200);
      expect(replay.body.purchase_units[0].payments.captures[0].id).toBe(captureId);
      // return=minimal (the default) leaves the caller's custom_id out of the capture
      expect(replay.body.purchase_units[0].payments.captures[0].custom_id).toBeUndefined();
      const twice = await api('POST', `/v2/checkout/orders/${id}/capture`, { headers: { 'PayPal-Request-Id': 'cap-2' } });
      expect(twice).toMatchObject({ status: 422, body: { details: [{ issue: 'ORDER_ALREADY_CAPTURED' }] } });
      expect((await api('POST', '/v2/checkout/orders/0NOSUCHORDER0000/capture')).body).toMatchObject({ name: 'RESOURCE_NOT_FOUND' });
      expect((await api('GET', `/v2/checkout/orders/${id}`)).body.links).toEqual([{ href: `${fake.url}/v2/checkout/orders/${id}`, rel: 'self', method: 'GET' }]);
    });

    it('records what a test asks capture to say instead (PENDING, other amount, currency or custom_id)', async () => {
      const pending = (await api('POST', '/v2/checkout/orders', { body: orderBody() })).body.id as string;
      fake.approveOrder(pending);
      fake.setCaptureOutcome(pending, { status: 'PENDING' });
      const answer = await api('POST', `/v2/checkout/orders/${pending}/capture`, { headers: { Prefer: 'return=representation' } });
      expect(answer.body).toMatchObject({ status: 'COMPLETED', purchase_units: [{ payments: { captures: [{ status: 'PENDING', status_details: { reason: 'PENDING_REVIEW' } }] } }] });

      const tampered = (await api('POST', '/v2/checkout/orders', { body: orderBody() })).body.id as string;
      fake.approveOrder(tampered);
      fake.setCaptureOutcome(tampered, { amount: { currency_code: 'EUR', value: '1.00' }, custom_id: null });
      const captured = await api('POST', `/v2/checkout/orders/${tampered}/capture`, { headers: { Prefer: 'return=representation' } });
      const capture = captured.body.purchase_units[0].payments.captures[0];
      expect(capture.amount).toEqual({ currency_code: 'EUR', value: '1.00' });
      expect(capture).not.toHaveProperty('custom_id');
      expect((await api('GET', `/v2/checkout/orders/${tampered}`)).body.purchase_units[0].payments.captures[0].amount.value).toBe('1.00');
    });
  });

  describe('webhooks', () => {
    async function captured(): Promise<string> {
      const id = (await api('POST', '/v2/checkout/orders', { body: orderBody('19.99') })).body.id as string;
      fake.approveOrder(id);
      await api('POST', `/v2/checkout/orders/${id}/capture`);
      return id;
    }

    /** The receiver's postback: the received bytes spliced in as `webhook_event`. */
    function postback(delivery: { rawBody: Buffer; headers: Record<string, string> }, webhookId: string, eventBytes: Buffer = delivery.rawBody): Buffer {
      const fields = JSON.stringify({
        auth_algo: delivery.headers['PAYPAL-AUTH-ALGO'],
        cert_url: delivery.headers['PAYPAL-CERT-URL'],
        transmission_id: delivery.headers['PAYPAL-TRANSMISSION-ID'],
        transmission_sig: delivery.headers['PAYPAL-TRANSMISSION-SIG'],
        transmission_time: delivery.headers['PAYPAL-TRANSMISSION-TIME'],
        webhook_id: webhookId,
      });
      return Buffer.concat([Buffer.from(`${fields.slice(0, -1)},"webhook_event":`), eventBytes, Buffer.from('}')]);
    }

    const verify = async (raw: Buffer) => api('POST', '/v1/notifications/verify-webhook-signature', { raw });

    it('builds PAYMENT.CAPTURE.COMPLETED in PayPal\'s envelope from the recorded capture', async () => {
      const orderId = await captured();
      const event = fake.captureCompletedEvent(orderId);
      const capture = (fake.order(orderId) as Body).purchase_units[0].payments.captures[0];
      expect(event).toMatchObject({
        id: expect.stringMatching(/^WH-[A-Z0-9]{17}-[A-Z0-9]{17}$/),
        event_version: '1.0',
        create_time: expect.any(String),
        resource_type: 'capture',
        resource_version: '2.0',
        event_type: 'PAYMENT.CAPTURE.COMPLETED',
        summary: 'Payment completed for 19.99 USD',
        resource: { id: capture.id, status: 'COMPLETED', amount: { currency_code: 'USD', value: '19.99' }, custom_id: 'payment-42', supplementary_data: { related_ids: { order_id: orderId } } },
      });
    });

    it('signs deliveries with SHA256withRSA over id|time|webhook id|crc32(body), verifiable with the served certificate', async () => {
      const orderId = await captured();
      const delivery = fake.webhookDelivery(fake.captureCompletedEvent(orderId), { transmissionTime: new Date('2026-11-25T10:00:00.123Z') });
      expect(Object.keys(delivery.headers).sort()).toEqual([...TRANSMISSION_HEADERS].sort());
      expect(delivery.headers).toMatchObject({
        'PAYPAL-AUTH-ALGO': 'SHA256withRSA',
        'PAYPAL-CERT-URL': fake.certUrl,
        'PAYPAL-TRANSMISSION-ID': expect.stringMatching(/^[0-9a-f-]{36}$/),
        'PAYPAL-TRANSMISSION-TIME': '2026-11-25T10:00:00Z',
      });
      // Self-verification as PayPal's guide describes it, with nothing from the fake but the bytes.
      const pem = await (await fetch(delivery.headers['PAYPAL-CERT-URL'])).text();
      const certificate = new X509Certificate(pem);
      expect(certificate.verify(certificate.publicKey)).toBe(true); // self-signed
      const message = `${delivery.headers['PAYPAL-TRANSMISSION-ID']}|2026-11-25T10:00:00Z|${fake.webhookId}|${crc32(delivery.rawBody)}`;
      const verifies = (text: string) => createVerify('RSA-SHA256').update(text).verify(certificate.publicKey, delivery.headers['PAYPAL-TRANSMISSION-SIG'], 'base64');
      expect(verifies(message)).toBe(true);
      expect(verifies(message.replace(fake.webhookId, 'OTHERWEBHOOKID00'))).toBe(false);
      expect(crc32(Buffer.from('hello'))).toBe(907060870); // the standard CRC-32, as an unsigned decimal
    });

    it('verify-webhook-signature: SUCCESS for the received bytes, FAILURE for a changed body, another webhook id or certificate', async () => {
      const delivery = fake.webhookDelivery(fake.captureCompletedEvent(await captured()));
      expect(await verify(postback(delivery, fake.webhookId))).toMatchObject({ status: 200, body: { verification_status: 'SUCCESS' } });
      const call = fake.callsTo('POST', '/v1/notifications/verify-webhook-signature')[0];
      expect(call).toMatchObject({ authorization: 'bearer', clientId: fake.clientId, body: { webhook_id: fake.webhookId, webhook_event: { event_type: 'PAYMENT.CAPTURE.COMPLETED' } } });

      const tampered = Buffer.from(delivery.rawBody.toString().replace('"19.99"', '"1.99"'));
      expect((await verify(postback(delivery, fake.webhookId, tampered))).body).toEqual({ verification_status: 'FAILURE' });
      const otherListener = fake.addWebhook();
      expect((await verify(postback(delivery, otherListener))).body).toEqual({ verification_status: 'FAILURE' });
      expect((await verify(postback(delivery, 'UNKNOWNWEBHOOK01'))).body).toEqual({ verification_status: 'FAILURE' });
      fake.unknownWebhookId = 'not_found';
      expect((await verify(postback(delivery, 'UNKNOWNWEBHOOK01'))).status).toBe(404);
      const foreignCert = { ...delivery, headers: { ...delivery.headers, 'PAYPAL-CERT-URL': 'https://attacker.example/cert.pem' } };
      expect((await verify(postback(foreignCert, fake.webhookId))).body).toEqual({ verification_status: 'FAILURE' });
      const otherSig = fake.webhookDelivery(fake.captureCompletedEvent(await captured()));
      const swapped = { ...delivery, headers: { ...delivery.headers, 'PAYPAL-TRANSMISSION-SIG': otherSig.headers['PAYPAL-TRANSMISSION-SIG'] } };
      expect((await verify(postback(swapped, fake.webhookId))).body).toEqual({ verification_status: 'FAILURE' });
    });

    it('checks the exact bytes sent as webhook_event: a re-serialised event fails unless it is byte-identical', async () => {
      const event = fake.captureCompletedEvent(await captured());
      // PayPal's bodies are compact JSON, which JSON.stringify happens to reproduce...
      const compact = fake.webhookDelivery(event);
      const reserialised = Buffer.from(JSON.stringify(JSON.parse(compact.rawBody.toString())));
      expect((await verify(postback(compact, fake.webhookId, reserialised))).body.verification_status).toBe('SUCCESS');
      // ...but not a body with other spacing or escapes: only the received bytes verify.
      const pretty = fake.webhookDelivery(`${JSON.stringify({ ...event, summary: 'Paiement reçu / 19.99 USD' }, null, 2)}`);
      const parsedAgain = Buffer.from(JSON.stringify(JSON.parse(pretty.rawBody.toString())));
      expect((await verify(postback(pretty, fake.webhookId, parsedAgain))).body.verification_status).toBe('FAILURE');
      expect((await verify(postback(pretty, fake.webhookId))).body.verification_status).toBe('SUCCESS');
      const escaped = fake.webhookDelivery(Buffer.from(JSON.stringify(event).replace('PAYMENT.CAPTURE.COMPLETED', 'PAYMENT.CAPTURE\\u002ECOMPLETED')));
      expect((await verify(postback(escaped, fake.webhookId))).body.verification_status).toBe('SUCCESS');
      const unescaped = Buffer.from(JSON.stringify(JSON.parse(escaped.rawBody.toString())));
      expect((await verify(postback(escaped, fake.webhookId, unescaped))).body.verification_status).toBe('FAILURE');
    });

    it('refuses a request without a field (400 VALIDATION_ERROR) or without a valid token (401)', async () => {
      const delivery = fake.webhookDelivery(fake.captureCompletedEvent(await captured()));
      const body = JSON.parse(postback(delivery, fake.webhookId).toString()) as Body;
      for (const field of ['auth_algo', 'cert_url', 'transmission_id', 'transmission_sig', 'transmission_time', 'webhook_id', 'webhook_event']) {
        const { [field]: _left, ...rest } = body;
        const answer = await api('POST', '/v1/notifications/verify-webhook-signature', { body: rest });
        expect(answer).toMatchObject({ status: 400, body: { name: 'VALIDATION_ERROR', details: [{ field }] } });
      }
      expect(await api('POST', '/v1/notifications/verify-webhook-signature', { body, accessToken: 'nope' })).toMatchObject({ status: 401, body: { name: 'AUTHENTICATION_FAILURE' } });
    });

    it('POSTs a delivery to a listener with the transmission headers', async () => {
      const listener = await startFakeGatewayB();
      try {
        const delivery = fake.webhookDelivery({ id: 'WH-1', event_type: 'PAYMENT.CAPTURE.COMPLETED', resource: {} });
        await fake.deliverWebhook(`${listener.url}/hook`, delivery);
        const [received] = listener.callsTo('POST', '/hook');
        expect(received.rawBody).toBe(delivery.rawBody.toString());
        expect(received.headers['paypal-transmission-sig']).toBe(delivery.headers['PAYPAL-TRANSMISSION-SIG']);
        expect(received.headers['content-type']).toBe('application/json');
      } finally {
        await listener.stop();
      }
    });
  });

  describe('faults and the call log', () => {
    it('answers an injected status for the next N calls of a route, in PayPal\'s words', async () => {
      fake.fault({ method: 'POST', path: '/v2/checkout/orders', status: 503, times: 2 });
      expect((await api('POST', '/v2/checkout/orders', { body: orderBody() })).body).toMatchObject({ name: 'SERVICE_UNAVAILABLE', debug_id: expect.any(String) });
      expect((await api('POST', '/v2/checkout/orders', { body: orderBody() })).status).toBe(503);
      expect((await api('POST', '/v2/checkout/orders', { body: orderBody() })).status).toBe(201);
      fake.fault({ path: /^\/v2\/checkout\/orders\/[^/]+$/, status: 429 });
      expect(await api('GET', '/v2/checkout/orders/ANY')).toMatchObject({ status: 429, body: { name: 'RATE_LIMIT_REACHED' } });
      fake.fault({ path: '/v1/oauth2/token', status: 500 });
      expect(await token()).toMatchObject({ status: 500, body: { name: 'INTERNAL_SERVER_ERROR' } });
      expect(fake.orders.all().length).toBeGreaterThan(0);
      expect(fake.calls.filter((c) => c.fault === 'status')).toHaveLength(4);
    });

    it('answers a given body instead of handling (malformed answers)', async () => {
      const before = fake.orders.all().length;
      fake.fault({ path: '/v2/checkout/orders', body: '<html>oops</html>' });
      const response = await fetch(`${fake.url}/v2/checkout/orders`, { method: 'POST', body: '{}' });
      expect([response.status, await response.text()]).toEqual([200, '<html>oops</html>']);
      fake.fault({ path: '/v2/checkout/orders', status: 201, body: { status: 'CREATED' } });
      expect(await api('POST', '/v2/checkout/orders', { body: orderBody() })).toMatchObject({ status: 201, body: { status: 'CREATED' } });
      expect(fake.orders.all()).toHaveLength(before);
    });

    it('delays a route (the request is still handled) and drops connections before or after handling', async () => {
      const before = fake.orders.all().length;
      fake.fault({ path: '/v2/checkout/orders', delayMs: 300 });
      const started = Date.now();
      expect((await api('POST', '/v2/checkout/orders', { body: orderBody() })).status).toBe(201);
      expect(Date.now() - started).toBeGreaterThanOrEqual(290);

      fake.fault({ path: '/v2/checkout/orders', drop: 'before' });
      await expect(api('POST', '/v2/checkout/orders', { body: orderBody() })).rejects.toThrow();
      expect(fake.orders.all()).toHaveLength(before + 1);

      fake.fault({ path: '/v2/checkout/orders', drop: 'after' });
      await expect(api('POST', '/v2/checkout/orders', { body: orderBody(), headers: { 'PayPal-Request-Id': 'dropped-1' } })).rejects.toThrow();
      expect(fake.orders.all()).toHaveLength(before + 2); // created, but the answer was lost
      const retried = await api('POST', '/v2/checkout/orders', { body: orderBody(), headers: { 'PayPal-Request-Id': 'dropped-1' } });
      expect(retried.status).toBe(200);
      expect(fake.orders.all()).toHaveLength(before + 2);
      expect(fake.callsTo('POST', '/v2/checkout/orders').map((c) => c.fault ?? c.status)).toEqual(['delay', 'drop', 'drop', 200]);
    });

    it('answers PREVIOUS_REQUEST_IN_PROGRESS for the same PayPal-Request-Id while the first is held', async () => {
      fake.fault({ path: '/v2/checkout/orders', delayMs: 1000 });
      const headers = { 'PayPal-Request-Id': 'concurrent-1' };
      const accessToken = (await token()).body.access_token as string;
      const [first, second] = await Promise.all([
        api('POST', '/v2/checkout/orders', { body: orderBody(), headers, accessToken }),
        new Promise((resolve) => setTimeout(resolve, 50)).then(() => api('POST', '/v2/checkout/orders', { body: orderBody(), headers, accessToken })),
      ]);
      expect(first.status).toBe(201);
      expect(second).toMatchObject({ status: 409, body: { name: 'RESOURCE_CONFLICT', details: [{ issue: 'PREVIOUS_REQUEST_IN_PROGRESS' }] } });
    });

    it('logs method, path, authorization kind, app, PayPal-Request-Id, Prefer and body of every call', async () => {
      await api('POST', '/v2/checkout/orders', { body: orderBody(), headers: { 'PayPal-Request-Id': 'logged-1', Prefer: 'return=representation' } });
      expect(fake.apiCalls().map((c) => [c.method, c.path, c.authorization])).toEqual([
        ['POST', '/v1/oauth2/token', 'basic'],
        ['POST', '/v2/checkout/orders', 'bearer'],
      ]);
      expect(fake.calls[1]).toMatchObject({ clientId: fake.clientId, requestId: 'logged-1', prefer: 'return=representation', body: orderBody(), status: 201 });
      fake.clearCalls();
      expect(fake.apiCalls()).toEqual([]);
    });
  });
});

describe('rawMemberValue (the bytes of webhook_event as sent)', () => {
  it.each([
    ['{"a":1,"webhook_event":{"x":"}"}}', '{"x":"}"}'],
    ['{ "webhook_event" :\n { "k" : [1, {"q": "\\"}"}] }  , "b": 2}', '{ "k" : [1, {"q": "\\"}"}] }'],
    ['{"webhook_\\u0065vent":{"é":"ü"}}', '{"é":"ü"}'],
    ['{"webhook_event":{"a":1},"webhook_event":{"a":2}}', '{"a":2}'],
    ['{"webhook_event":"text"}', '"text"'],
    ['{"webhook_event":12.50}', '12.50'],
    ['{"other":{"webhook_event":{}}}', undefined],
    ['[{"webhook_event":{}}]', undefined],
  ])('%s', (document, expected) => {
    expect(rawMemberValue(Buffer.from(document), 'webhook_event')?.toString()).toBe(expected);
  });

  it('refuses what is not JSON', () => {
    expect(() => rawMemberValue('{"webhook_event":', 'webhook_event')).toThrow(SyntaxError);
  });
});
