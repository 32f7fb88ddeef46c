import type { ConsoleLocale } from '../../src/common/i18n/index';
import { formatMoney, toDecimalString, toMinorUnits } from '../../src/common/money/index';

/**
 * How each console language writes numbers and times (`Intl`): English keeps the console's
 * original formats (money as in the US, "28 Nov 2026, 12:48" dates), German writes both as in
 * Germany ("1.234,50 €", "28. Nov. 2026, 12:48").
 */
const INTL_LOCALES: Record<ConsoleLocale, { money: string; dates: string }> = {
  en: { money: 'en-US', dates: 'en-GB' },
  de: { money: 'de-DE', dates: 'de-DE' },
};

let displayLocale: ConsoleLocale = 'en';

/**
 * The language the console shows money and times in: set by the LocaleProvider (i18n/locale.tsx),
 * which draws the screens again when it changes, so every screen formats in the language it speaks.
 */
export function setDisplayLocale(locale: ConsoleLocale): void {
  displayLocale = locale;
}

export function getDisplayLocale(): ConsoleLocale {
  return displayLocale;
}

/**
 * Money and times as the console shows them. Money uses the service's own currency rules
 * (`src/common/money`, shared, not copied), so an amount reads exactly as the API means it, in the
 * console's language (`locale`, the current one unless given).
 */
export function money(minor: number, currency: string, locale: ConsoleLocale = displayLocale): string {
  try {
    return formatMoney(minor, currency, INTL_LOCALES[locale].money);
  } catch {
    return `${minor} ${currency} (minor units)`;
  }
}

/** Minor units → the decimal text an amount input shows (1999 USD → "19.99"). */
export function toAmountInput(minor: number, currency: string): string {
  try {
    return toDecimalString(minor, currency);
  } catch {
    return String(minor);
  }
}

/** The decimal text of an amount input → minor units, or the reason it is not an amount in that currency. */
export function fromAmountInput(text: string, currency: string): { minor: number } | { error: string } {
  try {
    return { minor: toMinorUnits(text.trim(), currency) };
  } catch (error) {
    return { error: error instanceof Error ? error.message : 'not an amount' };
  }
}

/** How a time is shown: `timeZone` is for tests (the viewer's own zone otherwise); `seconds` where they matter (a delivery log). */
export interface WhenOptions {
  timeZone?: string;
  seconds?: boolean;
  /** The console language to write it in (the current one unless given) */
  locale?: ConsoleLocale;
}

const formats = new Map<string, Intl.DateTimeFormat>();

/** One Intl formatter per (zone, seconds): building one costs more than formatting with it. */
function dateTimeFormat(timeZone: string | undefined, seconds: boolean, locale: ConsoleLocale = displayLocale): Intl.DateTimeFormat {
  const key = `${locale}|${timeZone ?? ''}|${seconds}`;
  let format = formats.get(key);
  if (!format) {
    format = new Intl.DateTimeFormat(INTL_LOCALES[locale].dates, {
      day: 'numeric',
      month: 'short',
      year: 'numeric',
      hour: '2-digit',
      minute: '2-digit',
      ...(seconds ? { second: '2-digit' } : {}),
      ...(timeZone ? { timeZone } : {}),
      // The zone's short name ("CET", "GMT+2"), except for UTC, which is said once below.
      ...(timeZone === 'UTC' ? {} : { timeZoneName: 'short' }),
    });
    formats.set(key, format);
  }
  return format;
}

function parse(iso: string | null | undefined): Date | null {
  if (!iso) return null;
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? null : date;
}

/**
 * An ISO 8601 time of the API in the viewer's own time zone, named ("28 Nov 2026, 12:48 CET");
 * "—" for none, the text itself when it is not a time. Screens show it through `<Time>`
 * (components/time.tsx), which adds the UTC time on hover.
 */
export function when(iso: string | null | undefined, options: WhenOptions = {}): string {
  if (!iso) return '—';
  const date = parse(iso);
  return date ? dateTimeFormat(options.timeZone, options.seconds ?? false, options.locale).format(date) : iso;
}

/** The same time in UTC with seconds ("28 Nov 2026, 11:48:03 UTC"): the hover title of `<Time>`, the API's own zone. */
export function utcWhen(iso: string | null | undefined, locale: ConsoleLocale = displayLocale): string {
  const date = parse(iso);
  return date ? `${dateTimeFormat('UTC', true, locale).format(date)} UTC` : (iso ?? '—');
}

const utcDayFormats = new Map<ConsoleLocale, Intl.DateTimeFormat>();

/** The UTC day of a time ("28 Nov 2026", "28. Nov. 2026"), for figures the API counts in UTC days (the dashboard's money). */
export function utcDay(iso: string | null | undefined, locale: ConsoleLocale = displayLocale): string {
  const date = parse(iso);
  if (!date) return iso ?? '—';
  let format = utcDayFormats.get(locale);
  if (!format) {
    format = new Intl.DateTimeFormat(INTL_LOCALES[locale].dates, { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' });
    utcDayFormats.set(locale, format);
  }
  return format.format(date);
}

const currencyNames = new Map<ConsoleLocale, Intl.DisplayNames>();

/** A currency's name in the console's language ("US Dollar", "US-Dollar"); the code itself when `Intl` has no name for it. */
export function currencyName(code: string, locale: ConsoleLocale = displayLocale): string {
  let names = currencyNames.get(locale);
  if (!names) {
    names = new Intl.DisplayNames(INTL_LOCALES[locale].money, { type: 'currency' });
    currencyNames.set(locale, names);
  }
  try {
    return names.of(code) ?? code;
  } catch {
    return code;
  }
}

/** An id of the API made readable (`requested_by_customer` → "Requested by customer"): for words the API has no name for. Gateways and methods take the catalog's names. */
export function label(id: string): string {
  return id.replace(/[_-]+/g, ' ').replace(/^\w/, (first) => first.toUpperCase());
}

/** The viewer's time zone as the browser names it ("Europe/Paris"), for a field that takes a local time. */
export function localTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || 'your time zone';
}
