import type { components } from '../../../../../clients/typescript/index';
import { CORE_FIELDS, type CoreField } from '../../../api/vocabulary';
import { fromAmountInput, money, toAmountInput } from '../../../format';
import type { Translate } from '../../../i18n/translate';
import { type BuilderRules, RULE_KEYS } from './builder-rules';

export type PaymentForm = components['schemas']['PaymentFormDto'];
export type FormSettings = components['schemas']['PaymentFormSettingsDto'];
type Price = components['schemas']['FormPriceDto'];
type Field = components['schemas']['FormFieldDto'];
export type Currency = Price['currency'];
export type Frequency = Price['frequency'];
export type FieldType = Field['type'];
export type SubmitAction = FormSettings['submit_actions'][number];
export type FormStatus = PaymentForm['status'];
type Layout = NonNullable<NonNullable<FormSettings['display']>['layout']>;
export type FormLocale = NonNullable<NonNullable<FormSettings['display']>['locale']>;

/** The interface's one non-recurring frequency; every other one is a subscription interval. */
export const ONE_TIME: Frequency = 'one-time';
/** Of the payer fields every form may have (CORE_FIELDS), the one it must. */
export const REQUIRED_FIELD = 'email_address' satisfies CoreField;

/** A price as the editor holds it: amounts as the decimal text the admin typed ("12.50"), in the price's currency. */
export interface PriceDraft {
  id: number;
  amount: string;
  currency: Currency;
  frequency: Frequency;
  /** Setup fee of a recurring price; empty for none */
  setupFee: string;
  /** The payer enters the amount between `customMin` and `customMax`; `amount` is then the suggestion */
  customAmount: boolean;
  customMin: string;
  customMax: string;
}

export interface PlanDraft {
  id: number;
  title: string;
  prices: PriceDraft[];
}

export interface FieldDraft {
  id: number;
  name: string;
  type: FieldType;
  label: string;
  required: boolean;
  /** Choices of a select field, one per line */
  options: string;
}

/** The whole editing state of one form (what the builder's inputs show). */
export interface FormDraft {
  title: string;
  description: string;
  showTitle: boolean;
  buttonLabel: string;
  /** `#rrggbb`, or empty to keep the default colour */
  primaryColor: string;
  layout: Layout | '';
  /** `display.locale`: `auto` (the payer's browser, then the site's language) or a payer language */
  locale: FormLocale;
  /** The form's own texts in other payer languages (`settings.translations`): the builder's Translations section edits them */
  translations: NonNullable<FormSettings['translations']>;
  plans: PlanDraft[];
  /** Gateway id → enabled method ids (gateway ids come from the API, never from the console) */
  methods: Record<string, string[]>;
  fields: FieldDraft[];
  submitActions: SubmitAction[];
  redirectUrl: string;
  successMessage: string;
  email: FormSettings['email'];
  /** The next id for a new plan, price or field (React keys that survive reordering) */
  nextId: number;
}

type Translation = FormDraft['translations'][number];
/** The form-wide texts a translation may carry (settings.translations[], the payer's email subject among them), beside its `locale` and its field versions and plan titles. */
export type TranslatedText = Exclude<keyof Translation, 'locale' | 'fields' | 'plans'>;

/** A translation with `text` set to `value`; an emptied text is left out (the payer then sees the form's own). */
export function withTranslatedText(entry: Translation, text: TranslatedText, value: string): Translation {
  const next: Translation = { ...entry };
  if (value.trim() === '') delete next[text];
  else next[text] = value;
  return next;
}

type FieldVersion = NonNullable<Translation['fields']>[number];

/** A translation with the label of the field named `name` set to `value`; an emptied one is left out, like a text. */
export function withTranslatedFieldLabel(entry: Translation, name: string, value: string): Translation {
  return withFieldVersion(entry, name, { label: value });
}

/**
 * A translation with choice `choice` (of `count`) of the select field named `name` shown as `value`.
 * The draft keeps one per choice, '' for one not written; the save puts the choice itself there.
 */
export function withTranslatedChoice(entry: Translation, name: string, choice: number, count: number, value: string): Translation {
  const current = entry.fields?.find((field) => field.name === name)?.options;
  const options = Array.from({ length: count }, (_, at) => current?.[at] ?? '');
  options[choice] = value;
  return withFieldVersion(entry, name, { options });
}

