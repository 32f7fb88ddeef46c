import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import request from 'supertest';
import type { PaymentForm } from '../../src/modules/forms/index.js';
import { PaymentCompletionEmails, PaymentLedgerService } from '../../src/modules/payments/index.js';
import { connectGateway, createPaymentForm, type SyncAnswer } from '../support/payment-fixtures.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

describe('emails when a payment completes', () => {
  let t: TestApp;
  let form: PaymentForm;
  const outbox = () => join(t.config.dataDir, 'outbox');
  const outboxFiles = (): string[] => {
    try {
      return readdirSync(outbox()).sort();
    } catch {
      return [];
    }
  };
  const logEvents = async (paymentId: number): Promise<string[]> =>
    (await t.dataSource.query(`SELECT event FROM ${t.config.tablePrefix}checkout_log WHERE payment_id = ? ORDER BY id`, [paymentId])).map(
      (row: { event: string }) => row.event,
    );

  beforeAll(async () => {
    t = await startTestApp();
    form = await createPaymentForm(t, { submit_actions: ['email', 'message'], success_message: 'Thanks' });
    await connectGateway(t, 'gateway_a');
  });
  afterAll(() => t.close());

  const sync = async (email?: string): Promise<SyncAnswer> => {
    const res = await request(t.http)
      .post(`${t.base}/payment/sync-details`)
      .send({ form_id: form.id, payment_gateway: 'gateway_a', payment_method: 'ccard', plan_index: 0, price_index: 0, ...(email ? { email_address: email, first_name: 'Ada' } : {}) });
    expect(res.status).toBe(201);
    return res.body as SyncAnswer;
  };

  it('sends the owner notification and the payer confirmation once, on the move to completed', async () => {
    const payment = await sync('ada@example.test');
    const payments = t.app.get(PaymentLedgerService);
    const emails = t.app.get(PaymentCompletionEmails);

    await payments.transition(payment.payment_id, 'processing', { source: 'test' });
    await emails.settled();
    expect(outboxFiles()).toEqual([]);

    await payments.transition(payment.payment_id, 'completed', { source: 'test' });
    await emails.settled();
    const files = outboxFiles();
    expect(files).toHaveLength(2);
    const messages = files.map((file) => readFileSync(join(outbox(), file), 'utf8'));
    expect(messages.some((message) => /^To: owner@example\.test/m.test(message))).toBe(true);
    expect(messages.some((message) => /^To: .*ada@example\.test/m.test(message))).toBe(true);
    expect(messages.join('\n')).toContain('$10.00');
    expect(await logEvents(payment.payment_id)).toContain('emails_sent');

    // A repeated completion (webhook redelivery, checkout retry) sends nothing more.
    await payments.transition(payment.payment_id, 'completed', { source: 'test', tolerateRefusal: true });
    await emails.settled();
    expect(outboxFiles()).toHaveLength(2);
  });

  it('sends nothing for a record without a payer email', async () => {
    const before = outboxFiles().length;
    const payment = await sync();
    await t.app.get(PaymentLedgerService).transition(payment.payment_id, 'completed', { source: 'test' });
    await t.app.get(PaymentCompletionEmails).settled();
    expect(outboxFiles()).toHaveLength(before);
  });
});
