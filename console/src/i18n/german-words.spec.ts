import { setDisplayLocale } from '../format';
import { deliveryOutcome, durationText } from '../routes/webhooks/webhook-model';
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
});
