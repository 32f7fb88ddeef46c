import { IntlMessageFormat } from 'intl-messageformat';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { formatMoney } from '../money/index.js';
import { type Catalog, isPayerLocale, negotiateLocale, PAYER_LOCALES, type PayerLocale, parseAcceptLanguage, primaryLanguage, SOURCE_LOCALE } from '../i18n/index.js';

/**
 * The payer's catalogs: one ICU MessageFormat JSON file per language in `payer/` (copied into
 * dist/ by nest-cli.json's assets), read once. `en` is the source; payer/*.json is the only
 * place a payer-facing text of the service is written.
 */
let catalogs: Readonly<Record<PayerLocale, Catalog>> | null = null;

export function payerCatalogs(): Readonly<Record<PayerLocale, Catalog>> {
  catalogs ??= Object.fromEntries(
    PAYER_LOCALES.map((locale) => [locale, JSON.parse(readFileSync(join(__dirname, 'payer', `${locale}.json`), 'utf8')) as Catalog]),
  ) as Record<PayerLocale, Catalog>;
  return catalogs;
}

/** Keys whose texts the page's script reads (`js.*`): plain `{name}` placeholders only, filled in the browser. */
export const BROWSER_KEY_PREFIX = 'js.';

export type MessageValues = Readonly<Record<string, string | number>>;

/**
 * One language of the payer's side: its messages (FormatJS's `intl-messageformat`, one compiled
 * formatter per message, made on first use and kept), and `Intl` for money and dates.
 */
export class PayerTranslator {
  /** `<html lang>`: the primary subtag (`pt-BR` → `pt`) */
  readonly lang: string;
  private readonly formatters = new Map<string, IntlMessageFormat>();
  private readonly intlLocale: string;

  constructor(
    readonly locale: PayerLocale,
    private readonly catalog: Catalog,
    private readonly source: Catalog,
  ) {
    this.lang = primaryLanguage(locale);
    // `en` keeps the service's long-standing en-US formatting ($1,234.50; the same as before languages).
    this.intlLocale = locale === 'en' ? 'en-US' : locale;
  }

  /** The message `key` with its values; a key absent here falls back to the source text, an unknown key throws (a programming error). */
  t(key: string, values?: MessageValues): string {
    let formatter = this.formatters.get(key);
    if (!formatter) {
      const text = this.catalog[key] ?? this.source[key];
      if (text === undefined) throw new Error(`No payer message "${key}"`);
      formatter = new IntlMessageFormat(text, this.intlLocale);
      this.formatters.set(key, formatter);
    }
    return String(formatter.format(values as Record<string, string | number> | undefined));
  }

  /** Whether the catalogs have a message `key`. */
  has(key: string): boolean {
    return key in this.catalog || key in this.source;
  }

  /**
   * A payment method's name for the payer (`method.<id>`: "Karte"); brand names (Apple Pay,
   * PayPal) have no key and stay as the gateway catalog names them.
   */
  methodLabel(method: string, fallback: string): string {
    return this.has(`method.${method}`) ? this.t(`method.${method}`) : fallback;
  }

  /** Minor units as this language writes the currency (the money module decides the digits). */
  money(minor: number, currency: string): string {
    return formatMoney(minor, currency, this.intlLocale);
  }

  /** A date (ISO 8601) as this language writes it, in UTC: "29. November 2026", "2026年11月29日". */
  date(iso: string): string {
    return new Intl.DateTimeFormat(this.intlLocale, { dateStyle: 'long', timeZone: 'UTC' }).format(new Date(iso));
  }

  /** A moment (ISO 8601) with its time, in UTC, saying so. */
  dateTime(iso: string): string {
    return `${new Intl.DateTimeFormat(this.intlLocale, { dateStyle: 'long', timeStyle: 'short', timeZone: 'UTC' }).format(new Date(iso))} UTC`;
  }

  /** The texts the page's script needs (`js.*`, without the prefix), raw: the script fills `{name}` itself. */
  browserMessages(): Record<string, string> {
    const out: Record<string, string> = {};
    for (const [key, text] of Object.entries({ ...this.source, ...this.catalog })) {
      if (key.startsWith(BROWSER_KEY_PREFIX)) out[key.slice(BROWSER_KEY_PREFIX.length)] = text;
    }
    return out;
  }
}

const translators = new Map<PayerLocale, PayerTranslator>();

/** The translator of a payer language (one per language for the process's life). */
export function payerTranslator(locale: PayerLocale): PayerTranslator {
  let translator = translators.get(locale);
  if (!translator) {
    const all = payerCatalogs();
    translator = new PayerTranslator(locale, all[locale], all[SOURCE_LOCALE as PayerLocale]);
    translators.set(locale, translator);
  }
  return translator;
}

/** A form's `locale` setting: `auto` or one payer language. */
export type FormLocaleSetting = 'auto' | PayerLocale;

/**
 * The payer's language, in this order: the form's fixed language; else the best match of the
 * browser's `Accept-Language` among the payer languages; else the site's default language.
 */
export function choosePayerLocale(choice: { formLocale?: string | null; acceptLanguage?: string | readonly string[]; siteDefault?: string | null }): PayerLocale {
  if (choice.formLocale && choice.formLocale !== 'auto' && isPayerLocale(choice.formLocale)) return choice.formLocale;
  const fallback = isPayerLocale(choice.siteDefault) ? choice.siteDefault : (SOURCE_LOCALE as PayerLocale);
  return negotiateLocale(parseAcceptLanguage(choice.acceptLanguage), PAYER_LOCALES, fallback);
}