/** A field's version with `patch` applied: a label or choices emptied are left out, and a version of nothing. */
function withFieldVersion(entry: Translation, name: string, patch: Omit<FieldVersion, 'name'>): Translation {
  const current = entry.fields?.find((field) => field.name === name);
  const merged = { ...current, ...patch };
  const version: FieldVersion = { name };
  if (merged.label !== undefined && merged.label.trim() !== '') version.label = merged.label;
  if (merged.options?.some((option) => option.trim() !== '')) version.options = merged.options;
  const others = (entry.fields ?? []).filter((field) => field.name !== name);
  return withList(entry, 'fields', version.label === undefined && version.options === undefined ? others : [...others, version]);
}

/** The translation's version of choice `choice` of a select field, or '' when it has none. */
export function translatedChoice(entry: Translation, name: string, choice: number): string {
  return entry.fields?.find((field) => field.name === name)?.options?.[choice] ?? '';
}

/**
 * The field versions as the API takes them: a select field's choices one per choice it has now (a
 * choice not written in the language is shown as written, so it is sent as written), none for a
 * field that has no choices; a version left with nothing is dropped.
 */
function fieldVersionsToSave(versions: FieldVersion[] | undefined, fields: FieldDraft[]): FieldVersion[] {
  const out: FieldVersion[] = [];
  for (const version of versions ?? []) {
    const field = fields.find((candidate) => candidate.name === version.name);
    const choices = field?.type === 'select' ? optionLines(field.options) : [];
    const next: FieldVersion = { name: version.name };
    if (version.label !== undefined) next.label = version.label;
    if (version.options && choices.length > 0 && choices.some((_, at) => (version.options?.[at] ?? '').trim() !== '')) {
      next.options = choices.map((choice, at) => {
        const written = (version.options?.[at] ?? '').trim();
        return written === '' ? choice : written;
      });
    }
    if (next.label !== undefined || next.options !== undefined) out.push(next);
  }
  return out;
}

/** A translation with the title of the plan at `planIndex` (its position, the API's key) set to `value`; an emptied one is left out. */
export function withTranslatedPlanTitle(entry: Translation, planIndex: number, value: string): Translation {
  const others = (entry.plans ?? []).filter((plan) => plan.plan_index !== planIndex);
  return withList(entry, 'plans', value.trim() === '' ? others : [...others, { plan_index: planIndex, title: value }]);
}

/** The translation's version of a field's label or a plan's title, or '' when it has none. */
export function translatedFieldLabel(entry: Translation, name: string): string {
  return entry.fields?.find((field) => field.name === name)?.label ?? '';
}
export function translatedPlanTitle(entry: Translation, planIndex: number): string {
  return entry.plans?.find((plan) => plan.plan_index === planIndex)?.title ?? '';
}

function withList<K extends 'fields' | 'plans'>(entry: Translation, key: K, list: NonNullable<Translation[K]>): Translation {
  const next: Translation = { ...entry };
  if (list.length === 0) delete next[key];
  else next[key] = list;
  return next;
}

/**
 * The translations after a change of the form's fields or plans, so that every version still
 * belongs to what it was written for (the API refuses one of no field or plan of the form): a
 * field's labels follow its `name` (`rename` old → new, `drop` a removed field's), a plan's titles
 * its position (the plan at `removedPlan` is gone, the later ones move up), a select's choice
 * versions their choice (`choices`: see followChoices).
 */
function followItems(
  translations: Translation[],
  change: { rename?: [string, string]; drop?: string; removedPlan?: number; choices?: { name: string; before: string[]; after: string[] } },
): Translation[] {
  return translations.map((entry) => {
    let next = entry;
    const choices = change.choices;
    if (choices && entry.fields?.some((field) => field.name === choices.name && field.options)) {
      const fields = entry.fields.map((field) => (field.name === choices.name && field.options ? { ...field, options: followChoices(field.options, choices.before, choices.after) } : field));
      next = withList(next, 'fields', fields);
    }
    if (entry.fields && (change.rename || change.drop !== undefined)) {
      const fields = entry.fields
        .filter((field) => field.name !== change.drop)
        .map((field) => (change.rename && field.name === change.rename[0] ? { ...field, name: change.rename[1] } : field));
      next = withList(next, 'fields', fields);
    }
    const removed = change.removedPlan;
    if (entry.plans && removed !== undefined) {
      const plans = entry.plans.filter((plan) => plan.plan_index !== removed).map((plan) => (plan.plan_index > removed ? { ...plan, plan_index: plan.plan_index - 1 } : plan));
      next = withList(next, 'plans', plans);
    }
    return next;
  });
}

