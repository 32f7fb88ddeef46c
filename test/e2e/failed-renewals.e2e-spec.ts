import request from 'supertest';
import { GatewayAContractService } from '../../src/modules/gateway-a/index.js';
import type { PaymentForm } from '../../src/modules/forms/index.js';
import { GatewayStateService } from '../../src/modules/gateways/index.js';
import { type EmailMessage, MailService } from '../../src/modules/mail/index.js';
import { OutboxWorker } from '../../src/modules/outbox/index.js';
import { PayerLinks } from '../../src/modules/payer-links/index.js';
import { InstallationService } from '../../src/modules/settings/index.js';
import { signedEvent } from '../fakes/gateway-a/index.js';
import { connectThroughProxy, type GatewayATestBed, startGatewayATestBed } from '../support/gateway-a.js';
import { type CheckoutRecord, createIntent, createRecord, finishCheckout, gatewayClient } from '../support/gateway-a-checkout.js';
import { createPaymentForm } from '../support/payment-fixtures.js';
import { paymentRow } from '../support/app-state.js';

type Json = Record<string, unknown>;

/**
 * Failed renewals (issue 31 item 4; docs/payments.md, "Failed renewals"): a subscription made
 * through the fake gateway A whose renewal is declined. The payer is emailed once per failed
 * attempt of the invoice, with the amount, the provider's next attempt and the manage link; the
 * merchant sees a dashboard notification and a payment-log line; when the provider gives up, the
 * payer is told once. Redelivered events and the matching subscription update send nothing more,
 * and a form setting turns the emails off.
 */
