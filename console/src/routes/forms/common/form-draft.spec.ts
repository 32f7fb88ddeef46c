import { describe, expect, it } from '@jest/globals';
import { englishT } from '../../../i18n/english';
import { BuilderRules } from './builder-rules';
import {
  draftFingerprint,
  draftFromForm,
  draftReducer,
  type FormDraft,
  isPlaceholderAddress,
  missingCoreFields,
  type PaymentForm,
  toFormBody,
  translatedChoice,
  translatedFieldLabel,
  translatedPlanTitle,
  withTranslatedChoice,
  withTranslatedFieldLabel,
  withTranslatedPlanTitle,
  withTranslatedText,
} from './form-draft';

const GATEWAY = 'card_gateway';
const WALLET = 'wallet_gateway';

function savedForm(): Pick<PaymentForm, 'title' | 'settings'> {
  return {
    title: 'Simple payment',
    settings: {
      plans: [{ title: 'Payment', prices: [{ amount: 1000, currency: 'USD', frequency: 'one-time' }] }],
      payment_methods: { [GATEWAY]: ['ccard'], [WALLET]: ['standard_checkout'] } as PaymentForm['settings']['payment_methods'],
      fields: [
        { name: 'email_address', type: 'email', label: 'Email address', required: true },
        { name: 'first_name', type: 'text', label: 'First name', required: true },
        { name: 'topic', type: 'select', label: 'Topic', required: false, options: ['A', 'B'] },
      ],
      submit_actions: ['email', 'message'],
      email: { email_to: 'owner@example.test', admin_subject: 'New payment', payer_subject: 'Thanks', from_name: 'Shop' },
      display: { button_label: 'Pay now', primary_color: '#2563eb', layout: 'stacked', show_title: true },
      success_message: 'Thank you!',
    },
  };
}

/** The part of the server's field map these tests need (its shape as GET …/builder-data answers it). */
const rules = new BuilderRules({
  sections: [
    {
      id: 'payment',
      label: 'Payment',
      groups: [
        {
          id: 'plans',
          label: 'Plans and prices',
          fields: [
            {
              key: 'settings.plans',
              type: 'repeater',
              label: 'Plans',
              input_name: 'checkout_form[settings][plans]',
              required: true,
              default: null,
              min_items: 1,
              max_items: 2,
              fields: [
                { key: 'title', type: 'text', label: 'Plan title', input_name: 'x', required: true, default: 'New plan', max_length: 100 },
                {
                  key: 'prices',
                  type: 'repeater',
                  label: 'Prices',
                  input_name: 'x',
                  required: true,
                  default: null,
                  min_items: 1,
                  max_items: 10,
                  fields: [
                    { key: 'amount', type: 'amount', label: 'Amount', input_name: 'x', required: true, default: 1000, min: 1, max: 99_999_999 },
                    { key: 'setup_amount', type: 'amount', label: 'Setup fee', input_name: 'x', required: false, default: null, min: 0, max: 99_999_999 },
                    { key: 'custom_amount.min', type: 'amount', label: 'Min', input_name: 'x', required: false, default: null, min: 1, max: 99_999_999 },
                    { key: 'custom_amount.max', type: 'amount', label: 'Max', input_name: 'x', required: false, default: null, min: 1, max: 99_999_999 },
                  ],
                },
              ],
            },
          ],
        },
      ],
    },
  ],
});

const defaults = { planTitle: 'New plan', amount: 1000, currency: 'USD' as const };

function edit(draft: FormDraft, ...actions: Parameters<typeof draftReducer>[1][]): FormDraft {
  return actions.reduce(draftReducer, draft);
}

