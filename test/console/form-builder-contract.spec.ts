import { englishT } from '../../console/src/i18n/english';
import { BuilderRules, RULE_KEYS } from '../../console/src/routes/forms/common/builder-rules';
import { draftFromForm, draftReducer, type PaymentForm as ConsoleForm, toFormBody } from '../../console/src/routes/forms/common/form-draft';
import { buildFormBuilderData } from '../../src/modules/administration/form-builder-schema';
import { checkFormSettings, MAX_FORM_AMOUNT, type PaymentForm } from '../../src/modules/forms/index';
import { BUNDLED_FORM_TEMPLATES } from '../../src/modules/templates/index';

/**
 * The admin console's form builder against the service's own rules, without a browser: the field
 * map it reads its limits from has every setting it reads, and what it sends for a form is what
 * the form was (every bundled template round-trips) and passes the server's validation.
 */
describe('console form builder ↔ server rules', () => {
  const template = BUNDLED_FORM_TEMPLATES[0];
  const form: PaymentForm = { id: 1, title: template.name, status: 'draft', author_id: 1, settings: template.settings, created_at: '', updated_at: '' };
  // The server's DTO types `default` as unknown; on the wire it is the JSON the console's generated type names.
  const rules = new BuilderRules(buildFormBuilderData(form, { defaults: form, livePreviewUrl: 'http://x/preview' }) as unknown as ConstructorParameters<typeof BuilderRules>[0]);

  it('finds every setting the editor reads in the builder data, with its limits and choices', () => {
    for (const key of Object.values(RULE_KEYS)) expect({ key, found: rules.get(key) !== undefined }).toEqual({ key, found: true });
    expect(rules.get(RULE_KEYS.amount)).toMatchObject({ min: 1, max: MAX_FORM_AMOUNT });
    expect(rules.get(RULE_KEYS.setupFee)).toMatchObject({ min: 0, max: MAX_FORM_AMOUNT });
    expect(rules.get(RULE_KEYS.plans)).toMatchObject({ minItems: 1, maxItems: 20 });
    expect(rules.options(RULE_KEYS.currency).map((option) => option.value)).toEqual(expect.arrayContaining(['USD', 'EUR', 'JPY', 'KWD']));
    expect(rules.options(RULE_KEYS.frequency).map((option) => option.value)).toEqual(expect.arrayContaining(['one-time', 'm_1', 'y_1']));
    expect(rules.options(RULE_KEYS.submitActions).map((option) => option.value)).toEqual(['email', 'redirect', 'message']);
    expect(rules.get(RULE_KEYS.planTitle)?.default).toBe('New plan');
    expect(rules.get(RULE_KEYS.amount)?.default).toBe(1000);
  });

  it.each(BUNDLED_FORM_TEMPLATES.map((t) => [t.slug, t] as const))('sends the %s template back as it was, and the server accepts it', (_slug, bundled) => {
    const saved = { title: bundled.name, settings: bundled.settings as unknown as ConsoleForm['settings'] };
    const result = toFormBody(draftFromForm(saved), rules, englishT);
    expect(result.problems).toBeUndefined();
    // `show_title` defaults to true; the editor always says it.
    expect(result.body).toEqual({ title: bundled.name, settings: { ...bundled.settings, display: { show_title: true, ...bundled.settings.display } } });
    expect(checkFormSettings(result.body?.settings)).toBeNull();
  });

  it('sends a changed price in exact minor units that the server accepts', () => {
    const draft = draftFromForm({ title: form.title, settings: form.settings as unknown as ConsoleForm['settings'] });
    const [plan] = draft.plans;
    const changed = draftReducer(draft, { type: 'price', plan: plan.id, price: plan.prices[0].id, patch: { amount: '12.50', frequency: 'm_1', setupFee: '4.99' } });
    const body = toFormBody(changed, rules, englishT).body!;
    expect(body.settings.plans[0].prices[0]).toMatchObject({ amount: 1250, frequency: 'm_1', setup_amount: 499 });
    expect(checkFormSettings(body.settings)).toBeNull();
  });
});
