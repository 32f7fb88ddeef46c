import { match } from '@formatjs/intl-localematcher';

/**
 * One place that picks a language, for the server-rendered pages, the payer's emails and the
 * console. The matching itself is ECMA-402's "best fit" lookup from FormatJS
 * (`de-AT` → `de`, `pt` → `pt-BR`, `zh` → the fallback), not a hand-written prefix compare.
 */

/** At most this many ranges of an Accept-Language header are considered (the header is untrusted). */
const MAX_RANGES = 20;
const MAX_HEADER_LENGTH = 1024;
const LANGUAGE_RANGE = /^[A-Za-z]{1,8}(?:-[A-Za-z0-9]{1,8})*$/;

/**
 * The language ranges of an `Accept-Language` header, most wanted first (RFC 9110 §12.5.4):
 * q=0 ranges and `*` are dropped, malformed ranges are skipped, equal weights keep header order.
 */
export function parseAcceptLanguage(header: string | readonly string[] | undefined): string[] {
  const value = Array.isArray(header) ? header.join(',') : (header as string | undefined);
  if (!value || value.length > MAX_HEADER_LENGTH) return [];
  const ranges: { tag: string; q: number; position: number }[] = [];
  for (const [position, part] of value.split(',').slice(0, MAX_RANGES).entries()) {
    const [rawTag, ...params] = part.trim().split(';');
    const tag = rawTag.trim();
    if (!LANGUAGE_RANGE.test(tag)) continue;
    let q = 1;
    for (const param of params) {
      const [key, weight] = param.trim().split('=');
      if (key?.trim().toLowerCase() === 'q') q = Number(weight);
    }
    if (!Number.isFinite(q) || q <= 0 || q > 1) continue;
    ranges.push({ tag, q, position });
  }
  return ranges.sort((a, b) => b.q - a.q || a.position - b.position).map((range) => range.tag);
}

/**
 * The best of `available` for the `requested` ranges (most wanted first), or `fallback` when none
 * fits. `fallback` must itself be one of `available`.
 */
export function negotiateLocale<L extends string>(
  requested: readonly string[],
  available: readonly L[],
  fallback: L,
): L {
  const wanted = requested.filter((tag) => {
    try {
      return Intl.getCanonicalLocales(tag).length === 1;
    } catch {
      return false; // a syntactically valid range that is not a valid locale (e.g. `x-private`)
    }
  });
  if (wanted.length === 0) return fallback;
  return match(wanted, available, fallback, { algorithm: 'best fit' }) as L;
}