describe('form draft', () => {
  it('round-trips a saved form: the body equals the saved settings, amounts as decimal text', () => {
    const draft = draftFromForm(savedForm());
    expect(draft.plans[0].prices[0].amount).toBe('10.00');
    expect(draft.fields[2].options).toBe('A\nB');
    expect(toFormBody(draft, rules, englishT)).toEqual({ body: savedForm() });
  });

  it('converts decimal amounts exactly to minor units in the price currency', () => {
    const start = draftFromForm(savedForm());
    const [plan] = start.plans;
    const draft = edit(start, { type: 'price', plan: plan.id, price: plan.prices[0].id, patch: { amount: '12.50' } });
    expect(toFormBody(draft, rules, englishT).body?.settings.plans[0].prices[0].amount).toBe(1250);
    // 19.99 * 100 is 1998.9999999999998 in floating point: the money rules never round it down.
    const exact = edit(start, { type: 'price', plan: plan.id, price: plan.prices[0].id, patch: { amount: '19.99' } });
    expect(toFormBody(exact, rules, englishT).body?.settings.plans[0].prices[0].amount).toBe(1999);
    const yen = edit(start, { type: 'price', plan: plan.id, price: plan.prices[0].id, patch: { amount: '500', currency: 'JPY' } });
    expect(toFormBody(yen, rules, englishT).body?.settings.plans[0].prices[0]).toEqual({ amount: 500, currency: 'JPY', frequency: 'one-time' });
    const dinar = edit(start, { type: 'price', plan: plan.id, price: plan.prices[0].id, patch: { amount: '1.250', currency: 'KWD' } });
    expect(toFormBody(dinar, rules, englishT).body?.settings.plans[0].prices[0].amount).toBe(1250);
  });

  it('reports an amount that is not one under the path the API would use, and sends nothing', () => {
    const start = draftFromForm(savedForm());
    const [plan] = start.plans;
    const at = (patch: Record<string, string>) => toFormBody(edit(start, { type: 'price', plan: plan.id, price: plan.prices[0].id, patch }), rules, englishT);
    expect(at({ amount: '12.505' })).toEqual({ problems: { 'settings.plans.0.prices.0.amount': 'USD amounts cannot have more than 2 decimals.' } });
    expect(at({ amount: '12,50' }).problems?.['settings.plans.0.prices.0.amount']).toBe('Enter a USD amount such as 12.50 (a point before the cents).');
    expect(at({ amount: '' }).problems).toEqual({ 'settings.plans.0.prices.0.amount': 'Enter an amount.' });
    expect(at({ amount: '12.5', currency: 'JPY' }).problems?.['settings.plans.0.prices.0.amount']).toBe('JPY amounts cannot have decimals.');
    // The server's bounds (builder data), said as money rather than in minor units.
    expect(at({ amount: '0' }).problems).toEqual({ 'settings.plans.0.prices.0.amount': 'Enter at least $0.01.' });
    expect(at({ amount: '1000000' }).problems).toEqual({ 'settings.plans.0.prices.0.amount': 'Enter at most $999,999.99.' });
  });

  it('sends a setup fee only with a recurring price, and a payer-entered amount with its bounds', () => {
    const start = draftFromForm(savedForm());
    const [plan] = start.plans;
    const price = plan.prices[0].id;
    const oneTimeFee = edit(start, { type: 'price', plan: plan.id, price, patch: { setupFee: '5' } });
    expect(toFormBody(oneTimeFee, rules, englishT).body?.settings.plans[0].prices[0]).not.toHaveProperty('setup_amount');
    const monthly = edit(start, { type: 'price', plan: plan.id, price, patch: { frequency: 'm_1', setupFee: '5' } });
    expect(toFormBody(monthly, rules, englishT).body?.settings.plans[0].prices[0]).toEqual({ amount: 1000, currency: 'USD', frequency: 'm_1', setup_amount: 500 });
    const custom = edit(start, { type: 'price', plan: plan.id, price, patch: { customAmount: true, customMin: '1', customMax: '250.00' } });
    expect(toFormBody(custom, rules, englishT).body?.settings.plans[0].prices[0]).toEqual({ amount: 1000, currency: 'USD', frequency: 'one-time', custom_amount: { min: 100, max: 25000 } });
    const noMax = edit(custom, { type: 'price', plan: plan.id, price, patch: { customMax: '' } });
    expect(toFormBody(noMax, rules, englishT).problems).toEqual({ 'settings.plans.0.prices.0.custom_amount.max': 'Enter an amount.' });
  });

  it('adds and removes plans and prices, never the last one', () => {
    const start = draftFromForm(savedForm());
    const [plan] = start.plans;
    const twoPrices = edit(start, { type: 'price', plan: plan.id, price: plan.prices[0].id, patch: { amount: '9.00', frequency: 'm_1' } }, { type: 'add-price', plan: plan.id, defaults });
    expect(twoPrices.plans[0].prices.map((price) => [price.amount, price.frequency])).toEqual([
      ['9.00', 'm_1'],
      ['9.00', 'm_1'],
    ]);
    expect(new Set(twoPrices.plans[0].prices.map((price) => price.id)).size).toBe(2);
    const oneLeft = edit(twoPrices, { type: 'remove-price', plan: plan.id, price: twoPrices.plans[0].prices[0].id });
    expect(oneLeft.plans[0].prices).toHaveLength(1);
    expect(edit(oneLeft, { type: 'remove-price', plan: plan.id, price: oneLeft.plans[0].prices[0].id })).toEqual(oneLeft);

    const twoPlans = edit(start, { type: 'add-plan', defaults });
    expect(twoPlans.plans[1]).toMatchObject({ title: 'New plan', prices: [{ amount: '10.00', currency: 'USD', frequency: 'one-time' }] });
    expect(toFormBody(twoPlans, rules, englishT).body?.settings.plans).toHaveLength(2);
    expect(edit(twoPlans, { type: 'remove-plan', plan: plan.id }).plans.map((p) => p.title)).toEqual(['New plan']);
    expect(edit(start, { type: 'remove-plan', plan: plan.id })).toEqual(start);
    expect(rules.canAdd('settings.plans', 2)).toBe(false);
    expect(rules.canRemove('settings.plans', 1)).toBe(false);
  });

  it('edits payer fields: custom fields with choices, the core fields keep their types, email_address stays', () => {
    const start = draftFromForm(savedForm());
    const added = edit(start, { type: 'add-field' });
    const field = added.fields[3];
    expect(field).toMatchObject({ name: 'custom_field_1', type: 'text', label: 'Custom field 1', required: false });
    const select = edit(added, { type: 'field', field: field.id, patch: { type: 'select', options: ' Red \n\nBlue\n' , required: true } });
    expect(toFormBody(select, rules, englishT).body?.settings.fields[3]).toEqual({ name: 'custom_field_1', type: 'select', label: 'Custom field 1', required: true, options: ['Red', 'Blue'] });
    // Choices are sent for select fields only.
    const text = edit(start, { type: 'field', field: start.fields[2].id, patch: { type: 'text' } });
    expect(toFormBody(text, rules, englishT).body?.settings.fields[2]).toEqual({ name: 'topic', type: 'text', label: 'Topic', required: false });

    expect(missingCoreFields(start)).toEqual(['last_name']);
    const lastName = edit(start, { type: 'add-field', name: 'last_name' });
    expect(lastName.fields[3]).toMatchObject({ name: 'last_name', type: 'text', label: 'Last name' });
    expect(edit(start, { type: 'remove-field', field: start.fields[0].id }).fields).toHaveLength(3);
    expect(edit(start, { type: 'remove-field', field: start.fields[1].id }).fields.map((f) => f.name)).toEqual(['email_address', 'topic']);
    const moved = edit(start, { type: 'move-field', field: start.fields[2].id, by: -1 });
    expect(moved.fields.map((f) => f.name)).toEqual(['email_address', 'topic', 'first_name']);
    expect(edit(start, { type: 'move-field', field: start.fields[0].id, by: -1 })).toEqual(start);
  });

  it('keeps methods and actions in the order the API lists them, and leaves out a gateway with none', () => {
    const start = draftFromForm(savedForm());
    const order = ['ccard', 'sepa', 'device_wallet_1'];
    const more = edit(start, { type: 'method', gateway: GATEWAY, method: 'device_wallet_1', enabled: true, order }, { type: 'method', gateway: GATEWAY, method: 'sepa', enabled: true, order });
    expect(more.methods[GATEWAY]).toEqual(['ccard', 'sepa', 'device_wallet_1']);
    const noWallet = edit(start, { type: 'method', gateway: WALLET, method: 'standard_checkout', enabled: false, order: ['standard_checkout'] });
    expect(toFormBody(noWallet, rules, englishT).body?.settings.payment_methods).toEqual({ [GATEWAY]: ['ccard'] });

    const actions = ['email', 'redirect', 'message'] as const;
    const redirect = edit(start, { type: 'action', action: 'redirect', enabled: true, order: actions }, { type: 'update', patch: { redirectUrl: ' https://shop.example/thanks ' } });
    expect(toFormBody(redirect, rules, englishT).body?.settings).toMatchObject({ submit_actions: ['email', 'redirect', 'message'], redirect_url: 'https://shop.example/thanks' });
    // With the message action the message is sent even when empty, so the API can say it is required.
    const noMessage = edit(start, { type: 'update', patch: { successMessage: '' } });
    expect(toFormBody(noMessage, rules, englishT).body?.settings.success_message).toBe('');
    const neither = edit(noMessage, { type: 'action', action: 'message', enabled: false, order: actions });
    expect(toFormBody(neither, rules, englishT).body?.settings).not.toHaveProperty('success_message');
  });

  it('sends display settings the admin set and leaves out empty ones', () => {
    const start = draftFromForm({ ...savedForm(), settings: { ...savedForm().settings, display: undefined } });
    expect(start).toMatchObject({ showTitle: true, buttonLabel: '', primaryColor: '', layout: '' });
    expect(toFormBody(start, rules, englishT).body?.settings.display).toEqual({ show_title: true });
    const set = edit(start, { type: 'update', patch: { description: 'Pay for your order', buttonLabel: 'Pay', primaryColor: '#112233', layout: 'compact', showTitle: false } });
    expect(toFormBody(set, rules, englishT).body?.settings.display).toEqual({ show_title: false, description: 'Pay for your order', button_label: 'Pay', primary_color: '#112233', layout: 'compact' });
  });

  it("sends the payer's language only when fixed, and keeps the form's texts in other languages as stored (issue 32)", () => {
    const translations = [{ locale: 'de' as const, title: 'Kurs', button_label: 'Jetzt zahlen' }];
    const start = draftFromForm({ ...savedForm(), settings: { ...savedForm().settings, translations } });
    expect(start.locale).toBe('auto');
    expect(toFormBody(start, rules, englishT).body?.settings.display?.locale).toBeUndefined();
    expect(toFormBody(start, rules, englishT).body?.settings.translations).toEqual(translations);
    const fixed = edit(start, { type: 'update', patch: { locale: 'ja' } });
    expect(toFormBody(fixed, rules, englishT).body?.settings.display?.locale).toBe('ja');
  });

  it('fingerprints what the admin can change, not the ids', () => {
    const a = draftFromForm(savedForm());
    const b = draftFromForm(savedForm());
    expect(draftFingerprint(a)).toBe(draftFingerprint(b));
    const [plan] = a.plans;
    const changed = edit(a, { type: 'price', plan: plan.id, price: plan.prices[0].id, patch: { amount: '12.50' } });
    expect(draftFingerprint(changed)).not.toBe(draftFingerprint(a));
    const renumbered = { ...a, nextId: 99, plans: a.plans.map((p) => ({ ...p, id: p.id + 50 })) };
    expect(draftFingerprint(renumbered)).toBe(draftFingerprint(a));
  });
});

