import request from 'supertest';
import { GatewayAContractService } from '../../src/modules/gateway-a/index.js';
import type { PaymentForm } from '../../src/modules/forms/index.js';
import { GatewayRegistry, GatewayStateService } from '../../src/modules/gateways/index.js';
import { ReconciliationService } from '../../src/modules/operations/index.js';
import { eventProblems, exchangeProblems, operationOf, reference } from '../contracts/gateway-a/gateway-a-contract.js';
import { signedEvent } from '../fakes/gateway-a/index.js';
import { connectThroughProxy, type GatewayATestBed, startGatewayATestBed } from '../support/gateway-a.js';
import { type CheckoutRecord, createIntent, createRecord, finishCheckout, gatewayClient } from '../support/gateway-a-checkout.js';
import { createPaymentForm } from '../support/payment-fixtures.js';
import { advanceClock, paymentRow } from '../support/app-state.js';

type Json = Record<string, unknown>;

/**
 * The service's main gateway-A flows against the fake, every exchange recorded and then held to
 * the provider's reference at the pinned API version (test/contracts/gateway-a/schemas): each
 * request the service sent names an operation of the reference with parameters the reference
 * accepts, each answer of the fake is the object the reference describes, each event delivered
 * is an event of the reference. Flows: OAuth connect (endpoint provisioned and verified), a
 * one-time payment (intent, payer confirmation, checkout, its webhook), a subscription with a
 * setup fee (setup intent, checkout, subscription, first invoice, renewal with its fee), a
 * section B charge, the reconciliation sweep, doctor, a connect with own keys, a disconnect.
 */
