import request from 'supertest';
import type { PaymentForm } from '../../src/modules/forms/index.js';
import { GatewayAContractService } from '../../src/modules/gateway-a/index.js';
import { GatewayStateService } from '../../src/modules/gateways/index.js';
import { signedEvent } from '../fakes/gateway-a/index.js';
import { connectThroughProxy, type GatewayATestBed, startGatewayATestBed } from '../support/gateway-a.js';
import { createIntent, createRecord, gatewayClient, paymentRow } from '../support/gateway-a-checkout.js';
import { expectWpError } from '../support/http.js';
import { createPaymentForm } from '../support/payment-fixtures.js';
import type { TestApp } from '../support/test-app.js';

/**
 * Regression tests for bugs found in a security/correctness review of the public checkout,
 * the gateway-A webhooks and the payment records. Each case failed before its fix.
 */
describe('payment review findings', () => {
  let bed: GatewayATestBed;
  let t: TestApp;
  let secret: string;
  let eventCounter = 0;

  beforeAll(async () => {
    bed = await startGatewayATestBed({ RATE_LIMIT_NEW_PAYMENT: '10000', RATE_LIMIT_PUBLIC_PAYMENT: '10000' });
    t = bed.t;
    const landing = await connectThroughProxy(bed, 'test');
    expect(landing.searchParams.get('gateway_a_webhook')).toBe('verified');
    await t.app.get(GatewayStateService).setActiveMethods('gateway_a', ['ccard', 'sepa']);
    secret = (await t.app.get(GatewayAContractService).getSigningSecret('test'))!;
  });
  afterAll(() => bed.close());

  const deliver = (type: string, object: Record<string, unknown>) => {
    const { body, signature } = signedEvent(type, object, secret, { id: `evt_review_${++eventCounter}_${Date.now()}` });
    return request(t.http).post(`${t.base}/webhook/gateway-a-callback/test`).set('Content-Type', 'application/json').set('Gateway-A-Signature', signature).send(body);
  };
  const fakeObject = (id: string) => ({ ...bed.fake.resources.get(id)! }) as Record<string, unknown>;

  describe('a subscription record after its subscription exists at the gateway', () => {
    let form: PaymentForm;
    beforeAll(async () => {
      form = await createPaymentForm(t, {
        plans: [
          { title: 'Monthly', prices: [{ amount: 999, currency: 'EUR', frequency: 'm_1' }] },
          { title: 'Yearly', prices: [{ amount: 9999, currency: 'EUR', frequency: 'y_1' }] },
        ],
      });
    });

    it('cannot be switched to another price by sync-details once its first invoice failed (the subscription keeps charging the old price)', async () => {
      const record = await createRecord(t, form, { plan_index: 0 });
      const id = record.sync.payment_id;
      const created = await createIntent(t, record);
      expect(created.status).toBe(200);
      const setupId = created.body.intent_id as string;
      const client = await gatewayClient(t);
      await client.setupIntents.confirm(setupId, { payment_method: 'pm_card_visa' });
      expect((await deliver('setup_intent.succeeded', fakeObject(setupId))).body.outcome).toBe('processed');
      const subscriptionRef = (await paymentRow(t, id)).provider_subscription_ref as string;
      expect(subscriptionRef).toMatch(/^sub_/);
      const firstInvoice = fakeObject(fakeObject(subscriptionRef).latest_invoice as string);

      // The first charge fails: the record fails (a retryable status for sync-details).
      await deliver('invoice.payment_failed', { ...firstInvoice, status: 'open', amount_paid: 0 });
      expect(await paymentRow(t, id)).toMatchObject({ status: 'failed' });

      // The payer now claims the yearly plan for the same record.
      const change = await request(t.http)
        .post(`${t.base}/payment/sync-details`)
        .send({ form_id: form.id, payment_gateway: 'gateway_a', payment_method: 'ccard', plan_index: 1, payment_id: id, payment_secret: record.sync.payment_secret });
      expect(change.status).toBe(409);
      expectWpError(change.body, 'checkout_invalid_state', 409);

      // The monthly invoice is paid later: the record completes as what it is, the monthly price.
      await deliver('invoice.paid', firstInvoice);
      const after = await paymentRow(t, id);
      expect(after).toMatchObject({ status: 'completed', frequency: 'm_1', provider_subscription_ref: subscriptionRef });
      expect(Number(after.amount)).toBe(999);
      expect(Number(after.plan_index)).toBe(0);
    });
  });
});