/**
 * A select's choice versions after its choices changed from `before` to `after`. As many choices
 * as before: the same positions (a choice's text was edited, keystroke by keystroke). Choices
 * added or removed: each keeps the version of the choice with its text, a new one none, so
 * removing a choice from the middle does not shift the versions after it onto other choices.
 */
function followChoices(versions: string[], before: string[], after: string[]): string[] {
  if (before.length === after.length) return after.map((_, at) => versions[at] ?? '');
  const unused = before.map((choice, at) => ({ choice, version: versions[at] ?? '' }));
  return after.map((choice) => {
    const match = unused.findIndex((candidate) => candidate.choice === choice);
    return match < 0 ? '' : unused.splice(match, 1)[0].version;
  });
}

/** The draft of a saved form. */
export function draftFromForm(form: Pick<PaymentForm, 'title' | 'settings'>): FormDraft {
  let nextId = 1;
  const settings = form.settings;
  const display = settings.display ?? {};
  const plans = settings.plans.map((plan) => ({
    id: nextId++,
    title: plan.title,
    prices: plan.prices.map((price) => priceDraft(nextId++, price)),
  }));
  const fields = settings.fields.map((field) => ({
    id: nextId++,
    name: field.name,
    type: field.type,
    label: field.label,
    required: field.required,
    options: (field.options ?? []).join('\n'),
  }));
  const methods: Record<string, string[]> = {};
  for (const [gateway, enabled] of Object.entries(settings.payment_methods ?? {})) if (Array.isArray(enabled)) methods[gateway] = [...enabled];
  return {
    title: form.title,
    description: display.description ?? '',
    showTitle: display.show_title ?? true,
    buttonLabel: display.button_label ?? '',
    primaryColor: display.primary_color ?? '',
    layout: display.layout ?? '',
    locale: display.locale ?? 'auto',
    translations: settings.translations ?? [],
    plans,
    methods,
    fields,
    submitActions: [...settings.submit_actions],
    redirectUrl: settings.redirect_url ?? '',
    successMessage: settings.success_message ?? '',
    email: { ...settings.email },
    nextId,
  };
}

function priceDraft(id: number, price: Price): PriceDraft {
  return {
    id,
    amount: toAmountInput(price.amount, price.currency),
    currency: price.currency,
    frequency: price.frequency,
    setupFee: price.setup_amount ? toAmountInput(price.setup_amount, price.currency) : '',
    customAmount: price.custom_amount !== undefined,
    customMin: price.custom_amount ? toAmountInput(price.custom_amount.min, price.currency) : '',
    customMax: price.custom_amount ? toAmountInput(price.custom_amount.max, price.currency) : '',
  };
}

/** A new price: in the currency of the price it follows, the server's default amount for a new item. */
export interface NewItemDefaults {
  planTitle: string;
  amount: number;
  currency: Currency;
}

export type DraftAction =
  | { type: 'update'; patch: Partial<Omit<FormDraft, 'plans' | 'fields' | 'methods' | 'nextId' | 'email'>> }
  | { type: 'email'; patch: Partial<FormSettings['email']> }
  | { type: 'plan-title'; plan: number; title: string }
  | { type: 'add-plan'; defaults: NewItemDefaults }
  | { type: 'remove-plan'; plan: number }
  | { type: 'add-price'; plan: number; defaults: NewItemDefaults }
  | { type: 'remove-price'; plan: number; price: number }
  | { type: 'price'; plan: number; price: number; patch: Partial<Omit<PriceDraft, 'id'>> }
  | { type: 'method'; gateway: string; method: string; enabled: boolean; order: readonly string[] }
  | { type: 'add-field'; name?: string }
  | { type: 'remove-field'; field: number }
  | { type: 'move-field'; field: number; by: -1 | 1 }
  | { type: 'field'; field: number; patch: Partial<Omit<FieldDraft, 'id'>> }
  | { type: 'action'; action: SubmitAction; enabled: boolean; order: readonly SubmitAction[] };