describe('gateway A contract: what the service sends and what the fake answers, against the reference', () => {
  let bed: GatewayATestBed;
  let form: PaymentForm;
  let secret: string;
  const events: Json[] = [];
  let counter = 0;

  beforeAll(async () => {
    bed = await startGatewayATestBed({ RATE_LIMIT_NEW_PAYMENT: '10000', RATE_LIMIT_PUBLIC_PAYMENT: '10000' });
    form = await createPaymentForm(bed.t, {
      plans: [
        { title: 'Once', prices: [{ amount: 1000, currency: 'USD', frequency: 'one-time' as const }] },
        { title: 'Club', prices: [{ amount: 999, currency: 'EUR', frequency: 'm_1' as const, setup_amount: 500 }] },
      ],
    });
  });
  afterAll(() => bed.close());

  const t = () => bed.t;
  const fakeObject = (id: string) => ({ ...bed.fake.resources.get(id)! }) as Json;
  const deliver = async (type: string, object: Json) => {
    const { body, signature } = signedEvent(type, object, secret, { id: `evt_contract_${++counter}_${Date.now()}` });
    events.push(JSON.parse(body) as Json);
    const res = await request(t().http).post(`${t().base}/webhook/gateway-a-callback/test`).set('Content-Type', 'application/json').set('Gateway-A-Signature', signature).send(body);
    expect(res.status).toBe(200);
    return res.body as { outcome: string };
  };
  const confirmAsPayer = async (record: CheckoutRecord): Promise<string> => {
    const res = await createIntent(t(), record);
    expect(res.status).toBe(200);
    const client = await gatewayClient(t());
    if (res.body.intent_type === 'payment_intent') await client.paymentIntents.confirm(res.body.intent_id, { payment_method: 'pm_card_visa' });
    else await client.setupIntents.confirm(res.body.intent_id, { payment_method: 'pm_card_visa' });
    return res.body.intent_id as string;
  };

  it('runs the main flows', async () => {
    expect((await connectThroughProxy(bed, 'test')).searchParams.get('gateway_a_webhook')).toBe('verified');
    await t().app.get(GatewayStateService).setActiveMethods('gateway_a', ['ccard', 'sepa']);
    secret = (await t().app.get(GatewayAContractService).getSigningSecret('test'))!;

    // One-time payment: intent, the payer confirms at the gateway, checkout, the webhook.
    const once = await createRecord(t(), form, { plan_index: 0 });
    const intentId = await confirmAsPayer(once);
    expect((await finishCheckout(t(), once)).body.status).toBe('completed');
    expect(await deliver('payment_intent.succeeded', fakeObject(intentId))).toEqual({ received: true, outcome: 'processed' });

    // A payment left pending at the service but paid at the gateway: the reconciliation sweep settles it.
    const swept = await createRecord(t(), form, { plan_index: 0, email_address: 'swept@example.test' });
    await confirmAsPayer(swept);
    const later = advanceClock(t(), 6 * 60_000); // the sweep leaves records younger than 5 minutes to their webhook
    try {
      await t().app.get(ReconciliationService).runOnce({ pauseMs: 0 });
    } finally {
      later.mockRestore();
    }
    expect((await paymentRow(t(), swept.sync.payment_id)).status).toBe('completed');

    // Subscription with a setup fee: setup intent, its webhook creates the subscription, checkout, its events.
    const club = await createRecord(t(), form, { plan_index: 1, email_address: 'club@example.test' });
    const setupId = await confirmAsPayer(club);
    expect(await deliver('setup_intent.succeeded', fakeObject(setupId))).toEqual({ received: true, outcome: 'processed' });
    expect((await finishCheckout(t(), club)).body.status).toBe('completed');
    const subscriptionId = (await paymentRow(t(), club.sync.payment_id)).provider_subscription_ref as string;
    const subscription = fakeObject(subscriptionId);
    expect(await deliver('customer.subscription.created', subscription)).toEqual({ received: true, outcome: 'processed' });
    expect(await deliver('invoice.paid', fakeObject(subscription.latest_invoice as string))).toEqual({ received: true, outcome: 'processed' });
    // The renewal: its fee is read from the invoice's payment.
    const renewal = bed.fake.resources.renewSubscription(subscriptionId);
    expect(await deliver('invoice.paid', renewal)).toEqual({ received: true, outcome: 'processed' });
    const [renewalRow] = await t().dataSource.query(`SELECT * FROM ${t().config.tablePrefix}checkout_payments WHERE parent_payment_id = ?`, [club.sync.payment_id]);
    expect(renewalRow).toMatchObject({ status: 'completed', application_fee_amount: 20 });
    expect(await deliver('customer.subscription.updated', fakeObject(subscriptionId))).toEqual({ received: true, outcome: 'processed' });
    // A declined renewal, retried until the gateway gives up (the failed-renewal emails).
    bed.fake.resources.get(subscriptionId)!.default_payment_method = 'pm_card_chargeDeclined';
    bed.fake.resources.retrySchedule = [3];
    const unpaid = bed.fake.resources.renewSubscription(subscriptionId);
    expect(await deliver('invoice.payment_failed', unpaid)).toEqual({ received: true, outcome: 'processed' });
    const lastTry = bed.fake.resources.retryInvoice(unpaid.id as string);
    expect(lastTry.subscription.status).toBe('canceled');
    expect(await deliver('invoice.payment_failed', lastTry.invoice)).toEqual({ received: true, outcome: 'processed' });
    expect(await deliver('customer.subscription.deleted', fakeObject(subscriptionId))).toEqual({ received: true, outcome: 'processed' });

    // Section B: an admin charge with a payment method token.
    const charge = await request(t().http).post(`${t().base}/gateway-a/payment`).set('Authorization', t().admin.auth).send({ amount: 12.5, currency: 'USD', source: 'pm_card_visa' });
    expect(charge.status).toBe(200);
    expect(charge.body.status).toBe('success');

    // doctor, then the merchant's own live keys, then a disconnect of test mode.
    const adapter = t().app.get(GatewayRegistry).get('gateway_a');
    expect((await adapter.diagnose!('test')).map((check) => check.status)).not.toContain('fail');
    const live = await adapter.keyConnect!.connectWithKeys('live', { publishableKey: 'pk_live_contractOwnKeys123456', secretKey: 'sk_live_contractOwnKeys123456' }, 'contract-test');
    expect(live.webhook.status).toBe('verified');
    await adapter.disconnect('test');
  });

  it('every request the service sent names an operation of the reference and conforms to it; every answer of the fake conforms', () => {
    const exchanges = bed.fake.exchanges;
    expect(exchanges.length).toBeGreaterThanOrEqual(25);
    expect(exchangeProblems(exchanges)).toEqual([]);
    // The flows reached every operation the service uses.
    const used = new Set(exchanges.map((record) => operationOf(record.method, record.path)?.operation));
    for (const operation of [
      'accounts.retrieve',
      'balance.retrieve',
      'customers.create',
      'products.create',
      'prices.create',
      'paymentIntents.create',
      'paymentIntents.retrieve',
      'setupIntents.create',
      'setupIntents.retrieve',
      'subscriptions.create',
      'invoicePayments.list',
      'webhookEndpoints.create',
      'webhookEndpoints.retrieve',
      'webhookEndpoints.list',
      'webhookEndpoints.del',
    ]) {
      expect({ operation, used: used.has(operation) }).toEqual({ operation, used: true });
    }
    expect(reference.source.api_version).toBe(exchanges.find((record) => record.stripeVersion)!.stripeVersion);
  });

  it('every event delivered (built from the fake objects) is an event of the reference', () => {
    expect(events.length).toBe(9);
    expect(events.flatMap(eventProblems)).toEqual([]);
  });
});
