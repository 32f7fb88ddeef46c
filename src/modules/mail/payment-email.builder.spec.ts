import type { PaymentForm } from '../forms/index.js';
import { buildPaymentEmails, buildRefundEmail, fillSubject, type PaymentEmailFacts, samplePaymentFacts } from './payment-email.builder.js';

const form: Pick<PaymentForm, 'id' | 'title' | 'settings'> = {
  id: 7,
  title: 'Bake <sale>',
  settings: {
    plans: [{ title: 'Cake', prices: [{ amount: 1234, currency: 'USD', frequency: 'm_1' }] }],
    payment_methods: { gateway_b: ['standard_checkout'] },
    fields: [
      { name: 'email_address', type: 'email', label: 'Email', required: true },
      { name: 'first_name', type: 'text', label: 'First name', required: true },
      { name: 'flavour', type: 'select', label: 'Flavour', required: true, options: ['Lemon', 'Chocolate'] },
      { name: 'note', type: 'textarea', label: 'Note', required: false },
    ],
    submit_actions: ['email', 'message'],
    email: { email_to: 'owner@example.test', admin_subject: 'New {amount} from {payer_name} ({payment_id})', payer_subject: 'Thanks for {form_title}', from_name: 'Bakery' },
    display: {},
    success_message: 'See you Saturday.',
  },
};

const payment: PaymentEmailFacts = {
  payment_id: 42,
  amount: 1234,
  currency: 'USD',
  frequency: 'm_1',
  plan_title: 'Cake',
  gateway: 'gateway_b',
  payment_method: 'standard_checkout',
  mode: 'live',
  email_address: 'payer@example.test',
  first_name: 'Ada',
  last_name: 'Lovelace',
  custom_fields: { flavour: 'Lemon', note: '<b>no nuts</b>' },
  completed_at: '2026-11-25T10:00:00.000Z',
};

describe('buildPaymentEmails', () => {
  it('builds the admin notification and the payer confirmation with filled subjects', () => {
    const [admin, payer] = buildPaymentEmails(form, payment, { fromAddress: 'checkout@shop.test' });
    expect(admin).toMatchObject({
      kind: 'admin',
      to: 'owner@example.test',
      replyTo: 'payer@example.test',
      from: { name: 'Bakery', address: 'checkout@shop.test' },
      subject: 'New $12.34 / month from Ada Lovelace (42)',
    });
    expect(admin.text).toContain('Flavour: Lemon');
    expect(admin.text).toContain('Payment method: PayPal');
    expect(payer).toMatchObject({ kind: 'payer', to: 'payer@example.test', replyTo: 'owner@example.test', subject: 'Thanks for Bake <sale>' });
    expect(payer.text).toContain('Hi Ada,');
    expect(payer.text).toContain('See you Saturday.');
    expect(payer.text).not.toContain('Mode:');
  });

  it('escapes merchant and payer strings in the HTML bodies', () => {
    for (const message of buildPaymentEmails(form, payment, { fromAddress: 'checkout@shop.test' })) {
      expect(message.html).not.toMatch(/<b>|<sale>/);
      expect(message.html).toContain('Bake &lt;sale&gt;');
    }
  });

  it('keeps a multi-line value inside its row: later lines indented in the text, line breaks in the HTML', () => {
    const lines = { ...payment, custom_fields: { flavour: 'Lemon', note: 'no nuts\nPayer email: evil@example.test' } };
    const [admin] = buildPaymentEmails(form, lines, { fromAddress: 'checkout@shop.test' });
    expect(admin.text).toContain('Note: no nuts\n    Payer email: evil@example.test');
    expect(admin.text.split('\n').filter((line) => line.startsWith('Payer email:'))).toEqual(['Payer email: payer@example.test']);
    expect(admin.html).toContain('<td>no nuts<br>Payer email: evil@example.test</td>');
  });

  it('sends no payer confirmation without the email action, and prefixes test subjects', () => {
    const quiet = { ...form, settings: { ...form.settings, submit_actions: ['message' as const] } };
    const messages = buildPaymentEmails(quiet, payment, { fromAddress: 'x@y.test', subjectPrefix: '[Test] ' });
    expect(messages.map((message) => message.kind)).toEqual(['admin']);
    expect(messages[0].subject.startsWith('[Test] New $12.34')).toBe(true);
  });

  it('keeps subjects on one line whatever the values hold', () => {
    expect(fillSubject('Hi {payer_name} {unknown}', { payer_name: 'Eve\r\nBcc: all@example.test' })).toBe('Hi Eve Bcc: all@example.test {unknown}');
    expect(fillSubject('x'.repeat(300), {})).toHaveLength(250);
  });
});