/** The editor's reducer: every change the builder's controls make. Items are addressed by their ids. */
export function draftReducer(draft: FormDraft, action: DraftAction): FormDraft {
  switch (action.type) {
    case 'update':
      return { ...draft, ...action.patch };
    case 'email':
      return { ...draft, email: { ...draft.email, ...action.patch } };
    case 'plan-title':
      return mapPlan(draft, action.plan, (plan) => ({ ...plan, title: action.title }));
    case 'add-plan': {
      const currency = draft.plans[0]?.prices[0]?.currency ?? action.defaults.currency;
      const plan: PlanDraft = { id: draft.nextId, title: action.defaults.planTitle, prices: [newPrice(draft.nextId + 1, currency, action.defaults.amount)] };
      return { ...draft, plans: [...draft.plans, plan], nextId: draft.nextId + 2 };
    }
    case 'remove-plan': {
      const removedPlan = draft.plans.findIndex((plan) => plan.id === action.plan);
      if (draft.plans.length <= 1 || removedPlan < 0) return draft;
      return { ...draft, plans: draft.plans.filter((plan) => plan.id !== action.plan), translations: followItems(draft.translations, { removedPlan }) };
    }
    case 'add-price':
      return {
        ...mapPlan(draft, action.plan, (plan) => {
          const last = plan.prices[plan.prices.length - 1];
          // Another price of a plan is most often the same amount at another interval: start from the last one.
          const price: PriceDraft = last ? { ...last, id: draft.nextId } : newPrice(draft.nextId, action.defaults.currency, action.defaults.amount);
          return { ...plan, prices: [...plan.prices, price] };
        }),
        nextId: draft.nextId + 1,
      };
    case 'remove-price':
      return mapPlan(draft, action.plan, (plan) => (plan.prices.length <= 1 ? plan : { ...plan, prices: plan.prices.filter((price) => price.id !== action.price) }));
    case 'price':
      return mapPlan(draft, action.plan, (plan) => ({ ...plan, prices: plan.prices.map((price) => (price.id === action.price ? { ...price, ...action.patch } : price)) }));
    case 'method': {
      const current = new Set(draft.methods[action.gateway] ?? []);
      if (action.enabled) current.add(action.method);
      else current.delete(action.method);
      // Kept in the catalog's order, so a save changes nothing when nothing changed.
      return { ...draft, methods: { ...draft.methods, [action.gateway]: action.order.filter((method) => current.has(method)) } };
    }
    case 'add-field': {
      const name = action.name ?? freeFieldName(draft.fields);
      const field: FieldDraft = { id: draft.nextId, name, type: coreFieldType(name) ?? 'text', label: fieldLabel(name), required: false, options: '' };
      return { ...draft, fields: [...draft.fields, field], nextId: draft.nextId + 1 };
    }
    case 'remove-field': {
      const removed = draft.fields.find((field) => field.id === action.field && field.name !== REQUIRED_FIELD);
      if (!removed) return draft;
      // Another field of the same name keeps the labels written for that name.
      const named = draft.fields.filter((field) => field.name === removed.name).length;
      const translations = named > 1 ? draft.translations : followItems(draft.translations, { drop: removed.name });
      return { ...draft, fields: draft.fields.filter((field) => field !== removed), translations };
    }
    case 'move-field': {
      const index = draft.fields.findIndex((field) => field.id === action.field);
      const target = index + action.by;
      if (index < 0 || target < 0 || target >= draft.fields.length) return draft;
      const fields = [...draft.fields];
      [fields[index], fields[target]] = [fields[target], fields[index]];
      return { ...draft, fields };
    }
    case 'field': {
      const before = draft.fields.find((field) => field.id === action.field);
      const fields = draft.fields.map((field) => (field.id === action.field ? { ...field, ...action.patch } : field));
      const name = action.patch.name;
      const renamed = before && name !== undefined && name !== before.name;
      let translations = renamed ? followItems(draft.translations, { rename: [before.name, name] }) : draft.translations;
      if (before && action.patch.options !== undefined && action.patch.options !== before.options) {
        translations = followItems(translations, { choices: { name: name ?? before.name, before: optionLines(before.options), after: optionLines(action.patch.options) } });
      }
      return { ...draft, fields, translations };
    }
    case 'action': {
      const current = new Set(draft.submitActions);
      if (action.enabled) current.add(action.action);
      else current.delete(action.action);
      return { ...draft, submitActions: action.order.filter((name) => current.has(name)) };
    }
  }
}

