import { parse, TYPE } from '@formatjs/icu-messageformat-parser';
import { catalogProblems } from '../i18n/index.js';
import { PAYER_LOCALES } from '../i18n/index.js';
import { choosePayerLocale, payerCatalogs, payerTranslator } from './payer-translator.js';

describe('the payer catalogs', () => {
  it('are nine, and every key and placeholder of the English one is in every language', () => {
    const catalogs = payerCatalogs();
    expect(Object.keys(catalogs).sort()).toEqual([...PAYER_LOCALES].sort());
    expect(catalogProblems(catalogs, 'en')).toEqual([]);
  });

  it('give the page script (js.*) plain {name} placeholders only, which it fills without a formatter', () => {
    const complex: string[] = [];
    for (const [locale, catalog] of Object.entries(payerCatalogs())) {
      for (const [key, text] of Object.entries(catalog)) {
        if (key.startsWith('js.') && parse(text).some((element) => element.type !== TYPE.literal && element.type !== TYPE.argument)) complex.push(`${locale}:${key}`);
      }
    }
    expect(complex).toEqual([]);
  });

  it('differ from English in every other language (no key left untranslated by copying) except for words the same in both', () => {
    const { en, ...others } = payerCatalogs();
    const same = ['price.recurring', 'page.testBadge', 'mail.row.status', 'mail.row.plan', 'mail.row.date', 'mail.row.subscription', 'freq.w_1', 'manage.col.status', 'manage.col.date', 'manage.col.actions', 'manage.row.mode'];
    for (const [locale, catalog] of Object.entries(others)) {
      const copied = Object.keys(en).filter((key) => catalog[key] === en[key] && !same.includes(key));
      expect({ locale, copied }).toEqual({ locale, copied: [] });
    }
  });
});

describe('payerTranslator', () => {
  it('formats messages, select branches and money in its language', () => {
    const de = payerTranslator('de');
    expect(de.t('page.pay', { amount: de.money(1050, 'EUR') })).toBe('10,50\u00a0€ bezahlen');
    expect(de.t('mail.refund.line', { amount: '5,00 €', form: 'Kurs', full: 'yes' })).toBe('5,00 € Ihrer Zahlung für „Kurs“ wurden erstattet (die Zahlung ist vollständig erstattet).');
    expect(payerTranslator('en').t('mail.refund.line', { amount: '$5.00', form: 'Course', full: 'no' })).toBe('$5.00 of your payment to "Course" has been refunded.');
    expect(payerTranslator('ja').money(1000, 'JPY')).toBe('￥1,000');
    expect(payerTranslator('en').money(123450, 'USD')).toBe('$1,234.50');
    expect(payerTranslator('pt-BR').lang).toBe('pt');
  });

  it('writes dates in its language, in UTC', () => {
    expect(payerTranslator('de').date('2026-11-29T23:30:00Z')).toBe('29. November 2026');
    expect(payerTranslator('ja').date('2026-11-29T23:30:00Z')).toBe('2026年11月29日');
  });

  it('keeps one translator per language, and throws on a key no catalog has', () => {
    expect(payerTranslator('fr')).toBe(payerTranslator('fr'));
    expect(() => payerTranslator('fr').t('no.such.key')).toThrow('No payer message "no.such.key"');
  });

  it('hands the page script its texts without the js. prefix', () => {
    const messages = payerTranslator('ja').browserMessages();
    expect(messages['code.checkout_rate_limited']).toContain('1 分');
    expect(Object.keys(messages).every((key) => !key.startsWith('js.') && !key.startsWith('page.'))).toBe(true);
  });
});

describe('choosePayerLocale', () => {
  it('takes the form’s fixed language over the browser’s and the site’s', () => {
    expect(choosePayerLocale({ formLocale: 'fr', acceptLanguage: 'de-DE,de;q=0.9', siteDefault: 'es' })).toBe('fr');
  });

  it('with `auto`, takes the best Accept-Language match, then the site’s default', () => {
    expect(choosePayerLocale({ formLocale: 'auto', acceptLanguage: 'de-AT,en;q=0.5', siteDefault: 'es' })).toBe('de');
    expect(choosePayerLocale({ formLocale: 'auto', acceptLanguage: 'pt', siteDefault: 'es' })).toBe('pt-BR');
    expect(choosePayerLocale({ formLocale: 'auto', acceptLanguage: 'zh-CN', siteDefault: 'es' })).toBe('es');
    expect(choosePayerLocale({ acceptLanguage: undefined, siteDefault: null })).toBe('en');
  });

  it('ignores a setting that is no payer language', () => {
    expect(choosePayerLocale({ formLocale: 'xx', acceptLanguage: 'ja', siteDefault: 'zz' })).toBe('ja');
  });
});