describe("the payer's manage link", () => {
  const manageUrl = 'https://pay.example.test/pay/manage/AbC_d-1?x=<y>';

  it('is in the payer confirmation and the refund email, never in the merchant notification', () => {
    const [admin, payer] = buildPaymentEmails(form, payment, { fromAddress: 'shop@example.test', manageUrl });
    expect(payer.text).toContain(`See your receipts or manage your payments: ${manageUrl}`);
    expect(payer.html).toContain('<a href="https://pay.example.test/pay/manage/AbC_d-1?x&#61;&lt;y&gt;">');
    expect(admin.text).not.toContain('/pay/manage/');
    expect(admin.html).not.toContain('/pay/manage/');
    const refund = buildRefundEmail(
      form,
      { payment_id: 42, refund_amount: 500, currency: 'USD', email_address: 'payer@example.test', full: false, refunded_at: '2026-11-26T10:00:00.000Z' },
      { fromAddress: 'shop@example.test', manageUrl },
    );
    expect(refund.text).toContain(manageUrl);
    expect(refund.html).toContain('/pay/manage/AbC_d-1');
  });

  it('is left out when none is given', () => {
    const [, payer] = buildPaymentEmails(form, payment, { fromAddress: 'shop@example.test' });
    expect(payer.text).not.toContain('/pay/manage/');
  });
});

describe("the form's own texts in the payer's language (settings.translations)", () => {
  const translated = {
    ...form,
    settings: {
      ...form.settings,
      translations: [
        {
          locale: 'de',
          title: 'Kuchenverkauf',
          success_message: 'Bis Samstag.',
          payer_subject: 'Danke für {form_title} ({amount})',
          fields: [{ name: 'flavour', label: 'Geschmack', options: ['Zitrone', 'Schokolade'] }],
          plans: [{ plan_index: 0, title: 'Kuchen' }],
        },
      ],
    },
  };
  const paid = { ...payment, plan_index: 0 };

  it('gives the German payer the German success message, title, plan title and field label; the merchant keeps the texts as written', () => {
    const [admin, payer] = buildPaymentEmails(translated, paid, { fromAddress: 'shop@example.test', locale: 'de' });
    expect(payer.text).toContain('Bis Samstag.');
    expect(payer.text).not.toContain('See you Saturday.');
    expect(payer.text).toContain('für „Kuchenverkauf“');
    expect(payer.subject).toBe('Danke für Kuchenverkauf (12,34\u00a0$ / Monat)');
    expect(payer.text).toContain('Formular: Kuchenverkauf');
    expect(payer.text).toContain('Tarif: Kuchen');
    // The chosen choice (stored as written: Lemon) by its German label.
    expect(payer.text).toContain('Geschmack: Zitrone');
    expect(admin.subject).toBe('New $12.34 / month from Ada Lovelace (42)');
    expect(payer.html).toContain('<p>Bis Samstag.</p>');
    expect(admin.text).toContain('Plan: Cake');
    expect(admin.text).toContain('Flavour: Lemon');
    expect(admin.text).not.toMatch(/Kuchen|Samstag|Geschmack|Zitrone/);
  });

  it('keeps the texts as written for a language the form has no versions of', () => {
    const [, payer] = buildPaymentEmails(translated, paid, { fromAddress: 'shop@example.test', locale: 'fr' });
    expect(payer.text).toContain('See you Saturday.');
    expect(payer.text).toContain('Flavour: Lemon');
    expect(payer.text).toContain('Cake');
    expect(payer.subject).toBe('Thanks for Bake <sale>');
  });

  it('shows a stored value that is none of the field’s choices as it is', () => {
    const [, payer] = buildPaymentEmails(translated, { ...paid, custom_fields: { flavour: 'Vanilla' } }, { fromAddress: 'shop@example.test', locale: 'de' });
    expect(payer.text).toContain('Geschmack: Vanilla');
  });

  it('puts no version in place of a message the form does not have', () => {
    const quiet = { ...translated, settings: { ...translated.settings, success_message: undefined } };
    const [, payer] = buildPaymentEmails(quiet, paid, { fromAddress: 'shop@example.test', locale: 'de' });
    expect(payer.text).not.toContain('Bis Samstag.');
  });

  it('names the form by its German title in the German refund email', () => {
    const refund = buildRefundEmail(
      translated,
      { payment_id: 42, refund_amount: 500, currency: 'USD', email_address: 'payer@example.test', full: false, refunded_at: '2026-11-26T10:00:00.000Z' },
      { fromAddress: 'shop@example.test', locale: 'de' },
    );
    expect(refund.text).toContain('„Kuchenverkauf“');
    expect(refund.text).not.toContain('Bake');
  });
});

describe('samplePaymentFacts', () => {
  it('pretends the first plan and price were paid, with sample custom values', () => {
    const facts = samplePaymentFacts(form, 'me@example.test', new Date('2026-11-25T10:00:00Z'));
    expect(facts).toMatchObject({ amount: 1234, currency: 'USD', frequency: 'm_1', plan_title: 'Cake', gateway: 'gateway_b', payment_method: 'standard_checkout', email_address: 'me@example.test' });
    expect(facts.custom_fields).toEqual({ flavour: 'Lemon', note: 'Sample note' });
  });
});
