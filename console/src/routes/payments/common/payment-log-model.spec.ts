import { englishT } from '../../../i18n/english';
import { cardBrandName, cardWords, type LogFacts, type LogLine, logSentence, userWords } from './payment-log-model';

const refund = (id: number, amount: number, createdBy: number | null) => ({
  id,
  amount,
  currency: 'USD',
  status: 'succeeded' as const,
  reason: null,
  note: null,
  source: 'console' as const,
  provider_refund_id: null,
  application_fee_refunded: null,
  failure_code: null,
  created_by: createdBy,
  created_at: '2026-11-28T10:00:00.000Z',
  updated_at: '2026-11-28T10:00:00.000Z',
});

const facts = (overrides: Partial<LogFacts['payment']> = {}, you: number | null = 1): LogFacts => ({
  payment: {
    amount: 2500,
    amount_received: 2500,
    card: null,
    currency: 'USD',
    gateway: 'gateway_a',
    payment_method: 'ccard',
    refunds: [refund(7, 400, 2), refund(8, 100, 1), refund(9, 50, 5)],
    user_names: { '1': 'Ada Lovelace', '2': 'Grace Hopper' },
    ...overrides,
  },
  gatewayName: (gateway) => ({ gateway_a: 'Stripe', gateway_b: 'PayPal' })[gateway] ?? gateway,
  methodName: (_gateway, method) => ({ ccard: 'Card', device_wallet_1: 'Apple Pay', standard_checkout: 'PayPal' })[method] ?? method,
  you,
  t: englishT,
});

const line = (event: string, context: LogLine['context'], message = 'the service’s message'): LogLine => ({ id: 1, level: 'info', event, message, context, created_at: '2026-11-28T10:00:00.000Z' });