function mapPlan(draft: FormDraft, id: number, change: (plan: PlanDraft) => PlanDraft): FormDraft {
  return { ...draft, plans: draft.plans.map((plan) => (plan.id === id ? change(plan) : plan)) };
}

function newPrice(id: number, currency: Currency, amount: number): PriceDraft {
  return { id, amount: toAmountInput(amount, currency), currency, frequency: ONE_TIME, setupFee: '', customAmount: false, customMin: '', customMax: '' };
}

/** `custom_field_1`, `custom_field_2`, …: the first name no field of the form has. */
function freeFieldName(fields: FieldDraft[]): string {
  const taken = new Set(fields.map((field) => field.name));
  let n = 1;
  while (taken.has(`custom_field_${n}`)) n++;
  return `custom_field_${n}`;
}

function fieldLabel(name: string): string {
  return name.replace(/_/g, ' ').replace(/^\w/, (first) => first.toUpperCase());
}

/** The core fields a draft does not have yet (the editor offers to add them back). */
export function missingCoreFields(draft: Pick<FormDraft, 'fields'>): string[] {
  const present = new Set(draft.fields.map((field) => field.name));
  return CORE_FIELDS.filter((name) => !present.has(name));
}

/**
 * An address no mail reaches (`admin@localhost`, the first administrator's stand-in, or a
 * template's `@example.com`): the builder says so at the notification address.
 */
export function isPlaceholderAddress(email: string): boolean {
  const domain = email.trim().toLowerCase().split('@')[1] ?? '';
  return domain === 'localhost' || domain === 'example.com' || domain.endsWith('.localhost') || domain.endsWith('.example') || domain.endsWith('.invalid') || domain.endsWith('.test');
}

export function isCoreField(name: string): boolean {
  return (CORE_FIELDS as readonly string[]).includes(name);
}

/** The type a core field must keep (the API refuses another). */
export function coreFieldType(name: string): FieldType | undefined {
  if (name === REQUIRED_FIELD) return 'email';
  return isCoreField(name) ? 'text' : undefined;
}

/** The body of `PUT /administration/payment-forms/{id}` (and of the live preview). */
export interface FormBody {
  title: string;
  settings: FormSettings;
}

/** Problems found before anything is sent, by the path the API would name them with. */
export type FieldProblems = Record<string, string>;

/**
 * The draft as the API's settings. Amounts are converted exactly from the decimal text in each
 * price's currency (the shared money rules) and checked against the server's bounds from the
 * builder data; an amount that is not one is reported under the path the API uses for that field
 * (`settings.plans.0.prices.1.amount`), so the editor shows both kinds of error the same way.
 * Everything else is left to the server's validation. `t` words the problems (the console's language).
 */
