import { IntlMessageFormat } from 'intl-messageformat';
import de from './de.json';
import en from './en.json';
import type { Translate } from './translate';

/**
 * A catalog as a `Translate`, outside React: for the unit specs of pure screen logic that takes
 * one (their expectations are the console's texts, read from en.json or de.json).
 */
export function catalogT(messages: Record<string, string>, locale: string): Translate {
  return (id, values) => {
    const text = messages[id];
    if (text === undefined) throw new Error(`No message ${id} in the ${locale} catalog`);
    return String(new IntlMessageFormat(text, locale).format(values as Record<string, string | number>));
  };
}

/** The English catalog, which the screens' specs read their expectations from. */
export const englishT: Translate = catalogT(en, 'en');

/** The German catalog, for specs that check a model speaks German too. */
export const germanT: Translate = catalogT(de, 'de');
