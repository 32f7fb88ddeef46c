/**
 * The admin payments search (issue 36): the words a payment can be found by, normalised once when
 * they are written (`{prefix}checkout_payment_search_terms`, one row per payment and term) and
 * matched by prefix on that table's index (`term LIKE 'x%'`), the same on MariaDB and SQLite.
 *
 * Normalised: NFKD, combining marks removed, lower case (`Müller` → `muller`, `ZOË` → `zoe`).
 * A payment's terms: its provider payment reference (`pi_…`, an order id), its capture id, its
 * whole email address, each word of its first and last names (words split at anything that is not
 * a letter or a digit) and, when a name has several words, the whole name as well (`jean-pierre`).
 */

/** Longest stored term: the column's length (an email is at most 254, a reference 255). */
export const SEARCH_TERM_MAX_LENGTH = 255;

/** Terms of one payment at most (names are 100 characters: at most ~50 words each). */
const MAX_TERMS = 128;

/** Lower case without accents: NFKD, then the combining marks (Unicode category M) removed. */
export function normaliseSearchText(text: string): string {
  return text.normalize('NFKD').replace(/\p{M}+/gu, '').toLowerCase();
}

/** The searchable fields of a payment, as its record holds them. */
export interface SearchableFields {
  emailAddress: string | null;
  firstName: string | null;
  lastName: string | null;
  providerPaymentRef: string | null;
  providerCaptureRef: string | null;
}

/** The record's properties that make its terms: an update that sets one of them writes the terms again. */
export const SEARCHABLE_PROPERTIES: ReadonlyArray<keyof SearchableFields> = ['emailAddress', 'firstName', 'lastName', 'providerPaymentRef', 'providerCaptureRef'];

/** The distinct terms of a payment, each at most SEARCH_TERM_MAX_LENGTH characters; none empty. */
export function paymentSearchTerms(fields: SearchableFields): string[] {
  const terms = new Set<string>();
  const add = (value: string) => {
    const term = value.trim().slice(0, SEARCH_TERM_MAX_LENGTH).trimEnd();
    if (term !== '') terms.add(term);
  };
  for (const whole of [fields.providerPaymentRef, fields.providerCaptureRef, fields.emailAddress]) if (whole) add(normaliseSearchText(whole));
  for (const name of [fields.firstName, fields.lastName]) {
    if (!name) continue;
    const normalised = normaliseSearchText(name);
    const words = nameWords(normalised);
    for (const word of words) add(word);
    if (words.length > 1) add(normalised.replace(/\s+/g, ' '));
  }
  return [...terms].slice(0, MAX_TERMS);
}

/**
 * What a search text looks for: its whitespace-separated words, normalised, each of which must
 * start one of a payment's terms. Empty when the text has no word. The payment id is matched apart
 * (a text of digits alone).
 */
export function searchWords(text: string): string[] {
  return normaliseSearchText(text)
    .split(/\s+/)
    .filter((word) => word !== '')
    .map((word) => word.slice(0, SEARCH_TERM_MAX_LENGTH))
    .slice(0, 8);
}

function nameWords(normalised: string): string[] {
  return normalised.split(/[^\p{L}\p{N}]+/u).filter((word) => word !== '');
}
