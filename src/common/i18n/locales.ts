/**
 * The languages the product speaks. The payer's side (hosted page, embedded form, manage page,
 * receipts, payer emails) has nine; the console has two. Tags are BCP 47 as catalogs are named
 * (`pt-BR`, not `pt_BR`); `en` is the source language every other catalog is translated from.
 */
export const PAYER_LOCALES = ['en', 'de', 'fr', 'es', 'it', 'nl', 'pt-BR', 'pl', 'ja'] as const;
export type PayerLocale = (typeof PAYER_LOCALES)[number];

export const CONSOLE_LOCALES = ['en', 'de'] as const;
export type ConsoleLocale = (typeof CONSOLE_LOCALES)[number];

export const SOURCE_LOCALE = 'en' as const;

export function isPayerLocale(value: unknown): value is PayerLocale {
  return typeof value === 'string' && (PAYER_LOCALES as readonly string[]).includes(value);
}

export function isConsoleLocale(value: unknown): value is ConsoleLocale {
  return typeof value === 'string' && (CONSOLE_LOCALES as readonly string[]).includes(value);
}

/** The primary subtag for `<html lang>` and the like: `pt-BR` → `pt`, `ja` → `ja`. */
export function primaryLanguage(locale: string): string {
  return locale.split('-')[0].toLowerCase();
}
