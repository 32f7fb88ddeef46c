import type { ConsoleLocale } from '../../../src/common/i18n/index';
import de from './de.json';
import en from './en.json';

/**
 * The console's message catalogs: flat ids named by screen (`payments.list.empty`), ICU
 * MessageFormat texts read by react-intl (FormatJS). English is the source every other catalog is
 * translated from; a unit spec (catalogs.spec.ts) checks that every id is in every language with
 * the same placeholders and tags.
 */
export const CATALOGS: Record<ConsoleLocale, Record<string, string>> = { en, de };

/** The name of each language in itself, for the language switch (not translated: a reader finds their own). */
export const LANGUAGE_NAMES: Record<ConsoleLocale, string> = { en: 'English', de: 'Deutsch' };
