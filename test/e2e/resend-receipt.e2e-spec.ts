import { randomBytes } from 'node:crypto';
import request from 'supertest';
import type { PaymentForm } from '../../src/modules/forms/index.js';
import { type EmailMessage, MailService } from '../../src/modules/mail/index.js';
import { OutboxWorker } from '../../src/modules/outbox/index.js';
import { PayerLinks } from '../../src/modules/payer-links/index.js';
import type { PaymentEntity } from '../../src/modules/payments/payment.entity.js';
import { PaymentRepository } from '../../src/modules/payments/payment.repository.js';
import { advanceClock } from '../support/app-state.js';
import { expectWpError } from '../support/http.js';
import { createPaymentForm } from '../support/payment-fixtures.js';
import { startTestApp, type TestApp, type TestUser } from '../support/test-app.js';

/**
 * POST /administration/payments/{id}/receipt (issue 31 item 3): the payer's receipt queued through
 * the outbox for the roles that hold `resend_checkout_receipts`, once per double click, with the
 * merchant's name, the form, the amount, both references and the manage link; refused for what has
 * no receipt, and nothing moves.
 */
describe('POST /administration/payments/{id}/receipt', () => {
  let t: TestApp;
  let form: PaymentForm;
  let support: TestUser;
  let editor: TestUser;
  let viewer: TestUser;
  const sent: EmailMessage[] = [];

  beforeAll(async () => {
    t = await startTestApp();
    form = await createPaymentForm(t, { email: { email_to: 'owner@example.test', admin_subject: 'New payment', payer_subject: 'Thanks', from_name: 'Ada Shop' } });
    support = await t.createUser('support');
    editor = await t.createUser('editor');
    viewer = await t.createUser('viewer');
    const mail = t.app.get(MailService);
    const send = mail.send.bind(mail);
    jest.spyOn(mail, 'send').mockImplementation(async (messages) => {
      sent.push(...messages);
      return send(messages);
    });
  });
  afterAll(() => t.close());

  const resend = (id: number | string, auth: string | null = t.admin.auth) => {
    const call = request(t.http).post(`${t.base}/administration/payments/${id}/receipt`);
    return auth ? call.set('Authorization', auth) : call;
  };
  const settled = () => t.app.get(OutboxWorker).drain();
  const receiptsTo = (address: string) => sent.filter((message) => message.to === address && message.subject.startsWith('Your receipt'));
  const payment = (values: Partial<PaymentEntity> = {}): Promise<PaymentEntity> =>
    t.app.get(PaymentRepository).insert(t.dataSource.manager, {
      formId: form.id,
      gateway: 'gateway_a',
      paymentMethod: 'ccard',
      mode: 'test',
      status: 'completed',
      amount: 1250,
      amountReceived: 1250,
      currency: 'USD',
      frequency: 'one-time',
      secretNonce: randomBytes(32).toString('base64url'),
      emailAddress: 'receipt@example.test',
      firstName: 'Pat',
      providerPaymentRef: `pi_${randomBytes(8).toString('hex')}`,
      ...values,
    });
  const snapshot = async () => ({
    payments: await t.dataSource.query(`SELECT * FROM ${t.config.tablePrefix}checkout_payments ORDER BY id`),
    outbox: await t.dataSource.query(`SELECT id FROM ${t.config.tablePrefix}checkout_outbox ORDER BY id`),
  });

  it('queues the receipt once per double click; the email names the merchant, the form, the amount, both references and the manage link', async () => {
    const paid = await payment({ providerChargeRef: 'pi_charge_receipt' });
    const first = await resend(paid.id);
    expect(first.status).toBe(202);
    expect(first.body).toEqual({ success: true, message: 'The receipt is on its way to receipt@example.test.', payment_id: paid.id, email_address: 'receipt@example.test', queued: true });
    const second = await resend(paid.id);
    expect(second.status).toBe(202);
    expect(second.body).toMatchObject({ queued: false });
    expect(second.body.message).toContain('nothing more was sent');
    await settled();

    const receipts = receiptsTo('receipt@example.test');
    expect(receipts).toHaveLength(1);
    const [receipt] = receipts;
    expect(receipt.subject).toBe('Your receipt from Ada Shop for "Checkout test form"');
    for (const line of ['Merchant: Ada Shop', 'Form: Checkout test form', 'Amount: $12.50', `Payment reference: ${paid.id}`, 'Provider reference: pi_charge_receipt']) {
      expect(receipt.text).toContain(line);
    }
    const link = /See your payments and receipts: (\S+)/.exec(receipt.text)![1];
    expect(await t.app.get(PayerLinks).verify(link.split('/').pop()!)).toMatchObject({ email: 'receipt@example.test' });
    expect(receipt.html).toContain('Ada Shop');
    const log = (await t.dataSource.query(`SELECT event FROM ${t.config.tablePrefix}checkout_log WHERE payment_id = ? ORDER BY id`, [paid.id])).map((row: { event: string }) => row.event);
    expect(log).toEqual(['receipt_requested', 'receipt_sent']);

    // Minutes later the merchant may send it again.
    const later = advanceClock(t, 3 * 60_000);
    try {
      expect((await resend(paid.id)).body).toMatchObject({ queued: true });
      await settled();
    } finally {
      later.mockRestore();
    }
    expect(receiptsTo('receipt@example.test')).toHaveLength(2);
  });

  it('shows the refunded amount on a partly refunded payment', async () => {
    const paid = await payment({ emailAddress: 'refunded@example.test', amountRefunded: 250 });
    expect((await resend(paid.id)).status).toBe(202);
    await settled();
    expect(receiptsTo('refunded@example.test')[0].text).toContain('Refunded: $2.50');
  });

  it('is for the roles that may resend receipts (support yes; editor and viewer 403) and needs credentials', async () => {
    const paid = await payment({ emailAddress: 'roles@example.test' });
    expect((await resend(paid.id, null)).status).toBe(401);
    for (const user of [editor, viewer]) {
      const res = await resend(paid.id, user.auth);
      expectWpError(res.body, 'rest_forbidden', 403);
    }
    expect((await resend(paid.id, support.auth)).status).toBe(202);
  });

  it('refuses what has no receipt (409), an unknown payment (404) and a bad id (400), and changes nothing', async () => {
    const pending = await payment({ status: 'pending', amountReceived: null, emailAddress: 'pending@example.test' });
    const formless = await payment({ formId: null, emailAddress: 'formless@example.test' });
    const noAddress = await payment({ emailAddress: null });
    const before = await snapshot();
    expect(expectWpError((await resend(pending.id)).body, 'checkout_invalid_state', 409).message).toContain('only a completed payment');
    expectWpError((await resend(formless.id)).body, 'checkout_invalid_state', 409);
    expectWpError((await resend(noAddress.id)).body, 'checkout_invalid_state', 409);
    expectWpError((await resend(2_000_000_000)).body, 'checkout_not_found', 404);
    expect((await resend('abc')).status).toBe(400);
    expect(await snapshot()).toEqual(before);
  });
});