describe('notification address', () => {
  it('flags the stand-ins no mail reaches', () => {
    for (const email of ['admin@localhost', 'owner@example.com', 'a@shop.localhost', 'a@shop.test', 'a@x.invalid']) expect(isPlaceholderAddress(email)).toBe(true);
  });

  it('takes a real address as it is', () => {
    for (const email of ['owner@shop.com', 'ada@example.co.uk', 'me@localhost.shop.com', '']) expect(isPlaceholderAddress(email)).toBe(false);
  });
});

describe('withTranslatedText (the builder’s Translations section)', () => {
  it('keeps a text the merchant wrote and leaves out one emptied (the payer then sees the form’s own)', () => {
    const entry = withTranslatedText({ locale: 'de', title: 'Kurs' }, 'button_label', 'Jetzt zahlen');
    expect(entry).toEqual({ locale: 'de', title: 'Kurs', button_label: 'Jetzt zahlen' });
    expect(withTranslatedText(entry, 'title', '   ')).toEqual({ locale: 'de', button_label: 'Jetzt zahlen' });
    // The entry it was given is not changed.
    expect(entry.title).toBe('Kurs');
  });
});

describe('field labels and plan titles in other languages (the builder’s Translations section)', () => {
  it('keeps a label by field name and a title by plan position; an emptied one is left out, and an emptied list too', () => {
    let entry = withTranslatedFieldLabel({ locale: 'de' }, 'topic', 'Thema');
    entry = withTranslatedPlanTitle(entry, 0, 'Zahlung');
    expect(entry).toEqual({ locale: 'de', fields: [{ name: 'topic', label: 'Thema' }], plans: [{ plan_index: 0, title: 'Zahlung' }] });
    expect(translatedFieldLabel(entry, 'topic')).toBe('Thema');
    expect(translatedFieldLabel(entry, 'first_name')).toBe('');
    expect(translatedPlanTitle(entry, 0)).toBe('Zahlung');
    // Changed in place: still one version per field.
    expect(withTranslatedFieldLabel(entry, 'topic', 'Betreff').fields).toEqual([{ name: 'topic', label: 'Betreff' }]);
    expect(withTranslatedPlanTitle(withTranslatedFieldLabel(entry, 'topic', ' '), 0, '')).toEqual({ locale: 'de' });
    expect(entry.fields).toHaveLength(1);
  });

  it('sends them as stored, and they follow a renamed or removed field and a removed plan', () => {
    const base = savedForm();
    const twoPlans = { ...base.settings, plans: [...base.settings.plans, { title: 'Gold', prices: [{ amount: 2000, currency: 'USD' as const, frequency: 'one-time' as const }] }] };
    const translations = [
      { locale: 'de' as const, fields: [{ name: 'topic', label: 'Thema' }, { name: 'first_name', label: 'Vorname' }], plans: [{ plan_index: 0, title: 'Zahlung' }, { plan_index: 1, title: 'Gold (DE)' }] },
    ];
    const start = draftFromForm({ ...base, settings: { ...twoPlans, translations } });
    expect(toFormBody(start, rules, englishT).body?.settings.translations).toEqual(translations);

    const topic = start.fields.find((field) => field.name === 'topic')!;
    const renamed = edit(start, { type: 'field', field: topic.id, patch: { name: 'subject' } });
    expect(renamed.translations[0].fields).toEqual([{ name: 'subject', label: 'Thema' }, { name: 'first_name', label: 'Vorname' }]);
    const relabelled = edit(renamed, { type: 'field', field: topic.id, patch: { label: 'Subject' } });
    expect(relabelled.translations).toBe(renamed.translations);

    const firstName = start.fields.find((field) => field.name === 'first_name')!;
    const removedField = edit(renamed, { type: 'remove-field', field: firstName.id });
    expect(removedField.translations[0].fields).toEqual([{ name: 'subject', label: 'Thema' }]);

    const removedPlan = edit(start, { type: 'remove-plan', plan: start.plans[0].id });
    expect(removedPlan.translations[0].plans).toEqual([{ plan_index: 0, title: 'Gold (DE)' }]);
    const onlyPlan = edit(removedPlan, { type: 'remove-plan', plan: removedPlan.plans[0].id });
    expect(onlyPlan).toBe(removedPlan);
  });
});

