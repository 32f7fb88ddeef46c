import { setDisplayLocale } from '../format';
import { deliveryOutcome, durationText } from '../routes/webhooks/webhook-model';
import { BuilderRules } from '../routes/forms/common/builder-rules';
import { describePath, placeErrors } from '../routes/forms/common/field-paths';
import { draftFromForm, toFormBody } from '../routes/forms/common/form-draft';
import { frequencyText } from '../routes/forms/common/price-text';
import { parseRefundAmount } from '../routes/payments/common/money-after-model';
import { type LogFacts, logSentence } from '../routes/payments/common/payment-log-model';
import { invitationText } from '../routes/team/team-model';
import { germanT } from './english';

/** The pure screen logic that builds sentences speaks German with the German catalog: grammar, plurals and numbers. */
describe('German words of the screens’ logic', () => {
  beforeAll(() => setDisplayLocale('de'));
  afterAll(() => setDisplayLocale('en'));

  it('writes a payment log line with German money and a German card', () => {
    const facts: LogFacts = {
      payment: { amount: 123450, amount_received: 123450, card: { brand: 'visa', last4: '4242' }, currency: 'EUR', gateway: 'gateway_a', payment_method: 'ccard', refunds: [], user_names: {} },
      gatewayName: () => 'Stripe',
      methodName: () => 'Card',
      you: 1,
      t: germanT,
    };
    const paid = { id: 1, level: 'info', event: 'status_changed', message: 'x', context: { to: 'completed', source: 'webhook:gateway_a' }, created_at: '2026-03-05T10:15:00Z' } as const;
    expect(logSentence(paid, facts)).toBe('1.234,50\u00a0€ bezahlt mit einer Visa-Karte mit den Endziffern 4242 (gemeldet von Stripe).');
    const renewal = { ...paid, event: 'renewal_payment_failed', context: { attempt: 2, next_attempt_at: '2026-12-03T10:00:00.000Z', amount: 999, currency: 'EUR' } };
    expect(logSentence(renewal, facts)).toBe('Die Verlängerungszahlung über 9,99\u00a0€ ist fehlgeschlagen (Versuch 2); Stripe versucht es am 3. Dez. 2026 erneut.');
  });

  it('refuses a refund amount in German, and says intervals, durations and counts with German plurals and numbers', () => {
    expect(parseRefundAmount('20', 'EUR', 1999, germanT)).toEqual({ error: 'Es können höchstens 19,99\u00a0€ erstattet werden.' });
    expect(frequencyText('m_1', germanT)).toBe('monatlich');
    expect(frequencyText('m_3', germanT)).toBe('alle 3 Monate');
    expect(durationText(2449, germanT)).toBe('2,4 s');
    const delivery = { id: 1, event_id: 2, event_type: 'payment.completed', status: 'pending', attempts: 2, status_code: 500, error: null, duration_ms: 10, response_excerpt: null, created_at: '', last_attempt_at: '' };
    expect(deliveryOutcome(delivery as never, germanT).text).toBe('Neuer Versuch nach 2 Versuchen (HTTP 500)');
    expect(invitationText({ status: 'expired', expires_at: '2026-12-05T10:00:00.000Z', sent_at: null }, germanT)).toMatch(/^Abgelaufen am 5\. Dez\. 2026/);
  });

  it('says where a form builder error is and what is wrong with an amount in German, with German money', () => {
    const form = draftFromForm({
      title: 'Spende',
      settings: {
        plans: [{ title: 'Einmalig', prices: [{ amount: 1000, currency: 'EUR', frequency: 'one-time' }] }],
        payment_methods: {} as never,
        fields: [{ name: 'email_address', type: 'email', label: 'E-Mail', required: true }],
        submit_actions: ['message'],
        email: { email_to: 'owner@example.test', admin_subject: 'Neu', payer_subject: 'Danke', from_name: 'Verein' },
        success_message: 'Danke!',
      },
    });
    expect(describePath('settings.plans.2.prices.0.custom_amount.min', germanT)).toBe('Tarif 3, Preis 1: Minimum des vom Zahler eingegebenen Betrags');
    expect(describePath('settings.fields.0.label', germanT, form)).toBe('Feld 1 für den Zahler (email_address): Beschriftung');
    expect(describePath('settings.email.email_to', germanT)).toBe('Adresse für Benachrichtigungen');
    expect(placeErrors({ 'settings.success_message': ' ' }, form, germanT).summary).toEqual([{ where: 'Erfolgsmeldung', message: 'Dieser Wert wird nicht angenommen.', target: 'settings.success_message' }]);
    const amountRule = { key: 'amount', type: 'amount' as const, label: 'Amount', input_name: 'x', required: true, default: 1000, min: 100, max: 123_456 };
    const rules = new BuilderRules({
      sections: [{ id: 'p', label: 'P', groups: [{ id: 'g', label: 'G', fields: [{ key: 'settings.plans', type: 'repeater', label: 'Plans', input_name: 'x', required: true, default: null, fields: [{ key: 'prices', type: 'repeater', label: 'Prices', input_name: 'x', required: true, default: null, fields: [amountRule] }] }] }] }],
    });
    const problem = (amount: string, currency = 'EUR') => {
      const draft = { ...form, plans: form.plans.map((plan) => ({ ...plan, prices: plan.prices.map((price) => ({ ...price, amount, currency: currency as 'EUR' })) })) };
      return toFormBody(draft, rules, germanT).problems?.['settings.plans.0.prices.0.amount'];
    };
    expect(problem('0.5')).toBe('Geben Sie mindestens 1,00\u00a0€ ein.');
    expect(problem('1234.57')).toBe('Geben Sie höchstens 1.234,56\u00a0€ ein.');
    expect(problem('12.505')).toBe('Beträge in EUR können höchstens 2 Nachkommastellen haben.');
    expect(problem('5.5', 'JPY')).toBe('Beträge in JPY können keine Nachkommastellen haben.');
    expect(problem('12,50')).toBe('Geben Sie einen Betrag in EUR wie 12.50 ein (mit Punkt als Dezimaltrennzeichen).');
  });

  it('counts and names the form builder’s choices with German plurals', () => {
    expect(germanT('forms.builder.testEmail.sent', { count: 1 })).toBe('1 Test-E-Mail gesendet.');
    expect(germanT('forms.builder.testEmail.sent', { count: 2 })).toBe('2 Test-E-Mails gesendet.');
    expect(germanT('forms.builder.summary.title', { count: 1 })).toBe('Das Formular wurde nicht gespeichert: eine Angabe ist zu korrigieren');
    expect(germanT('forms.builder.summary.title', { count: 1200 })).toBe('Das Formular wurde nicht gespeichert: 1.200 Angaben sind zu korrigieren');
    expect(germanT('forms.builder.plans.every', { unit: 'm', count: 1 })).toBe('Monatlich');
    expect(germanT('forms.builder.plans.every', { unit: 'y', count: 3 })).toBe('Alle 3 Jahre');
    expect(germanT('forms.builder.plans.amount', { suggested: 'true', currency: 'EUR' })).toBe('Vorgeschlagener Betrag (EUR)');
    expect(germanT('forms.builder.testEmail.intro', { unsaved: 'true' })).toMatch(/ Speichern Sie zuerst, um Ihre Änderungen zu testen\.$/);
    expect(germanT('setPassword.intro', { purpose: 'invite', login: 'anna', strong: (chunks: string) => chunks } as never)).toBe(
      'Sie wurden zu dieser Checkout-Installation eingeladen. Wählen Sie das Passwort, mit dem Sie sich anmelden werden. Ihr Benutzername ist anna.',
    );
  });
});