describe('payment log sentences', () => {
  it('says what a failed renewal, its emails and a resent receipt did, in the merchant\'s words', () => {
    const failed = line('renewal_payment_failed', { renewal_id: 12, invoice: 'in_1', attempt: 2, next_attempt_at: '2026-12-03T10:00:00.000Z', amount: 999, currency: 'EUR' });
    expect(logSentence(failed, facts())).toBe('The renewal payment of €9.99 failed (attempt 2); Stripe tries again on 3 Dec 2026.');
    expect(logSentence(line('renewal_payment_failed', { attempt: 4, next_attempt_at: null, amount: 999, currency: 'EUR' }), facts())).toBe(
      'The renewal payment of €9.99 failed (attempt 4); Stripe makes no further attempt.',
    );
    expect(logSentence(line('renewal_given_up', { status: 'canceled' }), facts())).toBe('Stripe stopped trying to collect the renewal: the subscription is canceled.');
    expect(logSentence(line('renewal_email_sent', { kind: 'failed' }), facts())).toBe('Emailed the payer about the failed renewal, with a link to update their card.');
    expect(logSentence(line('renewal_email_sent', { kind: 'ended' }), facts())).toBe('Told the payer the subscription ended unpaid.');
    expect(logSentence(line('receipt_requested', { user_id: 2 }), facts())).toBe('Receipt sent again on request of Grace Hopper.');
    expect(logSentence(line('receipt_requested', { user_id: 1 }), facts())).toBe('You had the receipt sent again.');
    expect(logSentence(line('receipt_sent', {}), facts())).toBe('Receipt emailed to the payer.');
  });

  it('names the card that paid by its brand and last four digits when the provider said them', () => {
    const paid = line('status_changed', { from: 'pending', to: 'completed', source: 'webhook:gateway_a', reason: null });
    expect(logSentence(paid, facts({ card: { brand: 'visa', last4: '4242' } }))).toBe('Paid $25.00 with a Visa card ending 4242 (reported by Stripe).');
    expect(logSentence(paid, facts({ card: { brand: 'amex', last4: '8431' } }))).toBe('Paid $25.00 with an American Express card ending 8431 (reported by Stripe).');
    expect(logSentence(paid, facts({ card: { brand: 'unknown', last4: '0005' } }))).toBe('Paid $25.00 with a card ending 0005 (reported by Stripe).');
    expect(logSentence(paid, facts({ payment_method: 'device_wallet_1', card: { brand: 'mastercard', last4: '4444' } }))).toBe('Paid $25.00 with Apple Pay (Mastercard ending 4444) (reported by Stripe).');
    // A wallet account names no card.
    expect(logSentence(line('status_changed', { from: 'pending', to: 'completed', source: 'webhook:gateway_b' }), facts({ gateway: 'gateway_b', payment_method: 'standard_checkout' }))).toBe('Paid $25.00 with PayPal (reported by PayPal).');
    expect(cardBrandName('cartes_bancaires')).toBe('Cartes Bancaires');
    expect(cardBrandName('new_network')).toBe('New Network');
    expect(cardWords({ brand: 'jcb', last4: '0000' }, englishT)).toBe('JCB ending 0000');
  });

  it('says what was paid, how, and who reported it', () => {
    expect(logSentence(line('status_changed', { from: 'pending', to: 'completed', source: 'webhook:gateway_a', reason: null }), facts())).toBe('Paid $25.00 with a card (reported by Stripe).');
    expect(logSentence(line('status_changed', { from: 'pending', to: 'completed', source: 'sync-details' }), facts({ payment_method: 'device_wallet_1' }))).toBe('Paid $25.00 with Apple Pay.');
    expect(logSentence(line('status_changed', { to: 'completed', source: 'checkout:gateway_b' }), facts({ gateway: 'gateway_b', payment_method: 'standard_checkout', currency: 'EUR', amount_received: 1999 }))).toBe('Paid €19.99 with PayPal.');
  });

  it('names the teammate who refunded, you, or a former teammate', () => {
    expect(logSentence(line('refund_requested', { refund_id: 7, amount: 400, source: 'console' }), facts())).toBe('Refund of $4.00 by Grace Hopper.');
    expect(logSentence(line('refund_requested', { refund_id: 8, amount: 100, source: 'api' }), facts())).toBe('Refund of $1.00 by you through the API.');
    expect(logSentence(line('refund_requested', { refund_id: 9, amount: 50, source: 'console' }), facts())).toBe('Refund of $0.50 by a former teammate.');
    expect(userWords(2, facts({}, null))).toBe('Grace Hopper');
  });

  it('words the other moves and emails', () => {
    expect(logSentence(line('payment_created', { gateway: 'gateway_a', payment_method: 'ccard', amount: 2500, currency: 'USD', mode: 'test' }), facts())).toBe('Checkout started: $25.00 with a card.');
    expect(logSentence(line('payment_created', { source: 'admin_charge', user_id: 2, amount: 900, currency: 'USD' }), facts())).toBe('Charge of $9.00 started by Grace Hopper.');
    expect(logSentence(line('status_changed', { from: 'pending', to: 'failed', source: 'webhook:gateway_a', reason: 'card declined' }), facts())).toBe('The payment failed: card declined (reported by Stripe).');
    expect(logSentence(line('status_changed', { from: 'failed', to: 'pending', source: 'sync-details' }), facts())).toBe('The payer is trying again.');
    expect(logSentence(line('emails_sent', { kinds: ['admin', 'payer'], attempt: 1 }), facts())).toBe('Emailed the receipt to the payer and the notification to you.');
    expect(logSentence(line('refund_recorded', { amount: 300, status: 'succeeded', refund_id: 3 }), facts())).toBe('Refund of $3.00 made at Stripe: succeeded.');
    expect(logSentence(line('refund_updated', { refund_id: 7, status: 'succeeded' }), facts())).toBe('The refund of $4.00 is complete.');
    expect(logSentence(line('renewal_created', { parent_payment_id: 12, status: 'completed', amount: 999, currency: 'USD' }), facts())).toBe('Renewal of $9.99 for the subscription of payment #12 (completed).');
  });

  it('keeps the service’s message for a line without words of its own, or without the facts a sentence needs', () => {
    expect(logSentence(line('webhook_out_of_order', { event_id: 'evt_1' }, 'An older event arrived late.'), facts())).toBe('An older event arrived late.');
    expect(logSentence(line('refund_requested', null, 'Refund 7 requested.'), facts())).toBe('Refund 7 requested.');
    expect(logSentence(line('status_changed', null, 'Status moved.'), facts())).toBe('Status moved.');
  });
});
