import { IntlMessageFormat } from 'intl-messageformat';
import en from './en.json';
import type { Translate } from './use-t';

/**
 * The English catalog as a `Translate`, outside React: for the unit specs of pure screen logic
 * that takes one (their expectations are the console's English texts, read from en.json).
 */
export const englishT: Translate = (id, values) => {
  const text = (en as Record<string, string>)[id];
  if (text === undefined) throw new Error(`No message ${id} in en.json`);
  return String(new IntlMessageFormat(text, 'en').format(values as Record<string, string | number>));
};