describe('failed renewals', () => {
  let bed: GatewayATestBed;
  let form: PaymentForm;
  let quietForm: PaymentForm;
  let secret: string;
  let counter = 0;
  const sent: EmailMessage[] = [];

  const clubPlans = { plans: [{ title: 'Club', prices: [{ amount: 999, currency: 'EUR', frequency: 'm_1' as const }] }] };

  beforeAll(async () => {
    bed = await startGatewayATestBed({ RATE_LIMIT_NEW_PAYMENT: '10000', RATE_LIMIT_PUBLIC_PAYMENT: '10000' });
    expect((await connectThroughProxy(bed, 'test')).searchParams.get('gateway_a_webhook')).toBe('verified');
    await t().app.get(GatewayStateService).setActiveMethods('gateway_a', ['ccard']);
    secret = (await t().app.get(GatewayAContractService).getSigningSecret('test'))!;
    form = await createPaymentForm(t(), { ...clubPlans, email: { email_to: 'owner@example.test', admin_subject: 'New payment', payer_subject: 'Thanks', from_name: 'Ada Shop' } });
    quietForm = await createPaymentForm(t(), {
      ...clubPlans,
      email: { email_to: 'owner@example.test', admin_subject: 'New payment', payer_subject: 'Thanks', from_name: 'Quiet Shop', renewal_failure_emails: false },
    });
    const mail = t().app.get(MailService);
    const send = mail.send.bind(mail);
    jest.spyOn(mail, 'send').mockImplementation(async (messages) => {
      sent.push(...messages);
      return send(messages);
    });
  });
  afterAll(() => bed.close());

  const t = () => bed.t;
  const settled = () => t().app.get(OutboxWorker).drain();
  const fakeObject = (id: string) => ({ ...bed.fake.resources.get(id)! }) as Json;
  const deliver = async (type: string, object: Json, id = `evt_renewal_${++counter}_${Date.now()}`) => {
    const { body, signature } = signedEvent(type, object, secret, { id });
    const res = await request(t().http).post(`${t().base}/webhook/gateway-a-callback/test`).set('Content-Type', 'application/json').set('Gateway-A-Signature', signature).send(body);
    expect(res.status).toBe(200);
    return { ...(res.body as { outcome: string }), id };
  };
  const logEvents = async (paymentId: number): Promise<string[]> =>
    (await t().dataSource.query(`SELECT event FROM ${t().config.tablePrefix}checkout_log WHERE payment_id = ? ORDER BY id`, [paymentId])).map((row: { event: string }) => row.event);
  const payerEmails = (to: string) => sent.filter((message) => message.to === to && message.kind === 'payer' && /did not go through|subscription to/.test(message.subject));
  const notifications = async () => {
    const res = await request(t().http).get(`${t().base}/administration/dashboard`).set('Authorization', t().admin.auth);
    expect(res.status).toBe(200);
    return res.body.notifications as Array<{ id: string; message: string; route: string | null; fingerprint: string }>;
  };

  /** A paid monthly subscription of `email` on `onForm`, its renewal card then declining. */
  const subscribe = async (email: string, onForm = form): Promise<{ paymentId: number; subscriptionId: string }> => {
    const record: CheckoutRecord = await createRecord(t(), onForm, { plan_index: 0, email_address: email });
    const res = await createIntent(t(), record);
    expect(res.status).toBe(200);
    await (await gatewayClient(t())).setupIntents.confirm(res.body.intent_id, { payment_method: 'pm_card_visa' });
    expect((await deliver('setup_intent.succeeded', fakeObject(res.body.intent_id))).outcome).toBe('processed');
    expect((await finishCheckout(t(), record)).status).toBe(200);
    const subscriptionId = (await paymentRow(t(), record.sync.payment_id)).provider_subscription_ref as string;
    expect((await deliver('invoice.paid', fakeObject(fakeObject(subscriptionId).latest_invoice as string))).outcome).toBe('processed');
    expect((await deliver('customer.subscription.updated', fakeObject(subscriptionId))).outcome).toBe('processed');
    bed.fake.resources.get(subscriptionId)!.default_payment_method = 'pm_card_chargeDeclined';
    return { paymentId: record.sync.payment_id, subscriptionId };
  };

  it('emails the payer once per failed attempt, logs it, raises a dashboard notification, and tells the payer once when the provider gives up', async () => {
    const { paymentId, subscriptionId } = await subscribe('dunning@example.test');
    const renewal = bed.fake.resources.renewSubscription(subscriptionId);
    expect(renewal).toMatchObject({ status: 'open', attempt_count: 1 });
    expect(renewal.next_payment_attempt).toEqual(expect.any(Number));

    const failed = await deliver('invoice.payment_failed', renewal);
    expect(failed.outcome).toBe('processed');
    // The subscription update that follows (past_due), and the same event redelivered, send nothing more.
    expect((await deliver('customer.subscription.updated', fakeObject(subscriptionId))).outcome).toBe('processed');
    await deliver('invoice.payment_failed', renewal, failed.id);
    await deliver('invoice.payment_failed', renewal);
    await settled();

    let emails = payerEmails('dunning@example.test');
    expect(emails).toHaveLength(1);
    const [first] = emails;
    expect(first.subject).toBe('Your payment of €9.99 for "Checkout test form" did not go through');
    expect(first.text).toContain(`We will try again on ${new Date((renewal.next_payment_attempt as number) * 1000).toISOString().slice(0, 10)}.`);
    expect(first.text).toContain(`Provider reference: ${renewal.id as string}`);
    expect(first.text).toContain('Merchant: Ada Shop');
    // The manage link is this payer's (PayerLinks verifies it for their address).
    const link = /Update your card: (\S+)/.exec(first.text)![1];
    expect(link).toMatch(new RegExp(`^${t().config.publicBaseUrl}/pay/manage/[A-Za-z0-9_-]+$`));
    expect(await t().app.get(PayerLinks).verify(link.split('/').pop()!)).toMatchObject({ email: 'dunning@example.test' });
    expect(first.html).toContain(`href="${link}"`);

    const log = await logEvents(paymentId);
    expect(log.filter((event) => event === 'renewal_payment_failed')).toHaveLength(1);
    expect(log.filter((event) => event === 'renewal_email_sent')).toHaveLength(1);
    const [renewalRow] = await t().dataSource.query(`SELECT id FROM ${t().config.tablePrefix}checkout_payments WHERE parent_payment_id = ?`, [paymentId]);
    const notice = (await notifications()).find((entry) => entry.id === `payments.renewal_failed.${renewalRow.id}`);
    expect(notice).toMatchObject({ route: `GET /administration/payments/${paymentId}` });
    expect(notice!.message).toContain('€9.99');
    expect(notice!.message).toContain('the provider tries again');

    // The gateway's second attempt fails too: told again, once.
    const second = bed.fake.resources.retryInvoice(renewal.id as string);
    expect(second.invoice).toMatchObject({ attempt_count: 2 });
    await deliver('invoice.payment_failed', second.invoice);
    await deliver('invoice.payment_failed', second.invoice);
    await settled();
    emails = payerEmails('dunning@example.test');
    expect(emails).toHaveLength(2);
    expect(emails[1].text).toContain('Attempt: 2');

    // The last retries fail and the provider gives up: the last attempt names no next one, then the subscription is canceled.
    bed.fake.resources.retryInvoice(renewal.id as string);
    const last = bed.fake.resources.retryInvoice(renewal.id as string);
    expect(last.invoice).toMatchObject({ attempt_count: 4, next_payment_attempt: null });
    expect(last.subscription).toMatchObject({ status: 'canceled' });
    await deliver('invoice.payment_failed', last.invoice);
    await settled();
    emails = payerEmails('dunning@example.test');
    expect(emails).toHaveLength(3);
    expect(emails[2].text).toContain('No further attempt is planned');

    const deleted = await deliver('customer.subscription.deleted', fakeObject(subscriptionId));
    expect(deleted.outcome).toBe('processed');
    await deliver('customer.subscription.deleted', fakeObject(subscriptionId), deleted.id);
    await deliver('customer.subscription.updated', fakeObject(subscriptionId));
    await settled();
    emails = payerEmails('dunning@example.test');
    expect(emails).toHaveLength(4);
    expect(emails[3].subject).toBe('Your subscription to "Checkout test form" has ended');
    expect(emails[3].text).toMatch(/Manage your payments: \S+\/pay\/manage\//);
    expect((await logEvents(paymentId)).filter((event) => event === 'renewal_given_up')).toHaveLength(1);
    expect((await notifications()).find((entry) => entry.id === `payments.renewal_failed.${renewalRow.id}`)!.message).toContain('canceled the subscription');
    expect((await paymentRow(t(), paymentId)).subscription_status).toBe('canceled');
  });

  it('a renewal paid on retry clears the notification and sends no further email', async () => {
    const { paymentId, subscriptionId } = await subscribe('recovered@example.test');
    const renewal = bed.fake.resources.renewSubscription(subscriptionId);
    await deliver('invoice.payment_failed', renewal);
    await settled();
    const [renewalRow] = await t().dataSource.query(`SELECT id FROM ${t().config.tablePrefix}checkout_payments WHERE parent_payment_id = ?`, [paymentId]);
    expect((await notifications()).map((entry) => entry.id)).toContain(`payments.renewal_failed.${renewalRow.id}`);

    bed.fake.resources.get(subscriptionId)!.default_payment_method = 'pm_card_visa';
    const paid = bed.fake.resources.retryInvoice(renewal.id as string);
    expect(paid.invoice).toMatchObject({ status: 'paid', attempt_count: 2 });
    expect((await deliver('invoice.paid', paid.invoice)).outcome).toBe('processed');
    await settled();
    expect(payerEmails('recovered@example.test')).toHaveLength(1);
    expect((await notifications()).map((entry) => entry.id)).not.toContain(`payments.renewal_failed.${renewalRow.id}`);
  });

  it("a form whose setting turns them off sends no email; the log and the dashboard still say it", async () => {
    const { paymentId, subscriptionId } = await subscribe('quiet@example.test', quietForm);
    const renewal = bed.fake.resources.renewSubscription(subscriptionId);
    expect((await deliver('invoice.payment_failed', renewal)).outcome).toBe('processed');
    await settled();
    expect(payerEmails('quiet@example.test')).toHaveLength(0);
    const log = await logEvents(paymentId);
    expect(log).toContain('renewal_payment_failed');
    expect(log).toContain('renewal_email_off');
    expect(log).not.toContain('renewal_email_sent');
  });

  it('trusts nothing in an event not tied to a subscription this installation created', async () => {
    const { subscriptionId } = await subscribe('victim@example.test');
    const renewal = bed.fake.resources.renewSubscription(subscriptionId);
    const details = (renewal.parent as Json).subscription_details as Json;
    const before = sent.length;
    // Another installation's metadata: ignored.
    const foreign = { ...renewal, id: 'in_foreign', parent: { ...(renewal.parent as Json), subscription_details: { ...details, metadata: { checkout_installation_id: 'another-site' } } } };
    expect((await deliver('invoice.payment_failed', foreign)).outcome).toBe('ignored');
    // Our installation id but a subscription no payment holds: ignored (unknown payment).
    const unknown = { ...renewal, id: 'in_unknown', parent: { ...(renewal.parent as Json), subscription_details: { subscription: 'sub_unknown', metadata: { checkout_installation_id: t().app.get(InstallationService).id() } } } };
    expect((await deliver('invoice.payment_failed', unknown)).outcome).toBe('ignored');
    // A past_due → canceled of a subscription nobody created here.
    expect((await deliver('customer.subscription.deleted', { id: 'sub_unknown', object: 'subscription', status: 'canceled', metadata: { checkout_installation_id: 'another-site' } })).outcome).toBe('ignored');
    await settled();
    expect(sent.length).toBe(before);
  });

  it('the form setting is stored as given, and absent means on', async () => {
    const create = (email: Json) =>
      request(t().http)
        .post(`${t().base}/administration/payment-forms`)
        .set('Authorization', t().admin.auth)
        .send({ title: 'Setting', status: 'draft', settings: { ...form.settings, success_message: 'Thanks', email: { ...form.settings.email, ...email } } });
    const off = await create({ renewal_failure_emails: false });
    expect(off.status).toBe(201);
    expect(off.body.settings.email.renewal_failure_emails).toBe(false);
    const absent = await create({});
    expect(absent.status).toBe(201);
    expect(absent.body.settings.email).not.toHaveProperty('renewal_failure_emails');
  });
});
