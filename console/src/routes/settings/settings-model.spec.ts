import { englishT } from '../../i18n/english';
import { answerOf, defaultGatewayChoices, draftOf, type Settings, settingsChanges, tickedInCatalogOrder } from './settings-model';

const stored: Settings = { currency: 'USD', payment_gateway: 'gateway_a', api_key: 'sk_test_…4242', debug_mode: false, language: 'en' };

describe('general settings form', () => {
  it('starts from the stored values, never with the key (only its mask is known)', () => {
    expect(draftOf(stored)).toEqual({ currency: 'USD', payment_gateway: 'gateway_a', api_key: '', debug_mode: false, language: 'en' });
  });

  it('sends only what changed; nothing at all when nothing did', () => {
    expect(settingsChanges(stored, draftOf(stored))).toBeNull();
    expect(settingsChanges(stored, { ...draftOf(stored), currency: 'EUR' })).toEqual({ currency: 'EUR' });
    expect(settingsChanges(stored, { ...draftOf(stored), language: 'de' })).toEqual({ language: 'de' });
    expect(settingsChanges(stored, { ...draftOf(stored), debug_mode: true, payment_gateway: 'gateway_b' })).toEqual({ payment_gateway: 'gateway_b', debug_mode: true });
  });

  it('sends an API key only when one was typed (blank keeps the stored one), as typed', () => {
    expect(settingsChanges(stored, { ...draftOf(stored), api_key: '   ' })).toBeNull();
    expect(settingsChanges(stored, { ...draftOf(stored), api_key: 'sk_new_key_12345' })).toEqual({ api_key: 'sk_new_key_12345' });
  });
});

describe('feature requests answer', () => {
  const area = {
    slug: 'form-builder' as const,
    features: [
      { tag: 'conditional-logic', name: 'Conditional fields', image: null },
      { tag: 'multi-step-forms', name: 'Multi-step forms', image: null },
      { tag: 'coupon-codes', name: 'Coupons', image: null },
    ],
  };

  it('lists the ticked features in the catalog’s order, whatever order they were ticked in', () => {
    expect(tickedInCatalogOrder(area, new Set(['coupon-codes', 'conditional-logic']))).toEqual(['conditional-logic', 'coupon-codes']);
    // A tag the catalog no longer has is not sent.
    expect(tickedInCatalogOrder(area, new Set(['gone']))).toEqual([]);
  });

  it('builds the body of POST /tagging/apply: trimmed email, names only when given, an empty list to withdraw', () => {
    expect(answerOf(area, new Set(['multi-step-forms']), { email_address: ' owner@example.com ', first_name: ' Ada ', last_name: '' })).toEqual({
      area_slug: 'form-builder',
      tags: ['multi-step-forms'],
      email_address: 'owner@example.com',
      first_name: 'Ada',
    });
    expect(answerOf(area, new Set(), { email_address: 'owner@example.com', first_name: '', last_name: '' }).tags).toEqual([]);
  });
});

describe('default gateway choices', () => {
  const list = [
    { gateway: 'gateway_a' as const, enabled: true },
    { gateway: 'gateway_b' as const, enabled: false },
    { gateway: 'gateway_c' as const, enabled: false },
  ];
  const labels = { gateway_a: 'Stripe', gateway_b: 'PayPal' };

  it('offers the catalog gateways by their names, not bank debit’s own id', () => {
    expect(defaultGatewayChoices(list, labels, 'gateway_a', englishT)).toEqual([
      { value: 'gateway_a', label: 'Stripe', enabled: true },
      { value: 'gateway_b', label: 'PayPal', enabled: false },
    ]);
  });

  it('keeps a choice an app made that the catalog does not hold, in words', () => {
    expect(defaultGatewayChoices(list, labels, 'gateway_c', englishT).at(-1)).toEqual({ value: 'gateway_c', label: 'Chosen by an app through the API', enabled: true });
  });

  it('still shows the current choice before the list is read', () => {
    expect(defaultGatewayChoices([], labels, 'gateway_b', englishT)).toEqual([{ value: 'gateway_b', label: 'PayPal', enabled: true }]);
  });
});
