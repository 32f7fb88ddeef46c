import { describe, expect, it } from '@jest/globals';
import { englishT } from '../../../i18n/english';
import { frequencyText, priceText } from './price-text';

describe('price text', () => {
  it('says a frequency in words', () => {
    expect(frequencyText('one-time', englishT)).toBe('once');
    expect(frequencyText('m_1', englishT)).toBe('every month');
    expect(frequencyText('m_3', englishT)).toBe('every 3 months');
    expect(frequencyText('y_3', englishT)).toBe('every 3 years');
    expect(frequencyText('w_1', englishT)).toBe('every week');
  });

  it('says a price with its currency and interval', () => {
    expect(priceText({ amount: 1000, currency: 'USD', frequency: 'one-time' }, englishT)).toBe('$10.00');
    expect(priceText({ amount: 900, currency: 'EUR', frequency: 'm_1', setup_amount: 100 }, englishT)).toBe('€9.00 every month');
    expect(priceText({ amount: 500, currency: 'JPY', frequency: 'one-time' }, englishT)).toBe('¥500');
    expect(priceText({ amount: 1000, currency: 'USD', frequency: 'one-time', custom_amount: { min: 100, max: 5000 } }, englishT)).toBe("$1.00 to $50.00, payer's choice");
  });
});
