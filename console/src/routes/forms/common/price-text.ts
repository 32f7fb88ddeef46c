import type { components } from '../../../../../clients/typescript/index';
import { money } from '../../../format';
import type { Translate } from '../../../i18n/use-t';

type Price = components['schemas']['FormPriceDto'];

/** A frequency id of the interface in words: `one-time` → "once", `m_1` → "every month", `y_3` → "every 3 years" (ICU plurals of `forms.price.every`). */
export function frequencyText(frequency: string, t: Translate): string {
  const match = /^([dwmy])_(\d+)$/.exec(frequency);
  if (!match) return frequency === 'one-time' ? t('forms.price.once') : frequency;
  return t('forms.price.every', { unit: match[1], count: Number(match[2]) });
}

/** One price as the forms list shows it: "$10.00", "$9.00 every month", "$1.00 to $50.00, payer's choice". */
export function priceText(price: Price, t: Translate): string {
  const amount = price.custom_amount
    ? t('forms.price.payersChoice', { min: money(price.custom_amount.min, price.currency), max: money(price.custom_amount.max, price.currency) })
    : money(price.amount, price.currency);
  return price.frequency === 'one-time' ? amount : t('forms.price.recurring', { amount, every: frequencyText(price.frequency, t) });
}