export function toFormBody(draft: FormDraft, rules: BuilderRules | undefined, t: Translate): { body: FormBody; problems?: undefined } | { body?: undefined; problems: FieldProblems } {
  const problems: FieldProblems = {};
  const plans = draft.plans.map((plan, p) => ({
    title: plan.title,
    prices: plan.prices.map((price, i) => {
      const at = `settings.plans.${p}.prices.${i}`;
      const amount = readAmount(price.amount, price.currency, rules?.get(RULE_KEYS.amount), `${at}.amount`, problems, t);
      const out: Price = { amount: amount ?? 0, currency: price.currency, frequency: price.frequency };
      if (price.frequency !== ONE_TIME && price.setupFee.trim() !== '') {
        const fee = readAmount(price.setupFee, price.currency, rules?.get(RULE_KEYS.setupFee), `${at}.setup_amount`, problems, t);
        if (fee !== undefined && fee > 0) out.setup_amount = fee;
      }
      if (price.customAmount) {
        const min = readAmount(price.customMin, price.currency, rules?.get(RULE_KEYS.customMin), `${at}.custom_amount.min`, problems, t);
        const max = readAmount(price.customMax, price.currency, rules?.get(RULE_KEYS.customMax), `${at}.custom_amount.max`, problems, t);
        out.custom_amount = { min: min ?? 0, max: max ?? 0 };
      }
      return out;
    }),
  }));
  if (Object.keys(problems).length > 0) return { problems };

  const display: NonNullable<FormSettings['display']> = { show_title: draft.showTitle };
  if (draft.description.trim() !== '') display.description = draft.description;
  if (draft.buttonLabel.trim() !== '') display.button_label = draft.buttonLabel;
  if (draft.primaryColor !== '') display.primary_color = draft.primaryColor;
  if (draft.layout !== '') display.layout = draft.layout;
  if (draft.locale !== 'auto') display.locale = draft.locale;

  const settings: FormSettings = {
    plans,
    // The generated type lists the catalog's gateways as properties; the console holds them as data.
    payment_methods: Object.fromEntries(Object.entries(draft.methods).filter(([, methods]) => methods.length > 0)) as FormSettings['payment_methods'],
    fields: draft.fields.map((field) => {
      const out: Field = { name: field.name, type: field.type, label: field.label, required: field.required };
      if (field.type === 'select') out.options = optionLines(field.options);
      return out;
    }),
    submit_actions: [...draft.submitActions],
    email: { ...draft.email },
    display,
  };
  if (draft.redirectUrl.trim() !== '' || draft.submitActions.includes('redirect')) settings.redirect_url = draft.redirectUrl.trim();
  if (draft.successMessage.trim() !== '' || draft.submitActions.includes('message')) settings.success_message = draft.successMessage;
  if (draft.translations.length > 0) {
    settings.translations = draft.translations.map((entry) => {
      const out: Translation = { ...entry };
      const fields = fieldVersionsToSave(entry.fields, draft.fields);
      if (fields.length > 0) out.fields = fields;
      else delete out.fields;
      return out;
    });
  }
  return { body: { title: draft.title, settings } };
}

/** The lines of a choices text area, trimmed, without blank lines. */
export function optionLines(text: string): string[] {
  return text
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '');
}

function readAmount(text: string, currency: Currency, rule: { min?: number; max?: number } | undefined, path: string, problems: FieldProblems, t: Translate): number | undefined {
  if (text.trim() === '') {
    problems[path] = t('forms.builder.amount.empty');
    return undefined;
  }
  const parsed = fromAmountInput(text, currency);
  if ('error' in parsed) {
    // The shared money rules say why in English: the console says the same in its own words (as the refund dialog does).
    const decimals = /decimal places .*\((\d+)\)/.exec(parsed.error);
    const step = /multiple of ([\d.]+)/.exec(parsed.error);
    problems[path] = decimals
      ? t('forms.builder.amount.decimals', { currency, decimals: Number(decimals[1]) })
      : step
        ? t('forms.builder.amount.step', { currency, step: step[1] })
        : t('forms.builder.amount.invalid', { currency });
    return undefined;
  }
  if (rule?.min !== undefined && parsed.minor < rule.min) {
    problems[path] = rule.min <= 0 ? t('forms.builder.amount.negative') : t('forms.builder.amount.atLeast', { amount: money(rule.min, currency) });
    return undefined;
  }
  if (rule?.max !== undefined && parsed.minor > rule.max) {
    problems[path] = t('forms.builder.amount.atMost', { amount: money(rule.max, currency) });
    return undefined;
  }
  return parsed.minor;
}

/** A fingerprint of what the admin can change (ids left out): equal fingerprints, nothing to save. */
export function draftFingerprint(draft: FormDraft): string {
  return JSON.stringify({
    ...draft,
    nextId: undefined,
    plans: draft.plans.map((plan) => ({ ...plan, id: undefined, prices: plan.prices.map((price) => ({ ...price, id: undefined })) })),
    fields: draft.fields.map((field) => ({ ...field, id: undefined })),
  });
}
