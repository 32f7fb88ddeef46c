import request from 'supertest';
import { installationIdOf } from '../support/test-app.js';
import type { PaymentForm } from '../../src/modules/forms/index.js';
import { GatewayAContractService } from '../../src/modules/gateway-a/index.js';
import { GatewayStateService } from '../../src/modules/gateways/index.js';
import { signedEvent } from '../fakes/gateway-a/index.js';
import { connectThroughProxy, type GatewayATestBed, startGatewayATestBed } from '../support/gateway-a.js';
import { type CheckoutRecord, createIntent, createRecord, finishCheckout, gatewayClient, tableRows } from '../support/gateway-a-checkout.js';
import { createPaymentForm, formSettings } from '../support/payment-fixtures.js';
import { paymentRow } from '../support/app-state.js';

type Json = Record<string, unknown>;

/**
 * A recurring price's one-off setup fee (`setup_amount`) on the free plan, end to end through the
 * real SDK and the fake: sync-details shows it beside the recurring amount (which the record and
 * the checkout token keep), the subscription create adds it to the first invoice with
 * `add_invoice_items`, the first invoice's `invoice.paid` records the whole total as received,
 * and renewals charge the recurring amount only.
 */
describe('gateway A subscriptions with a setup fee (free plan)', () => {
  let bed: GatewayATestBed;
  let form: PaymentForm;
  let secret: string;
  let eventCounter = 0;

  // Plan 0: 9.99 EUR monthly + 5.00 setup; plan 1: 15.00 USD yearly, no setup fee;
  // plan 2: 10.25 USD monthly + 10.25 setup (2 % of each rounds up, 2 % of the total does not).
  const plans = [
    { title: 'Club', prices: [{ amount: 999, currency: 'EUR', frequency: 'm_1' as const, setup_amount: 500 }] },
    { title: 'Plain', prices: [{ amount: 1500, currency: 'USD', frequency: 'y_1' as const }] },
    { title: 'Rounding', prices: [{ amount: 1025, currency: 'USD', frequency: 'm_1' as const, setup_amount: 1025 }] },
  ];

  beforeAll(async () => {
    bed = await startGatewayATestBed({ RATE_LIMIT_NEW_PAYMENT: '10000', RATE_LIMIT_PUBLIC_PAYMENT: '10000' });
    const landing = await connectThroughProxy(bed, 'test');
    expect(landing.searchParams.get('gateway_a_webhook')).toBe('verified');
    await bed.t.app.get(GatewayStateService).setActiveMethods('gateway_a', ['ccard', 'sepa']);
    secret = (await bed.t.app.get(GatewayAContractService).getSigningSecret('test'))!;
    form = await createPaymentForm(bed.t, { plans });
  });
  afterAll(() => bed.close());

  const t = () => bed.t;
  const installationId = () => installationIdOf(bed.t);
  const subscriptionCreates = () => bed.fake.requestsTo('POST', '/v1/subscriptions');
  const fakeObject = (id: string) => ({ ...bed.fake.resources.get(id)! }) as Json;
  const deliver = (type: string, object: Json) => {
    const { body, signature } = signedEvent(type, object, secret, { id: `evt_setup_${++eventCounter}_${Date.now()}` });
    return request(t().http).post(`${t().base}/webhook/gateway-a-callback/test`).set('Content-Type', 'application/json').set('Gateway-A-Signature', signature).send(body);
  };
  const renewalsOf = async (parentId: number): Promise<Json[]> =>
    t().dataSource.query(`SELECT * FROM ${t().config.tablePrefix}checkout_payments WHERE parent_payment_id = ? ORDER BY id`, [parentId]);
  /** The payer's browser: intent route, then the card confirmed at the gateway. */
  const setUpCard = async (record: CheckoutRecord): Promise<string> => {
    const res = await createIntent(t(), record);
    expect(res.status).toBe(200);
    expect(res.body.intent_type).toBe('setup_intent');
    await (await gatewayClient(t())).setupIntents.confirm(res.body.intent_id, { payment_method: 'pm_card_visa' });
    return res.body.intent_id as string;
  };
  /**
   * The fee the gateway charged with an invoice: at the pinned API version the invoice has no
   * fee field; its payment's payment intent carries `application_fee_amount`.
   */
  const invoiceFee = (invoiceId: string) => {
    const payment = bed.fake.resources.list('invoice_payment').find((entry) => entry.invoice === invoiceId)!;
    return bed.fake.resources.get((payment.payment as Json).payment_intent as string)!.application_fee_amount;
  };
  const cachedProductOf = async (planIndex: number) =>
    (await tableRows(t(), 'products')).find((row) => Number(row.form_id) === form.id && Number(row.plan_index) === planIndex)!.provider_product_id;

  it('sync-details answers the recurring amount (bound by the token) and the setup fee beside it', async () => {
    const record = await createRecord(t(), form, { plan_index: 0 });
    expect(record.sync).toMatchObject({ amount: 999, currency: 'EUR', setup_amount: 500, status: 'pending' });
    expect(await paymentRow(t(), record.sync.payment_id)).toMatchObject({ amount: 999, currency: 'EUR', frequency: 'm_1' });
    // The token binds the recurring amount: the first invoice's total is not a valid reference.
    const total = await request(t().http).post(`${t().base}/payment/status`).send({ ...record.reference, amount: 1499 });
    expect(total.status).toBe(403);
    const status = await request(t().http).post(`${t().base}/payment/status`).send(record.reference);
    expect(status.status).toBe(200);
    expect(status.body).toMatchObject({ amount: 999, currency: 'EUR' });

    expect((await createRecord(t(), form, { plan_index: 1 })).sync).toMatchObject({ amount: 1500, setup_amount: null });
    expect((await createRecord(t(), await createPaymentForm(t()))).sync).toMatchObject({ amount: 1000, setup_amount: null });
  });

  it('checkout: the subscription carries the fee as add_invoice_items; invoice.paid records the total, renewals the price only', async () => {
    const record = await createRecord(t(), form, { plan_index: 0, email_address: 'club@example.test' });
    const id = record.sync.payment_id;
    await setUpCard(record);
    bed.fake.clearRequests();

    const done = await finishCheckout(t(), record);
    expect(done.status).toBe(200);
    expect(done.body).toEqual({ status: 'completed', payment_id: id, requires_action: false });

    const [create] = subscriptionCreates();
    const price = (await tableRows(t(), 'prices')).find((row) => Number(row.form_id) === form.id && Number(row.plan_index) === 0)!;
    expect(create.body).toMatchObject({
      items: [{ price: price.provider_price_id }],
      add_invoice_items: [{ price_data: { currency: 'eur', product: await cachedProductOf(0), unit_amount: '500' } }],
      application_fee_percent: '2',
      metadata: { checkout_payment_id: String(id) },
    });
    expect(create.body.add_invoice_items).toHaveLength(1);
    expect(price.provider_product_id).toBe(await cachedProductOf(0));

    // The gateway's first invoice: price + setup fee, paid at once with the saved card.
    const stored = await paymentRow(t(), id);
    const subscription = fakeObject(stored.provider_subscription_ref as string);
    const firstInvoice = fakeObject(subscription.latest_invoice as string);
    expect(firstInvoice).toMatchObject({ billing_reason: 'subscription_create', total: 1499, amount_due: 1499, amount_paid: 1499, currency: 'eur' });
    expect(firstInvoice).not.toHaveProperty('application_fee_amount');
    expect(invoiceFee(firstInvoice.id as string)).toBe(30);
    expect((firstInvoice.lines as { data: Json[] }).data.map((line) => line.amount)).toEqual([999, 500]);
    // The record keeps the recurring amount; the free-plan fee covers the whole first invoice (2 % of 14.99, half up).
    expect(stored).toMatchObject({ status: 'completed', subscription_status: 'active', application_fee_amount: 30, amount_received: null });
    expect(Number(stored.amount)).toBe(999);

    expect((await deliver('invoice.paid', firstInvoice)).body).toEqual({ received: true, outcome: 'processed' });
    const paid = await paymentRow(t(), id);
    expect(paid).toMatchObject({ status: 'completed', amount_received: 1499, application_fee_amount: 30 });
    expect(Number(paid.amount)).toBe(999);
    expect(await renewalsOf(id)).toEqual([]);

    // A billing cycle later: the gateway charges the price alone.
    const renewal = bed.fake.resources.renewSubscription(subscription.id as string);
    expect(renewal).toMatchObject({ billing_reason: 'subscription_cycle', total: 999, amount_paid: 999 });
    expect(invoiceFee(renewal.id as string)).toBe(20);
    const before = bed.fake.requests.length;
    expect((await deliver('invoice.paid', { ...renewal })).body).toEqual({ received: true, outcome: 'processed' });
    const rows = await renewalsOf(id);
    expect(rows).toHaveLength(1);
    // The renewal's fee is the one its payment carried, read from the gateway (one call).
    expect(rows[0]).toMatchObject({ status: 'completed', currency: 'EUR', provider_payment_ref: renewal.id, amount_received: 999, application_fee_amount: 20 });
    expect(bed.fake.requests.slice(before).map((r) => [r.method, r.path, r.query])).toEqual([
      ['GET', '/v1/invoice_payments', { invoice: renewal.id, expand: ['data.payment.payment_intent'] }],
    ]);
    // The same read names the PaymentIntent that paid it: refunds of the renewal go there (and the first payment's to its invoice's).
    const paidBy = (invoiceId: string) => bed.fake.resources.list('invoice_payment').find((entry) => entry.invoice === invoiceId && entry.status === 'paid')!.payment as Record<string, unknown>;
    expect(rows[0].provider_charge_ref).toBe(paidBy(renewal.id as string).payment_intent);
    expect(rows[0].provider_charge_ref).toMatch(/^pi_/);
    expect(Number(rows[0].amount)).toBe(999);
    // A refund of the renewal goes to that PaymentIntent, not to the invoice the row holds.
    const refunded = await request(t().http).post(`${t().base}/administration/payments/${String(rows[0].id)}/refunds`).set('Authorization', t().admin.auth).send({ amount: 300 });
    expect(refunded.status).toBe(201);
    expect(refunded.body.refund).toMatchObject({ amount: 300, currency: 'EUR', status: 'succeeded' });
    expect(bed.fake.requestsTo('POST', '/v1/refunds').at(-1)!.body).toMatchObject({ payment_intent: rows[0].provider_charge_ref, amount: '300' });

    // The checkout route repeats its answer without a second subscription.
    expect((await finishCheckout(t(), record)).body.status).toBe('completed');
    expect(subscriptionCreates()).toHaveLength(1);
  });

  it("a renewal's fee that cannot be read answers 502 and records nothing; the redelivery records the row with its fee", async () => {
    const record = await createRecord(t(), form, { plan_index: 1, email_address: 'renewal-fee@example.test' });
    await setUpCard(record);
    expect((await finishCheckout(t(), record)).body.status).toBe('completed');
    const stored = await paymentRow(t(), record.sync.payment_id);
    const renewal = bed.fake.resources.renewSubscription(stored.provider_subscription_ref as string);
    expect(invoiceFee(renewal.id as string)).toBe(30);

    bed.fake.clearRequests();
    bed.fake.fail({ method: 'GET', path: '/v1/invoice_payments', status: 500, times: 2 });
    const eventId = `evt_fee_${Date.now()}`;
    const send = () => {
      const { body, signature } = signedEvent('invoice.paid', { ...renewal }, secret, { id: eventId });
      return request(t().http).post(`${t().base}/webhook/gateway-a-callback/test`).set('Content-Type', 'application/json').set('Gateway-A-Signature', signature).send(body);
    };
    const failed = await send();
    expect(failed.status).toBe(502);
    expect(failed.body.code).toBe('checkout_gateway_error');
    expect(await renewalsOf(record.sync.payment_id)).toEqual([]);
    // One retry by the SDK, then the delivery fails; nothing was written but the payment's log.
    expect(bed.fake.requestsTo('GET', '/v1/invoice_payments').map((r) => r.status)).toEqual([500, 500]);

    expect((await send()).body).toEqual({ received: true, outcome: 'processed' });
    const rows = await renewalsOf(record.sync.payment_id);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ status: 'completed', provider_payment_ref: renewal.id, application_fee_amount: 30 });
  });

  it('webhook path: setup_intent.succeeded creates the subscription with the fee; the first invoice completes it with the total', async () => {
    const record = await createRecord(t(), form, { plan_index: 0, email_address: 'hook@example.test' });
    const id = record.sync.payment_id;
    const setupId = await setUpCard(record);
    bed.fake.clearRequests();

    expect((await deliver('setup_intent.succeeded', fakeObject(setupId))).body).toEqual({ received: true, outcome: 'processed' });
    const [create] = subscriptionCreates();
    expect(create.idempotencyKey).toBe(`checkout-${installationId()}-sub-${id}`);
    expect(create.body).toMatchObject({ add_invoice_items: [{ price_data: { currency: 'eur', product: await cachedProductOf(0), unit_amount: '500' } }], application_fee_percent: '2' });
    const processing = await paymentRow(t(), id);
    expect(processing).toMatchObject({ status: 'processing', application_fee_amount: 30 });

    const invoice = fakeObject(fakeObject(processing.provider_subscription_ref as string).latest_invoice as string);
    expect((await deliver('invoice.paid', invoice)).body).toEqual({ received: true, outcome: 'processed' });
    const paid = await paymentRow(t(), id);
    expect(paid).toMatchObject({ status: 'completed', amount_received: 1499 });
    expect(Number(paid.amount)).toBe(999);

    // A concurrent checkout call finds the subscription: no second create, no second fee.
    expect((await finishCheckout(t(), record)).body.status).toBe('completed');
    expect(subscriptionCreates()).toHaveLength(1);
  });

  it('a price without setup_amount sends no add_invoice_items; its first invoice is the price alone', async () => {
    const record = await createRecord(t(), form, { plan_index: 1, email_address: 'plain@example.test' });
    await setUpCard(record);
    bed.fake.clearRequests();
    expect((await finishCheckout(t(), record)).body.status).toBe('completed');
    const [create] = subscriptionCreates();
    expect(create.body).not.toHaveProperty('add_invoice_items');
    expect(create.body).toMatchObject({ application_fee_percent: '2' });
    const stored = await paymentRow(t(), record.sync.payment_id);
    expect(stored).toMatchObject({ application_fee_amount: 30 });
    const invoice = fakeObject(fakeObject(stored.provider_subscription_ref as string).latest_invoice as string);
    expect(invoice).toMatchObject({ total: 1500, amount_paid: 1500 });
    await deliver('invoice.paid', invoice);
    expect(await paymentRow(t(), record.sync.payment_id)).toMatchObject({ amount_received: 1500 });
  });

  it('stores the free-plan fee of the first invoice as 2 % of its total, half up (not the sum of two rounded fees)', async () => {
    const record = await createRecord(t(), form, { plan_index: 2, email_address: 'rounding@example.test' });
    await setUpCard(record);
    bed.fake.clearRequests();
    expect((await finishCheckout(t(), record)).body.status).toBe('completed');
    expect(subscriptionCreates()[0].body).toMatchObject({ add_invoice_items: [{ price_data: { currency: 'usd', unit_amount: '1025' } }] });
    // 2 % of 20.50 = 0.41 (2 % of 10.25 alone would round to 0.21, twice 0.42).
    const stored = await paymentRow(t(), record.sync.payment_id);
    expect(stored).toMatchObject({ application_fee_amount: 41 });
    const invoice = fakeObject(fakeObject(stored.provider_subscription_ref as string).latest_invoice as string);
    expect(invoice).toMatchObject({ total: 2050 });
    expect(invoiceFee(invoice.id as string)).toBe(41);
  });

  it('charges the setup fee fixed at sync time, even when the form is edited before the subscription is created', async () => {
    const changing = await createPaymentForm(t(), { plans: [{ title: 'Club', prices: [{ amount: 999, currency: 'EUR', frequency: 'm_1', setup_amount: 500 }] }] });
    const record = await createRecord(t(), changing, { email_address: 'changed@example.test' });
    const id = record.sync.payment_id;
    expect(record.sync).toMatchObject({ amount: 999, currency: 'EUR', setup_amount: 500 });
    await setUpCard(record);
    const edited = await request(t().http)
      .put(`${t().base}/administration/payment-forms/${changing.id}`)
      .set('Authorization', t().admin.auth)
      .send({ settings: formSettings({ plans: [{ title: 'Club', prices: [{ amount: 1099, currency: 'USD', frequency: 'm_1', setup_amount: 700 }] }], success_message: 'Thanks' }) });
    expect(edited.status).toBe(200);
    bed.fake.clearRequests();

    // The payer was shown 9.99 EUR a month plus 5.00 EUR once: that is what the first invoice charges.
    const done = await finishCheckout(t(), record);
    expect(done.body).toMatchObject({ payment_id: id });
    expect(subscriptionCreates()).toHaveLength(1);
    expect(subscriptionCreates()[0].body).toMatchObject({ add_invoice_items: [{ price_data: { currency: 'eur', unit_amount: '500' } }] });
    expect(await paymentRow(t(), id)).toMatchObject({ amount: 999, currency: 'EUR', setup_amount: 500, application_fee_amount: 30 });
  });

  it('documents setup_amount in the sync-details answer', async () => {
    const res = await request(t().http).get('/docs-json');
    const schema = res.body.components.schemas.SyncDetailsResponseDto;
    expect(schema.required).toContain('setup_amount');
    expect(schema.properties.setup_amount).toMatchObject({ type: 'integer', nullable: true });
    expect(schema.properties.setup_amount.description).toContain('first invoice');
  });
});
