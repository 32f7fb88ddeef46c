import type { components } from '../../clients/typescript/index';

/** A payer language of the API (the hosted page, embedded form, manage page and payer emails: src/common/i18n). */
export type PayerLanguage = NonNullable<components['schemas']['SettingsDto']['language']>;

/**
 * The payer languages, each named in its own language (what a speaker of it looks for), in the
 * API's order. Names, not console texts: they read the same whatever the console's language.
 */
export const PAYER_LANGUAGES: ReadonlyArray<{ value: PayerLanguage; label: string }> = [
  { value: 'en', label: 'English' },
  { value: 'de', label: 'Deutsch' },
  { value: 'fr', label: 'Français' },
  { value: 'es', label: 'Español' },
  { value: 'it', label: 'Italiano' },
  { value: 'nl', label: 'Nederlands' },
  { value: 'pt-BR', label: 'Português (Brasil)' },
  { value: 'pl', label: 'Polski' },
  { value: 'ja', label: '日本語' },
];
