import { catalogProblems } from './catalog-check.js';

describe('catalogProblems', () => {
  const en = {
    pay: 'Pay {amount}',
    left: '{count, plural, one {# payment left} other {# payments left}}',
    terms: 'I accept the <link>terms</link>',
  };

  it('accepts translations with the same keys and placeholders, whatever their plural categories', () => {
    const ja = { pay: '{amount} を支払う', left: '{count, plural, other {残り # 件}}', terms: '<link>規約</link>に同意します' };
    const pl = {
      pay: 'Zapłać {amount}',
      left: '{count, plural, one {# płatność} few {# płatności} many {# płatności} other {# płatności}}',
      terms: 'Akceptuję <link>regulamin</link>',
    };
    expect(catalogProblems({ en, ja, pl }, 'en')).toEqual([]);
  });

  it('reports missing and extra keys', () => {
    expect(catalogProblems({ en, de: { pay: 'Zahlen {amount}', left: en.left, extra: 'x' } }, 'en')).toEqual([
      'de: "terms" is missing',
      'de: "extra" is not in the en catalog',
    ]);
  });

  it('reports a renamed, dropped or re-typed placeholder and a lost tag', () => {
    const de = { pay: 'Zahlen {betrag}', left: '{count} übrig', terms: 'Ich akzeptiere die AGB' };
    expect(catalogProblems({ en, de }, 'en')).toEqual([
      'de: "pay" has placeholders betrag:text, the en text amount:text',
      'de: "left" has placeholders count:text, the en text count:plural',
      'de: "terms" has placeholders (none), the en text <link>:tag',
    ]);
  });

  it('reports a message that does not parse, in the source too', () => {
    const problems = catalogProblems({ en: { ...en, broken: 'Pay {amount' }, de: { ...en, broken: 'x', pay: '{n, plural,}' } }, 'en');
    expect(problems).toHaveLength(2);
    expect(problems[0]).toMatch(/^en: "broken" does not parse/);
    expect(problems[1]).toMatch(/^de: "pay" does not parse/);
  });

  it('says so when the source catalog is absent', () => {
    expect(catalogProblems({ de: {} }, 'en')).toEqual(['no source catalog "en"']);
  });
});
