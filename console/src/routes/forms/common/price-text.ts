import type { components } from '../../../../../clients/typescript/index';
import { money } from '../../../format';

type Price = components['schemas']['FormPriceDto'];

const UNITS: Record<string, [string, string]> = { d: ['day', 'days'], w: ['week', 'weeks'], m: ['month', 'months'], y: ['year', 'years'] };

/** A frequency id of the interface in words: `one-time` → "once", `m_1` → "every month", `y_3` → "every 3 years". */
export function frequencyText(frequency: string): string {
  const match = /^([dwmy])_(\d+)$/.exec(frequency);
  if (!match) return frequency === 'one-time' ? 'once' : frequency;
  const [single, plural] = UNITS[match[1]];
  const count = Number(match[2]);
  return count === 1 ? `every ${single}` : `every ${count} ${plural}`;
}

/** One price as the forms list shows it: "$10.00", "$9.00 every month", "$1.00 to $50.00, payer's choice". */
export function priceText(price: Price): string {
  const amount = price.custom_amount
    ? `${money(price.custom_amount.min, price.currency)} to ${money(price.custom_amount.max, price.currency)}, payer's choice`
    : money(price.amount, price.currency);
  return price.frequency === 'one-time' ? amount : `${amount} ${frequencyText(price.frequency)}`;
}
