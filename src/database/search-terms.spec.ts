import { normaliseSearchText, paymentSearchTerms, SEARCH_TERM_MAX_LENGTH, searchWords } from './search-terms.js';

describe('payment search terms (issue 36)', () => {
  const none = { emailAddress: null, firstName: null, lastName: null, providerPaymentRef: null, providerCaptureRef: null };

  it('normalises to lower case without accents (NFKD, combining marks removed)', () => {
    expect(normaliseSearchText('Müller')).toBe('muller');
    expect(normaliseSearchText('ZOË Ångström')).toBe('zoe angstrom');
    expect(normaliseSearchText('Ｆｕｌｌ')).toBe('full');
    expect(normaliseSearchText('ﬁnn')).toBe('finn');
    expect(normaliseSearchText('İstanbul')).toBe('istanbul');
  });

  it('makes the terms: references, capture id and the whole email as they are (normalised), each word of the names and a name of several words whole', () => {
    expect(
      paymentSearchTerms({ emailAddress: 'Ada.Lovelace@Example.com', firstName: 'Jean-Pierre', lastName: 'de la Tour', providerPaymentRef: 'pi_3QvP5n', providerCaptureRef: '8MC585209K' }).sort(),
    ).toEqual(['8mc585209k', 'ada.lovelace@example.com', 'de', 'de la tour', 'jean', 'jean-pierre', 'la', 'pi_3qvp5n', 'pierre', 'tour'].sort());
    expect(paymentSearchTerms({ ...none, firstName: 'Zoë', lastName: "O'Brien" }).sort()).toEqual(['brien', 'o', "o'brien", 'zoe'].sort());
  });

  it('makes no empty or duplicate term, and none longer than the column', () => {
    expect(paymentSearchTerms(none)).toEqual([]);
    expect(paymentSearchTerms({ ...none, firstName: '  ', lastName: '--' })).toEqual([]);
    expect(paymentSearchTerms({ ...none, firstName: 'Ada', lastName: 'ada' })).toEqual(['ada']);
    const long = paymentSearchTerms({ ...none, providerPaymentRef: 'x'.repeat(300) });
    expect(long).toEqual(['x'.repeat(SEARCH_TERM_MAX_LENGTH)]);
  });

  it('splits a search text into normalised words at whitespace only (an email or reference stays whole)', () => {
    expect(searchWords('  Grace   HOP ')).toEqual(['grace', 'hop']);
    expect(searchWords('müller@Example')).toEqual(['muller@example']);
    expect(searchWords('pi_3Qv')).toEqual(['pi_3qv']);
    expect(searchWords('   ')).toEqual([]);
    expect(searchWords('a b c d e f g h i j')).toHaveLength(8);
  });
});
