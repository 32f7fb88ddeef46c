import type { PaymentForm } from '../forms/index.js';
import { buildReceiptEmail, buildRenewalEndedEmail, buildRenewalFailedEmail } from './payer-notice-email.builder.js';

const form = {
  title: 'Club <b>',
  settings: { email: { email_to: 'owner@example.test', admin_subject: 's', payer_subject: 's', from_name: 'Ada & Co' } },
} as Pick<PaymentForm, 'title' | 'settings'>;
const options = { fromAddress: 'shop@example.test' };
const manage = 'https://shop.example/pay/manage/abc_DEF-1';

describe('payer notice emails', () => {
  it('a receipt names the merchant, the form, the amount, both references and the manage link, escaped in HTML', () => {
    const message = buildReceiptEmail(
      form,
      { payment_id: 42, amount: 999, currency: 'EUR', frequency: 'm_1', amount_refunded: 0, email_address: 'pat@example.test', first_name: 'Pat', provider_reference: 'pi_1', paid_at: '2026-11-28T10:00:00.000Z', manage_url: manage },
      options,
    );
    expect(message).toMatchObject({ kind: 'payer', to: 'pat@example.test', replyTo: 'owner@example.test', from: { name: 'Ada & Co', address: 'shop@example.test' } });
    expect(message.subject).toBe('Your receipt from Ada & Co for "Club <b>"');
    for (const row of ['Merchant: Ada & Co', 'Form: Club <b>', 'Amount: €9.99 / month', 'Payment reference: 42', 'Provider reference: pi_1', `See your payments and receipts: ${manage}`]) {
      expect(message.text).toContain(row);
    }
    expect(message.text).not.toContain('Refunded');
    expect(message.html).toContain('Club &lt;b&gt;');
    expect(message.html).toContain('Ada &amp; Co');
    expect(message.html).not.toContain('<b>"');
    expect(message.html).toContain(`<a href="${manage}">`);
  });

  it('a failed renewal says the amount, the attempt and the next retry date, or that none is planned', () => {
    const facts = { payment_id: 7, amount: 999, currency: 'EUR', frequency: 'm_1' as const, email_address: 'pat@example.test', invoice_reference: 'in_1', attempt: 2, manage_url: manage };
    const retry = buildRenewalFailedEmail(form, { ...facts, next_attempt_at: '2026-12-03T10:00:00.000Z' }, options);
    expect(retry.subject).toBe('Your payment of €9.99 for "Club <b>" did not go through');
    expect(retry.text).toContain('We will try again on 2026-12-03.');
    expect(retry.text).toContain(`Update your card: ${manage}`);
    expect(retry.text).toContain('Attempt: 2');
    const last = buildRenewalFailedEmail(form, { ...facts, next_attempt_at: null }, options);
    expect(last.text).toContain('No further attempt is planned');
    expect(last.text).toContain('Next attempt: none');
  });

  it('the provider giving up is told as ended (canceled) or on hold (unpaid)', () => {
    const facts = { payment_id: 7, amount: 999, currency: 'EUR', frequency: 'm_1' as const, email_address: 'pat@example.test', manage_url: manage };
    expect(buildRenewalEndedEmail(form, { ...facts, status: 'canceled' }, options).subject).toBe('Your subscription to "Club <b>" has ended');
    expect(buildRenewalEndedEmail(form, { ...facts, status: 'unpaid' }, options).subject).toBe('Your subscription to "Club <b>" is on hold');
  });
});
