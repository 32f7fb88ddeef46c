import { CONSOLE_LOCALES, PAYER_LOCALES, primaryLanguage } from './locales.js';
import { negotiateLocale, parseAcceptLanguage } from './negotiate.js';

describe('parseAcceptLanguage', () => {
  it('orders ranges by weight and keeps header order for equal weights', () => {
    expect(parseAcceptLanguage('fr;q=0.5, de-AT, ja;q=0.9, en')).toEqual(['de-AT', 'en', 'ja', 'fr']);
  });

  it('drops q=0, wildcards, malformed ranges and weights outside 0..1', () => {
    expect(parseAcceptLanguage('*, de;q=0, <script>, fr;q=2, it;q=abc, nl;q=0.1')).toEqual(['nl']);
  });

  it('reads an absent, empty or oversized header as no preference', () => {
    expect(parseAcceptLanguage(undefined)).toEqual([]);
    expect(parseAcceptLanguage('')).toEqual([]);
    expect(parseAcceptLanguage('de,'.repeat(600))).toEqual([]);
  });
});

describe('negotiateLocale', () => {
  const payer = (header: string) => negotiateLocale(parseAcceptLanguage(header), PAYER_LOCALES, 'en');

  it('matches a regional variant to its language and a language to its only region', () => {
    expect(payer('de-AT,de;q=0.9')).toBe('de');
    expect(payer('pt')).toBe('pt-BR');
    expect(payer('pt-PT')).toBe('pt-BR');
    expect(payer('ja-JP')).toBe('ja');
  });

  it('takes the first wanted language that is available', () => {
    expect(payer('zh-CN, ja;q=0.8, de;q=0.5')).toBe('ja');
  });

  it('falls back when nothing fits or nothing is asked', () => {
    expect(payer('zh-CN')).toBe('en');
    expect(payer('')).toBe('en');
    expect(negotiateLocale(['fr'], CONSOLE_LOCALES, 'de')).toBe('de');
  });

  it('ignores ranges that are not valid locales instead of throwing', () => {
    expect(negotiateLocale(['x-private', 'de'], PAYER_LOCALES, 'en')).toBe('de');
  });
});

describe('primaryLanguage', () => {
  it('gives the primary subtag in lower case', () => {
    expect(primaryLanguage('pt-BR')).toBe('pt');
    expect(primaryLanguage('ja')).toBe('ja');
  });
});