describe('a select field’s choices and the payer subject in other languages (the builder’s Translations section)', () => {
  it('keeps one choice per position beside the label; an emptied label keeps the choices, emptied choices are left out', () => {
    let entry = withTranslatedChoice({ locale: 'de' }, 'topic', 1, 2, 'Zwei');
    expect(entry).toEqual({ locale: 'de', fields: [{ name: 'topic', options: ['', 'Zwei'] }] });
    expect(translatedChoice(entry, 'topic', 1)).toBe('Zwei');
    expect(translatedChoice(entry, 'topic', 0)).toBe('');
    entry = withTranslatedFieldLabel(entry, 'topic', 'Thema');
    expect(entry.fields).toEqual([{ name: 'topic', options: ['', 'Zwei'], label: 'Thema' }]);
    expect(withTranslatedFieldLabel(entry, 'topic', '').fields).toEqual([{ name: 'topic', options: ['', 'Zwei'] }]);
    expect(withTranslatedChoice(withTranslatedFieldLabel(entry, 'topic', ''), 'topic', 1, 2, ' ')).toEqual({ locale: 'de' });
    expect(withTranslatedText({ locale: 'de' }, 'payer_subject', 'Danke für {form_title}')).toEqual({ locale: 'de', payer_subject: 'Danke für {form_title}' });
  });

  it('keeps each choice version with its choice when choices are removed, added or edited', () => {
    const base = savedForm();
    const fields = base.settings.fields.map((field) => (field.name === 'topic' ? { ...field, options: ['A', 'B', 'C'] } : field));
    const start = draftFromForm({ ...base, settings: { ...base.settings, fields, translations: [{ locale: 'de', fields: [{ name: 'topic', options: ['Eins', 'Zwei', 'Drei'] }] }] } });
    const topic = start.fields.find((field) => field.name === 'topic')!;
    const saved = (draft: FormDraft) => toFormBody(draft, rules, englishT).body?.settings.translations;
    // A choice removed from the middle takes its version with it; the later ones stay on theirs.
    expect(saved(edit(start, { type: 'field', field: topic.id, patch: { options: 'A\nC' } }))).toEqual([{ locale: 'de', fields: [{ name: 'topic', options: ['Eins', 'Drei'] }] }]);
    // A choice added before the others has no version yet (sent as written).
    expect(saved(edit(start, { type: 'field', field: topic.id, patch: { options: 'Z\nA\nB\nC' } }))).toEqual([{ locale: 'de', fields: [{ name: 'topic', options: ['Z', 'Eins', 'Zwei', 'Drei'] }] }]);
    // A choice's text edited in place keeps its version, keystroke by keystroke.
    const typed = edit(start, { type: 'field', field: topic.id, patch: { options: 'A\nBe\nC' } }, { type: 'field', field: topic.id, patch: { options: 'A\nBee\nC' } });
    expect(saved(typed)).toEqual([{ locale: 'de', fields: [{ name: 'topic', options: ['Eins', 'Zwei', 'Drei'] }] }]);
  });

  it('sends one choice per choice the field has now (one not written as written), and none for a field that is no longer a select', () => {
    const base = savedForm();
    const start = draftFromForm({ ...base, settings: { ...base.settings, translations: [{ locale: 'de', fields: [{ name: 'topic', options: ['', 'Zwei'] }] }] } });
    expect(toFormBody(start, rules, englishT).body?.settings.translations).toEqual([{ locale: 'de', fields: [{ name: 'topic', options: ['A', 'Zwei'] }] }]);
    const topic = start.fields.find((field) => field.name === 'topic')!;
    const threeChoices = edit(start, { type: 'field', field: topic.id, patch: { options: 'A\nB\nC' } });
    expect(toFormBody(threeChoices, rules, englishT).body?.settings.translations).toEqual([{ locale: 'de', fields: [{ name: 'topic', options: ['A', 'Zwei', 'C'] }] }]);
    const text = edit(start, { type: 'field', field: topic.id, patch: { type: 'text' } });
    expect(toFormBody(text, rules, englishT).body?.settings.translations).toEqual([{ locale: 'de' }]);
  });
});
