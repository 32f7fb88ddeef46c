import { englishT } from '../../../i18n/english';
import { disputeWords, failureWords, isDisputeOpen, moneyBadges, parseRefundAmount, refundableInput, refundReasonWords } from './money-after-model';

describe('refund amount: major units typed → minor units of the currency', () => {
  it.each([
    ['12.50', 'EUR', 1250],
    ['12.5', 'USD', 1250],
    ['0.01', 'USD', 1],
    [' 7 ', 'USD', 700],
    ['500', 'JPY', 500],
    ['500.0', 'JPY', 500],
    ['12.50', 'HUF', 1250],
    ['100.5', 'TWD', 10050],
    ['1.230', 'KWD', 1230],
    ['5', 'ISK', 500],
  ])('%s %s → %i', (text, currency, minor) => {
    expect(parseRefundAmount(text, currency, 1_000_000, englishT)).toEqual({ minor });
  });

  it.each([
    ['1.5', 'JPY', /JPY amounts cannot have that many decimals/],
    ['12.345', 'USD', /USD amounts cannot have that many decimals/],
    ['1.001', 'HUF', /HUF amounts cannot have that many decimals/],
    ['1.005', 'TWD', /TWD amounts cannot have that many decimals/],
    ['1.234', 'KWD', /multiple of 0.010/],
    ['5.5', 'ISK', /cannot have that many decimals|multiple of/],
    ['1,50', 'EUR', /such as 12.50/],
    ['abc', 'USD', /such as 12.50/],
    ['-1', 'USD', /above zero/],
    ['0', 'USD', /above zero/],
    ['', 'USD', /Enter the amount/],
  ])('%s %s is refused, never rounded', (text, currency, message) => {
    const parsed = parseRefundAmount(text, currency, 1_000_000, englishT);
    expect(parsed).toEqual({ error: expect.stringMatching(message) });
  });

  it('refuses more than is refundable, saying how much is', () => {
    expect(parseRefundAmount('20.00', 'EUR', 1999, englishT)).toEqual({ error: 'At most €19.99 can be refunded.' });
    expect(parseRefundAmount('19.99', 'EUR', 1999, englishT)).toEqual({ minor: 1999 });
    expect(parseRefundAmount('501', 'JPY', 500, englishT)).toEqual({ error: 'At most ¥500 can be refunded.' });
  });
});

describe('refundable amount prefilled in the currency exponent', () => {
  it.each([
    [1999, 'EUR', '19.99'],
    [500, 'JPY', '500'],
    [1250, 'HUF', '12.50'],
    [10050, 'TWD', '100.50'],
    [1230, 'KWD', '1.230'],
  ])('%i %s → %s', (minor, currency, text) => {
    expect(refundableInput(minor, currency)).toBe(text);
    expect(parseRefundAmount(text, currency, minor, englishT)).toEqual({ minor });
  });
});

describe('badges', () => {
  it('none for a payment neither refunded nor disputed', () => {
    expect(moneyBadges({ amount: 1000, amount_refunded: 0, disputed: false })).toEqual([]);
  });
  it('partially refunded below what was received, refunded at it', () => {
    expect(moneyBadges({ amount: 1000, amount_refunded: 400, disputed: false }).map((b) => b.kind)).toEqual(['partially-refunded']);
    expect(moneyBadges({ amount: 1000, amount_refunded: 1000, disputed: false }).map((b) => b.kind)).toEqual(['refunded']);
    // What was received counts over the asked amount (e.g. a setup fee on top).
    expect(moneyBadges({ amount: 1000, amount_received: 1500, amount_refunded: 1000, disputed: false }).map((b) => b.kind)).toEqual(['partially-refunded']);
  });
  it('disputed beside a refund badge', () => {
    expect(moneyBadges({ amount: 1000, amount_refunded: 200, disputed: true }).map((b) => b.kind)).toEqual(['partially-refunded', 'disputed']);
  });
});

describe('merchant words', () => {
  it('dispute statuses', () => {
    expect(disputeWords('needs_response', englishT)).toBe('Chargeback: your response is needed');
    expect(disputeWords('lost', englishT)).toMatch(/lost/);
    expect(disputeWords('charge_refunded', englishT)).toBe('Dispute: charge refunded');
    expect(isDisputeOpen({ status: 'under_review', amount: 1, reason: null, evidence_due_by: null, provider_dispute_id: 'dp_1', provider_url: null })).toBe(true);
    expect(isDisputeOpen({ status: 'won', amount: 1, reason: null, evidence_due_by: null, provider_dispute_id: 'dp_1', provider_url: null })).toBe(false);
  });
  it('failure reason: the message, then the code and decline code', () => {
    expect(failureWords({ code: 'card_declined', decline_code: 'insufficient_funds', message: 'Your card has insufficient funds.' })).toBe(
      'Your card has insufficient funds. (card declined, insufficient funds)',
    );
    expect(failureWords({ code: 'INSTRUMENT_DECLINED', decline_code: null, message: null })).toBe('(INSTRUMENT DECLINED)');
  });
  it('refund reasons', () => {
    expect(refundReasonWords('requested_by_customer', englishT)).toBe('The customer asked for it');
    expect(refundReasonWords(null, englishT)).toBe('—');
  });
});
