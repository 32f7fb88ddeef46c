import { checkFormSettings, parseFormSettings } from './form-settings.mapper.js';

/** Issue 32: a form's payer language and its own texts in other payer languages, validated against the nine. */
describe('form settings: the payer language and translations of the merchant’s texts', () => {
  const base = {
    plans: [{ title: 'Plan', prices: [{ amount: 1000, currency: 'USD', frequency: 'one-time' }] }],
    payment_methods: { gateway_a: ['ccard'] },
    fields: [{ name: 'email_address', type: 'email', label: 'Email', required: true }],
    submit_actions: ['message'],
    success_message: 'Thanks',
    email: { email_to: 'a@example.test', admin_subject: 'a', payer_subject: 'b', from_name: 'c' },
  };

  it('keeps a payer language or auto, and one entry of texts per payer language', () => {
    const settings = parseFormSettings({
      ...base,
      display: { locale: 'pt-BR' },
      translations: [{ locale: 'de', title: 'Kurs', button_label: 'Jetzt zahlen', success_message: 'Danke' }, { locale: 'ja', description: '説明' }],
    });
    expect(settings.display.locale).toBe('pt-BR');
    expect(settings.translations).toEqual([{ locale: 'de', title: 'Kurs', button_label: 'Jetzt zahlen', success_message: 'Danke' }, { locale: 'ja', description: '説明' }]);
    expect(checkFormSettings({ ...base, display: { locale: 'auto' } })).toBeNull();
  });

  it('refuses a language that is no payer language, a language twice, and an over-long text', () => {
    expect(checkFormSettings({ ...base, display: { locale: 'zh' } })).toHaveProperty(['display.locale']);
    expect(checkFormSettings({ ...base, translations: [{ locale: 'xx', title: 'x' }] })).not.toBeNull();
    expect(checkFormSettings({ ...base, translations: [{ locale: 'de', title: 'a' }, { locale: 'de', title: 'b' }] })).not.toBeNull();
    expect(checkFormSettings({ ...base, translations: [{ locale: 'de', button_label: 'x'.repeat(41) }] })).not.toBeNull();
  });

  it('keeps field labels by name and plan titles by plan_index', () => {
    const settings = parseFormSettings({
      ...base,
      translations: [{ locale: 'de', fields: [{ name: 'email_address', label: ' E-Mail ' }], plans: [{ plan_index: 0, title: 'Tarif' }] }],
    });
    expect(settings.translations).toEqual([{ locale: 'de', fields: [{ name: 'email_address', label: 'E-Mail' }], plans: [{ plan_index: 0, title: 'Tarif' }] }]);
  });

  it('refuses a label of no field of the form, a title of no plan, a repeated one, and texts the originals’ rules refuse', () => {
    const check = (entry: object) => checkFormSettings({ ...base, translations: [{ locale: 'de', ...entry }] });
    expect(check({ fields: [{ name: 'nickname', label: 'Spitzname' }] })).toEqual({
      translations: 'translations.0.fields.0.name must name a field of this form (no field nickname)',
    });
    expect(check({ plans: [{ plan_index: 1, title: 'Gold' }] })).toEqual({ translations: 'translations.0.plans.0.plan_index must name a plan of this form (it has 1)' });
    expect(check({ fields: [{ name: 'email_address', label: 'a' }, { name: 'email_address', label: 'b' }] })).toHaveProperty(['translations.0.fields']);
    expect(check({ plans: [{ plan_index: 0, title: 'a' }, { plan_index: 0, title: 'b' }] })).toHaveProperty(['translations.0.plans']);
    expect(check({ fields: [{ name: 'email_address', label: 'x'.repeat(101) }] })).toHaveProperty(['translations.0.fields.0.label']);
    expect(check({ fields: [{ name: 'email_address', label: '  ' }] })).toHaveProperty(['translations.0.fields.0.label']);
    expect(check({ plans: [{ plan_index: 0, title: 'x'.repeat(101) }] })).toHaveProperty(['translations.0.plans.0.title']);
    expect(check({ plans: [{ plan_index: -1, title: 'a' }] })).toHaveProperty(['translations.0.plans.0.plan_index']);
    expect(check({ plans: [{ plan_index: 0 }] })).toHaveProperty(['translations.0.plans.0.title']);
    expect(check({ fields: [{ name: 'email_address', label: 'x'.repeat(100) }], plans: [{ plan_index: 0, title: 'x'.repeat(100) }] })).toBeNull();
  });

  describe('select choices and the payer subject (each field version: a label, choices or both)', () => {
    const withSize = {
      ...base,
      fields: [...base.fields, { name: 'size', type: 'select', label: 'Size', required: false, options: ['S', 'M'] }, { name: 'note', type: 'text', label: 'Note', required: false }],
    };
    const check = (entry: object) => checkFormSettings({ ...withSize, translations: [{ locale: 'de', ...entry }] });

    it('keeps choices in the order of the field’s options, with or without a label, and a payer subject', () => {
      const settings = parseFormSettings({
        ...withSize,
        translations: [{ locale: 'de', payer_subject: ' Danke für {form_title} ', fields: [{ name: 'size', options: ['Klein', 'Mittel'] }, { name: 'note', label: 'Notiz' }] }],
      });
      expect(settings.translations).toEqual([
        { locale: 'de', payer_subject: 'Danke für {form_title}', fields: [{ name: 'size', options: ['Klein', 'Mittel'] }, { name: 'note', label: 'Notiz' }] },
      ]);
    });

    it('refuses choices of a field that is no select, a count other than the field’s, a version of nothing, and what the originals’ rules refuse', () => {
      expect(check({ fields: [{ name: 'note', options: ['a'] }] })).toEqual({ translations: 'translations.0.fields.0.options are for a select field (note is not one)' });
      expect(check({ fields: [{ name: 'size', options: ['Klein'] }] })).toEqual({
        translations: 'translations.0.fields.0.options must give one label per choice of size (it has 2)',
      });
      expect(check({ fields: [{ name: 'size' }] })).toHaveProperty(['translations.0.fields.0.label']);
      expect(check({ fields: [{ name: 'size', options: ['Klein', 'x'.repeat(101)] }] })).toHaveProperty(['translations.0.fields.0.options']);
      expect(check({ fields: [{ name: 'size', options: [] }] })).not.toBeNull();
      expect(check({ fields: [{ name: 'size', options: ['Klein', 3] }] })).toHaveProperty(['translations.0.fields.0.options']);
      expect(check({ payer_subject: 'a\nb' })).toEqual({ 'translations.0.payer_subject': 'payer_subject must be a single line' });
      expect(check({ payer_subject: 'x'.repeat(201) })).toHaveProperty(['translations.0.payer_subject']);
      expect(check({ payer_subject: ' ' })).toHaveProperty(['translations.0.payer_subject']);
      expect(check({ payer_subject: 'x'.repeat(200), fields: [{ name: 'size', label: 'Größe', options: ['Klein', 'x'.repeat(100)] }] })).toBeNull();
    });
  });
});
