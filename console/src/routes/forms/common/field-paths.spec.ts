import { describe, expect, it } from '@jest/globals';
import { englishT } from '../../../i18n/english';
import { describePath, editablePaths, errorId, inputId, normalisePath, placeErrors, targetOf } from './field-paths';
import { draftFromForm, type PaymentForm } from './form-draft';

const GATEWAYS = { card_gateway: 'Gateway A', wallet_gateway: 'Gateway B' };

const draft = draftFromForm({
  title: 'Membership',
  settings: {
    plans: [
      { title: 'Basic', prices: [{ amount: 900, currency: 'USD', frequency: 'm_1' }] },
      { title: 'Gift', prices: [{ amount: 1000, currency: 'USD', frequency: 'one-time', custom_amount: { min: 100, max: 5000 } }, { amount: 5000, currency: 'USD', frequency: 'y_1' }] },
    ],
    payment_methods: { card_gateway: ['ccard'] } as PaymentForm['settings']['payment_methods'],
    fields: [
      { name: 'email_address', type: 'email', label: 'Email', required: true },
      { name: 'size', type: 'select', label: 'Size', required: true, options: ['S', 'M'] },
    ],
    submit_actions: ['message'],
    email: { email_to: 'owner@example.test', admin_subject: 'New', payer_subject: 'Thanks', from_name: 'Shop' },
    success_message: 'Thanks!',
  },
});

describe('field paths', () => {
  it('reads the bracket and the dotted form of an index alike', () => {
    expect(normalisePath('settings.plans[0].prices[12].amount')).toBe('settings.plans.0.prices.12.amount');
    expect(normalisePath('settings.plans.0.prices.12.amount')).toBe('settings.plans.0.prices.12.amount');
    expect(inputId('settings.plans[0].prices[1].custom_amount.min')).toBe('f-settings-plans-0-prices-1-custom_amount-min');
    expect(inputId('settings.plans.0.prices.1.custom_amount.min')).toBe(inputId('settings.plans[0].prices[1].custom_amount.min'));
    expect(errorId('title')).toBe('f-title-error');
  });

  it('lists the inputs this draft has: a setup fee for recurring prices, bounds for payer-entered amounts, choices for selects', () => {
    const paths = editablePaths(draft, Object.keys(GATEWAYS));
    expect(paths.has('settings.plans.0.prices.0.setup_amount')).toBe(true);
    expect(paths.has('settings.plans.1.prices.0.setup_amount')).toBe(false);
    expect(paths.has('settings.plans.1.prices.0.custom_amount.max')).toBe(true);
    expect(paths.has('settings.plans.1.prices.1.custom_amount.max')).toBe(false);
    expect(paths.has('settings.fields.1.options')).toBe(true);
    expect(paths.has('settings.fields.0.options')).toBe(false);
    expect(paths.has('settings.payment_methods.wallet_gateway')).toBe(true);
  });

  it('puts an error on its input, or on the nearest group that encloses it', () => {
    const paths = editablePaths(draft, Object.keys(GATEWAYS));
    expect(targetOf('settings.plans.1.prices.1.amount', paths)).toBe('settings.plans.1.prices.1.amount');
    expect(targetOf('settings.plans[1].prices[0].custom_amount.max', paths)).toBe('settings.plans.1.prices.0.custom_amount.max');
    expect(targetOf('settings.fields.1.options.0', paths)).toBe('settings.fields.1.options');
    expect(targetOf('settings.payment_methods', paths)).toBe('settings.payment_methods');
    expect(targetOf('settings.payment_methods.other_gateway', paths)).toBe('settings.payment_methods');
    // A plan the draft no longer has (removed since the request was sent): the plans group.
    expect(targetOf('settings.plans.7.title', paths)).toBe('settings.plans');
    expect(targetOf('status', paths)).toBeNull();
  });

  it("places the API's data.params on the inputs and lists them for the summary", () => {
    const placed = placeErrors(
      {
        'settings.plans.1.prices.0.amount': 'amount must lie within custom_amount.min and custom_amount.max',
        'settings.plans.0.prices.0.setup_amount': 'setup_amount must be a multiple of 0.01 USD in minor units',
        'settings.fields.1.options.0': 'each value in options must be shorter than or equal to 100 characters',
        'settings.fields.1.options.1': 'options must be strings',
        'settings.payment_methods': 'payment_methods must enable at least one method',
        status: 'status must be one of the following values: draft, publish',
      },
      draft,
      englishT,
      GATEWAYS,
    );
    expect(placed.byPath).toEqual({
      'settings.plans.1.prices.0.amount': 'amount must lie within custom_amount.min and custom_amount.max',
      'settings.plans.0.prices.0.setup_amount': 'setup_amount must be a multiple of 0.01 USD in minor units',
      'settings.fields.1.options': 'each value in options must be shorter than or equal to 100 characters; options must be strings',
      'settings.payment_methods': 'payment_methods must enable at least one method',
    });
    expect(placed.summary.map((item) => [item.where, item.target])).toEqual([
      ['Plan 2, price 1: amount', 'settings.plans.1.prices.0.amount'],
      ['Plan 1, price 1: setup fee', 'settings.plans.0.prices.0.setup_amount'],
      ['Payer field 2 (size): choices', 'settings.fields.1.options'],
      ['Payer field 2 (size): choices', 'settings.fields.1.options'],
      ['Payment methods', 'settings.payment_methods'],
      ['status', null],
    ]);
  });

  it('describes a path in the words of the builder', () => {
    expect(describePath('title', englishT)).toBe('Title');
    expect(describePath('settings.plans.0.title', englishT)).toBe('Plan 1: title');
    expect(describePath('settings.plans.0.prices', englishT)).toBe('Plan 1: prices');
    expect(describePath('settings.plans.2.prices.0.custom_amount.min', englishT)).toBe('Plan 3, price 1: payer-entered amount minimum');
    expect(describePath('settings.email.email_to', englishT)).toBe('Notification address');
    expect(describePath('settings.payment_methods.wallet_gateway', englishT, draft, GATEWAYS)).toBe('Payment methods (Gateway B)');
    expect(describePath('settings.fields.0.name', englishT, draft)).toBe('Payer field 1 (email_address): name');
  });
});
