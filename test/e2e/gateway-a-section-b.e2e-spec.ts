import { gatewayAOption } from '../../src/modules/gateway-a/index.js';
import request from 'supertest';
import { installationIdOf } from '../support/test-app.js';
import { OptionsService } from '../../src/modules/settings/index.js';
import { connectThroughProxy, type GatewayATestBed, startGatewayATestBed } from '../support/gateway-a.js';
import { expectWpError } from '../support/http.js';
import { connectGateway, disconnectGateway } from '../support/payment-fixtures.js';
import type { TestUser } from '../support/test-app.js';
import { logEvents, paymentRow } from '../support/app-state.js';

/** Section B's gateway-A routes: admin charges, the client configuration, the webhook acknowledgement. */
describe('section B gateway A routes', () => {
  let bed: GatewayATestBed;
  let subscriber: TestUser;
  let editor: TestUser;

  beforeAll(async () => {
    bed = await startGatewayATestBed();
    subscriber = await bed.t.createUser('subscriber');
    editor = await bed.t.createUser('editor');
  });
  afterAll(() => bed.close());
  afterEach(() => bed.fake.clearFailures());

  const t = () => bed.t;
  const installationId = () => installationIdOf(bed.t);
  const post = (path: string, body: object, auth: string | null = t().admin.auth) => {
    const req = request(t().http).post(`${t().base}${path}`);
    return (auth ? req.set('Authorization', auth) : req).send(body);
  };
  const get = (path: string, auth: string | null = t().admin.auth) => {
    const req = request(t().http).get(`${t().base}${path}`);
    return auth ? req.set('Authorization', auth) : req;
  };
  const counts = async () => {
    const prefix = t().config.tablePrefix;
    const [payments] = await t().dataSource.query(`SELECT COUNT(*) AS n FROM ${prefix}checkout_payments`);
    const [log] = await t().dataSource.query(`SELECT COUNT(*) AS n FROM ${prefix}checkout_log`);
    return { payments: Number(payments.n), log: Number(log.n) };
  };
  /** The local record a charge created (its id is in the intent's metadata). */
  const localIdOf = (intentId: string) => Number((bed.fake.resources.get(intentId)!.metadata as Record<string, string>).checkout_payment_id);

  describe('authorisation', () => {
    const adminRoutes: Array<[string, () => request.Test, (auth: string | null) => request.Test]> = [
      ['POST /gateway-a/payment', () => post('/gateway-a/payment', {}), (auth) => post('/gateway-a/payment', { amount: 10, currency: 'USD', source: 'pm_card_visa' }, auth)],
      ['POST /payment/process', () => post('/payment/process', {}), (auth) => post('/payment/process', { amount: 10, currency: 'USD', payment_method: 'pm_card_visa' }, auth)],
      ['GET /gateway-a/config', () => get('/gateway-a/config'), (auth) => get('/gateway-a/config', auth)],
    ];
    it.each(adminRoutes)('%s: 401 without login, 403 without checkout_settings, nothing charged', async (_name, _admin, as) => {
      const before = await counts();
      bed.fake.clearRequests();
      expectWpError((await as(null)).body, 'rest_not_logged_in', 401);
      expectWpError((await as(subscriber.auth)).body, 'rest_forbidden', 403);
      expectWpError((await as(editor.auth)).body, 'rest_forbidden', 403);
      expect(await counts()).toEqual(before);
      expect(bed.fake.requests).toHaveLength(0);
    });

    it('GET /gateway-a/webhook is public, acknowledges, and changes nothing', async () => {
      const before = await counts();
      bed.fake.clearRequests();
      const res = await get('/gateway-a/webhook', null);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ success: true, message: expect.stringContaining('/webhook/gateway-a-callback/') });
      expect(await counts()).toEqual(before);
      expect(bed.fake.requests).toHaveLength(0);
    });
  });

  describe('before gateway A is connected', () => {
    it('refuses an admin charge with 409 and creates no record', async () => {
      const before = await counts();
      const res = await post('/gateway-a/payment', { amount: 10, currency: 'USD', source: 'pm_card_visa' });
      expect(res.status).toBe(409);
      expectWpError(res.body, 'checkout_invalid_state', 409);
      expect(await counts()).toEqual(before);
    });

    it('reports no publishable key', async () => {
      const res = await get('/gateway-a/config');
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ api_key: null, webhook_url: 'http://checkout.test/wp-json/checkout/v1/webhook/gateway-a-callback/test' });
    });

    it('charges while public checkout is paused (connected, webhook contract not verified)', async () => {
      await connectGateway(t(), 'gateway_a', 'test');
      const res = await post('/gateway-a/payment', { amount: 12.5, currency: 'USD', source: 'pm_card_visa' });
      expect(res.status).toBe(200);
      expect(res.body.status).toBe('success');
      await disconnectGateway(t(), 'gateway_a', 'test');
    });
  });

  describe('connected', () => {
    beforeAll(async () => {
      await connectThroughProxy(bed, 'test');
    });

    it('GET /gateway-a/config answers the publishable key and webhook URL, never the secret key', async () => {
      const options = t().app.get(OptionsService);
      const publicKey = await options.get<string>(gatewayAOption.credential('test', 'public_key'), '');
      const secretKey = await options.getSecret(gatewayAOption.credential('test', 'secret_key'));
      expect(publicKey).toMatch(/^pk_test_/);
      const res = await get('/gateway-a/config');
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ api_key: publicKey, webhook_url: 'http://checkout.test/wp-json/checkout/v1/webhook/gateway-a-callback/test' });
      expect(JSON.stringify(res.body)).not.toContain(secretKey!);
      expect(JSON.stringify(res.body)).not.toMatch(/sk_(test|live)_|whsec_/);
    });

    it('POST /gateway-a/payment charges the source: record completed, fee, idempotency key, readable by GET /payment/status', async () => {
      bed.fake.clearRequests();
      const res = await post('/gateway-a/payment', { amount: 19.99, currency: 'usd', source: 'pm_card_visa', description: 'Phone order 42' });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ transaction_id: expect.stringMatching(/^pi_/), status: 'success', message: 'Payment succeeded.' });
      const id = localIdOf(res.body.transaction_id);
      const [create] = bed.fake.requestsTo('POST', '/v1/payment_intents');
      expect(create.idempotencyKey).toBe(`checkout-${installationId()}-charge-${id}`);
      expect(create.body).toMatchObject({
        amount: '1999',
        currency: 'usd',
        payment_method: 'pm_card_visa',
        confirm: 'true',
        capture_method: 'automatic',
        application_fee_amount: '40',
        description: 'Phone order 42',
        metadata: { checkout_payment_id: String(id) },
      });
      expect(await paymentRow(t(), id)).toMatchObject({
        form_id: null,
        gateway: 'gateway_a',
        mode: 'test',
        status: 'completed',
        amount: 1999,
        currency: 'USD',
        amount_received: 1999,
        application_fee_amount: 40,
        provider_payment_ref: res.body.transaction_id,
      });
      expect(await logEvents(t(), id)).toEqual(['payment_created', 'status_changed']);

      const status = await get(`/payment/status?transaction_id=${res.body.transaction_id}`);
      expect(status.body).toMatchObject({ transaction_id: res.body.transaction_id, status: 'completed', amount: 19.99, currency: 'USD' });
    });

    it.each([
      [500, 'JPY', 500, '10'],
      ['1.5', 'KWD', 1500, '30'],
      ['0.07', 'EUR', 7, '0'],
    ])('converts %s %s exactly to %i minor units', async (amount, currency, minor, fee) => {
      bed.fake.clearRequests();
      const res = await post('/gateway-a/payment', { amount, currency, source: 'pm_card_visa' });
      expect(res.status).toBe(200);
      expect(bed.fake.requestsTo('POST', '/v1/payment_intents')[0].body).toMatchObject({ amount: String(minor), application_fee_amount: fee });
    });

    it('answers a decline as a result (record failed), and authentication / processing outcomes as the gateway status', async () => {
      const declined = await post('/gateway-a/payment', { amount: 5, currency: 'USD', source: 'pm_card_chargeDeclined' });
      expect(declined.status).toBe(200);
      expect(declined.body).toEqual({ transaction_id: expect.stringMatching(/^pi_/), status: 'requires_payment_method', message: 'The payment was declined (card_declined).' });
      expect(await paymentRow(t(), localIdOf(declined.body.transaction_id))).toMatchObject({ status: 'failed', provider_payment_ref: declined.body.transaction_id });

      const action = await post('/gateway-a/payment', { amount: 5, currency: 'USD', source: 'pm_card_authenticationRequired' });
      expect(action.body).toMatchObject({ status: 'requires_action' });
      expect(await paymentRow(t(), localIdOf(action.body.transaction_id))).toMatchObject({ status: 'pending' });

      bed.fake.resources.outcomes.set('pm_card_slowBank', 'processing');
      const processing = await post('/gateway-a/payment', { amount: 5, currency: 'USD', source: 'pm_card_slowBank' });
      expect(processing.body).toMatchObject({ status: 'processing' });
      expect(await paymentRow(t(), localIdOf(processing.body.transaction_id))).toMatchObject({ status: 'processing' });
    });

    it.each([
      [{ amount: 19.999, currency: 'USD', source: 'pm_card_visa' }, 'amount', 'rest_invalid_param'],
      [{ amount: 'ten', currency: 'USD', source: 'pm_card_visa' }, 'amount', 'rest_invalid_param'],
      [{ amount: -5, currency: 'USD', source: 'pm_card_visa' }, 'amount', 'rest_invalid_param'],
      [{ amount: 5.5, currency: 'JPY', source: 'pm_card_visa' }, 'amount', 'rest_invalid_param'],
      [{ amount: 5, currency: 'ABC', source: 'pm_card_visa' }, 'currency', 'rest_invalid_param'],
      [{ amount: 5, currency: 'USD', source: 'tok_visa' }, 'source', 'rest_invalid_param'],
      [{ amount: 5, currency: 'USD' }, 'source', 'rest_missing_callback_param'],
    ])('refuses %j with 400 naming %s (%s), before anything is written or charged', async (body, field, code) => {
      const before = await counts();
      bed.fake.clearRequests();
      const res = await post('/gateway-a/payment', body);
      expect(res.status).toBe(400);
      expect(expectWpError(res.body, code, 400).data.params).toHaveProperty(field);
      expect(await counts()).toEqual(before);
      expect(bed.fake.requests).toHaveLength(0);
    });

    it('answers 502 on a gateway failure: a refused request fails the record, an unanswered one leaves it pending', async () => {
      bed.fake.fail({ method: 'POST', path: '/v1/payment_intents', status: 400, error: { message: 'provider detail', code: 'resource_missing' } });
      const refused = await post('/gateway-a/payment', { amount: 3, currency: 'USD', source: 'pm_card_visa' });
      expect(refused.status).toBe(502);
      expectWpError(refused.body, 'checkout_gateway_error', 502);
      expect(JSON.stringify(refused.body)).not.toContain('provider detail');
      const [refusedRow] = await t().dataSource.query(`SELECT * FROM ${t().config.tablePrefix}checkout_payments ORDER BY id DESC LIMIT 1`);
      expect(refusedRow).toMatchObject({ status: 'failed', provider_payment_ref: null });

      bed.fake.fail({ method: 'POST', path: '/v1/payment_intents', status: 500, times: 3 });
      const unknown = await post('/gateway-a/payment', { amount: 3, currency: 'USD', source: 'pm_card_visa' });
      expect(unknown.status).toBe(502);
      const [unknownRow] = await t().dataSource.query(`SELECT * FROM ${t().config.tablePrefix}checkout_payments ORDER BY id DESC LIMIT 1`);
      expect(unknownRow).toMatchObject({ status: 'pending', provider_payment_ref: null });
      // The SDK's retries carried the same idempotency key.
      const keys = new Set(bed.fake.requestsTo('POST', '/v1/payment_intents').slice(-3).map((r) => r.idempotencyKey));
      expect([...keys]).toEqual([`checkout-${installationId()}-charge-${unknownRow.id}`]);
    });

    describe('POST /payment/process (virtual terminal)', () => {
      it('charges a gateway A payment method', async () => {
        const res = await post('/payment/process', { amount: '42.00', currency: 'EUR', payment_method: 'pm_card_mastercard', description: 'Counter sale' });
        expect(res.status).toBe(200);
        expect(res.body).toEqual({ transaction_id: expect.stringMatching(/^pi_/), status: 'success', message: 'Payment succeeded.' });
        expect(await paymentRow(t(), localIdOf(res.body.transaction_id))).toMatchObject({ status: 'completed', amount: 4200, currency: 'EUR', form_id: null });
      });

      it.each(['gateway_b', 'standard_checkout', 'paypal', 'tok_visa'])('refuses payment_method %s (gateway A only) with 400 naming payment_method', async (method) => {
        const before = await counts();
        const res = await post('/payment/process', { amount: 10, currency: 'USD', payment_method: method });
        expect(res.status).toBe(400);
        expect(expectWpError(res.body, 'rest_invalid_param', 400).data.params).toEqual({ payment_method: expect.stringContaining('gateway A only') });
        expect(await counts()).toEqual(before);
      });
    });
  });
});
