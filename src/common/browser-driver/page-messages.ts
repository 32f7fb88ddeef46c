/**
 * The texts of the payer's page scripts (the hosted page; the manage page's card page) in the
 * payer's language: the server puts the catalog's `js.*` messages (common/payer-language/payer/)
 * and the language on `#page-messages` (`data-messages`: JSON, `data-locale`: `de`), as the form's
 * settings are passed; no text of a page script is written in it. Messages carry
 * plain `{name}` placeholders only (the catalog spec checks it).
 */
let messages: Record<string, string> = {};
let locale = 'en';

/** Reads `#page-messages` once, when the page starts. */
export function loadMessages(block: HTMLElement | null): void {
  try {
    messages = JSON.parse(block?.dataset.messages || '{}') as Record<string, string>;
  } catch {
    messages = {};
  }
  locale = block?.dataset.locale || 'en';
}

/** The payer's language (BCP 47: `de`, `pt-BR`): amounts are written in it, the providers' libraries get it. */
export function pageLocale(): string {
  return locale;
}

/** Whether the catalog has a message `key` (an API code the page has a text for). */
export function hasText(key: string): boolean {
  return Object.prototype.hasOwnProperty.call(messages, key);
}

/** The message `key` with its `{name}` placeholders filled; the key itself when the page has no such text. */
export function text(key: string, values: Readonly<Record<string, string | number>> = {}): string {
  const template = hasText(key) ? messages[key] : key;
  return template.replace(/\{(\w+)\}/g, (whole, name: string) => (Object.prototype.hasOwnProperty.call(values, name) ? String(values[name]) : whole));
}
