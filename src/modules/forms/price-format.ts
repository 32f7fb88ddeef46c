import { formatMoney } from '../../common/money/index.js';
import type { FormPrice, Frequency } from './form-settings.js';

/** How often a price recurs, as a payer reads it after the amount ("$9.99 / month"). */
export const FREQUENCY_LABELS: Readonly<Record<Frequency, string>> = {
  'one-time': 'one time',
  d_1: 'day',
  w_1: 'week',
  m_1: 'month',
  m_3: '3 months',
  m_6: '6 months',
  y_1: 'year',
  y_3: '3 years',
};

/** A price as the payer reads it: "$10.00", "$9.99 / month + $5.00 setup fee", "Any amount from $1.00 to $10,000.00". */
export function describePrice(price: FormPrice, locale = 'en-US'): string {
  const money = (value: number) => formatMoney(value, price.currency, locale);
  const base = price.custom_amount
    ? `Any amount from ${money(price.custom_amount.min)} to ${money(price.custom_amount.max)}`
    : money(price.amount);
  const every = price.frequency === 'one-time' ? '' : ` / ${FREQUENCY_LABELS[price.frequency]}`;
  const setup = price.setup_amount ? ` + ${money(price.setup_amount)} setup fee` : '';
  return `${base}${every}${setup}`;
}
