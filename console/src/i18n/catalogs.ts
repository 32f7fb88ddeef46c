import type { ConsoleLocale } from '../../../src/common/i18n/index';
import en from './en.json';

/**
 * The console's message catalogs: flat ids named by screen (`payments.list.empty`), ICU
 * MessageFormat texts read by react-intl (FormatJS). English is the source every other catalog is
 * translated from; a unit spec (catalogs.spec.ts) checks that every id is in every language with
 * the same placeholders and tags. English is in the first load; another language is a chunk of
 * its own, loaded when someone reads the console in it (the first-load budget, docs/benchmarks.md).
 */
export type Messages = Record<string, string>;

const LOADERS: Record<ConsoleLocale, () => Promise<Messages>> = {
  en: () => Promise.resolve(en),
  de: () => import('./de.json').then((module) => module.default),
};

export const SOURCE_MESSAGES: Messages = en;

export function loadCatalog(locale: ConsoleLocale): Promise<Messages> {
  return LOADERS[locale]();
}

/** The name of each language in itself, for the language switch (not translated: a reader finds their own). */
export const LANGUAGE_NAMES: Record<ConsoleLocale, string> = { en: 'English', de: 'Deutsch' };
