import type { Dispatch } from 'react';
import { FormattedMessage } from 'react-intl';
import type { components } from '../../../../../clients/typescript/index';
import { type BuilderOption, type BuilderRules, RULE_KEYS } from '../common/builder-rules';
import {
  type Currency,
  type DraftAction,
  type FieldType,
  type FormDraft,
  type Frequency,
  isCoreField,
  isPlaceholderAddress,
  missingCoreFields,
  type FormLocale,
  type NewItemDefaults,
  ONE_TIME,
  type PriceDraft,
  REQUIRED_FIELD,
  type SubmitAction,
} from '../common/form-draft';
import { currencyName } from '../../../format';
import { type Translate, useT } from '../../../i18n/use-t';
import { CheckboxInput, Group, SelectInput, TextInput } from './inputs';
import { PAYER_LANGUAGES } from '../../../payer-languages';

type Catalog = components['schemas']['GatewayCatalogDto'];

interface EditorProps {
  draft: FormDraft;
  dispatch: Dispatch<DraftAction>;
  rules: BuilderRules;
}

/** Title, description and whether the title shows. */
export function GeneralSection({ draft, dispatch, rules }: EditorProps) {
  const t = useT();
  return (
    <section className="card" aria-labelledby="section-general">
      <h2 id="section-general">{t('forms.builder.general.title')}</h2>
      <TextInput path="title" label={t('forms.builder.general.formTitle')} required maxLength={rules.maxLength(RULE_KEYS.title)} value={draft.title} onChange={(title) => dispatch({ type: 'update', patch: { title } })} />
      <TextInput
        path="settings.display.description"
        label={t('forms.builder.general.description')}
        help={t('forms.builder.general.descriptionHelp')}
        multiline
        maxLength={rules.maxLength(RULE_KEYS.description)}
        value={draft.description}
        onChange={(description) => dispatch({ type: 'update', patch: { description } })}
      />
      <CheckboxInput path="settings.display.show_title" label={t('forms.builder.general.showTitle')} checked={draft.showTitle} onChange={(showTitle) => dispatch({ type: 'update', patch: { showTitle } })} />
      <SelectInput
        path="settings.display.locale"
        label={t('forms.builder.general.locale')}
        help={t('forms.builder.general.localeHelp')}
        value={draft.locale}
        options={[{ value: 'auto', label: t('forms.builder.general.localeAuto') }, ...PAYER_LANGUAGES]}
        onChange={(locale) => dispatch({ type: 'update', patch: { locale: locale as FormLocale } })}
      />
    </section>
  );
}

/** The server's defaults for a new plan and price (builder data), with safe stand-ins. */
function newItemDefaults(rules: BuilderRules, t: Translate): NewItemDefaults {
  const title = rules.get(RULE_KEYS.planTitle)?.default;
  const amount = rules.get(RULE_KEYS.amount)?.default;
  const currency = rules.get(RULE_KEYS.currency)?.default;
  return {
    planTitle: typeof title === 'string' ? title : t('forms.builder.plans.newPlan'),
    amount: typeof amount === 'number' ? amount : 1000,
    currency: (typeof currency === 'string' ? currency : 'USD') as Currency,
  };
}

/** Plans, each with its prices: amount in the price's currency, frequency (one time or a subscription), setup fee, payer-entered amounts. */
export function PlansSection({ draft, dispatch, rules }: EditorProps) {
  const t = useT();
  const defaults = newItemDefaults(rules, t);
  const currencies = currencyOptions(rules);
  const frequencies = frequencyOptions(rules, t);
  return (
    <section className="card" aria-labelledby="section-plans">
      <h2 id="section-plans">{t('forms.builder.plans.title')}</h2>
      <Group path="settings.plans" legend={<span className="visually-hidden">{t('forms.builder.plans.plans')}</span>} className="plain">
        {draft.plans.map((plan, p) => (
          <Group key={plan.id} path={`settings.plans.${p}`} legend={t('forms.builder.plans.plan', { plan: p + 1 })} className="plan">
            <TextInput
              path={`settings.plans.${p}.title`}
              label={t('forms.builder.plans.planTitle')}
              required
              maxLength={rules.maxLength(RULE_KEYS.planTitle)}
              value={plan.title}
              onChange={(title) => dispatch({ type: 'plan-title', plan: plan.id, title })}
            />
            <Group path={`settings.plans.${p}.prices`} legend={<span className="visually-hidden">{t('forms.builder.plans.prices', { plan: p + 1 })}</span>} className="plain">
              {plan.prices.map((price, i) => {
                const at = `settings.plans.${p}.prices.${i}`;
                const set = (patch: Partial<Omit<PriceDraft, 'id'>>) => dispatch({ type: 'price', plan: plan.id, price: price.id, patch });
                const recurring = price.frequency !== ONE_TIME;
                return (
                  <Group key={price.id} path={at} legend={t('forms.builder.plans.price', { plan: p + 1, price: i + 1 })} className="price">
                    <div className="field-row">
                      <TextInput
                        path={`${at}.amount`}
                        label={t('forms.builder.plans.amount', { currency: price.currency, suggested: String(price.customAmount) })}
                        required
                        inputMode="decimal"
                        value={price.amount}
                        onChange={(amount) => set({ amount })}
                      />
                      <SelectInput path={`${at}.currency`} label={t('forms.builder.plans.currency')} options={currencies} value={price.currency} onChange={(currency) => set({ currency: currency as Currency })} />
                      <SelectInput
                        path={`${at}.frequency`}
                        label={t('forms.builder.plans.billing')}
                        help={recurring ? t('forms.builder.plans.billingHelp') : undefined}
                        options={frequencies}
                        value={price.frequency}
                        onChange={(frequency) => set({ frequency: frequency as Frequency })}
                      />
                    </div>
                    {recurring && (
                      <TextInput
                        path={`${at}.setup_amount`}
                        label={t('forms.builder.plans.setupFee', { currency: price.currency })}
                        help={t('forms.builder.plans.setupFeeHelp')}
                        inputMode="decimal"
                        value={price.setupFee}
                        onChange={(setupFee) => set({ setupFee })}
                      />
                    )}
                    <CheckboxInput
                      path={`${at}.custom_amount`}
                      label={t('forms.builder.plans.customAmount')}
                      checked={price.customAmount}
                      onChange={(customAmount) => set(customAmount && !price.customMin ? { customAmount, customMin: price.amount, customMax: price.amount } : { customAmount })}
                    />
                    {price.customAmount && (
                      <div className="field-row">
                        <TextInput path={`${at}.custom_amount.min`} label={t('forms.builder.plans.minimum', { currency: price.currency })} required inputMode="decimal" value={price.customMin} onChange={(customMin) => set({ customMin })} />
                        <TextInput path={`${at}.custom_amount.max`} label={t('forms.builder.plans.maximum', { currency: price.currency })} required inputMode="decimal" value={price.customMax} onChange={(customMax) => set({ customMax })} />
                      </div>
                    )}
                    {rules.canRemove(RULE_KEYS.prices, plan.prices.length) && (
                      <button type="button" className="button button-quiet" onClick={() => dispatch({ type: 'remove-price', plan: plan.id, price: price.id })}>
                        {t('forms.builder.plans.removePrice', { plan: p + 1, price: i + 1 })}
                      </button>
                    )}
                  </Group>
                );
              })}
            </Group>
            <div className="button-row">
              {rules.canAdd(RULE_KEYS.prices, plan.prices.length) && (
                <button type="button" className="button" onClick={() => dispatch({ type: 'add-price', plan: plan.id, defaults })}>
                  {t('forms.builder.plans.addPrice', { plan: p + 1 })}
                </button>
              )}
              {rules.canRemove(RULE_KEYS.plans, draft.plans.length) && (
                <button type="button" className="button button-danger" onClick={() => dispatch({ type: 'remove-plan', plan: plan.id })}>
                  {t('forms.builder.plans.removePlan', { plan: p + 1 })}
                </button>
              )}
            </div>
          </Group>
        ))}
      </Group>
      {rules.canAdd(RULE_KEYS.plans, draft.plans.length) && (
        <button type="button" className="button" onClick={() => dispatch({ type: 'add-plan', defaults })}>
          {t('forms.builder.plans.addPlan')}
        </button>
      )}
    </section>
  );
}

/** The methods of each gateway the catalog lists (labels, states and limits from the API). */
export function MethodsSection({ draft, dispatch, catalog }: Omit<EditorProps, 'rules'> & { catalog: Catalog }) {
  const t = useT();
  const recurring = draft.plans.some((plan) => plan.prices.some((price) => price.frequency !== ONE_TIME));
  return (
    <section className="card" aria-labelledby="section-methods">
      <h2 id="section-methods">{t('forms.builder.methods.title')}</h2>
      <Group path="settings.payment_methods" legend={<span className="visually-hidden">{t('forms.builder.methods.perGateway')}</span>} className="plain">
        {catalog.gateways.map((gateway) => {
          const enabled = draft.methods[gateway.id] ?? [];
          const order = gateway.methods.map((method) => method.id);
          return (
            <Group key={gateway.id} path={`settings.payment_methods.${gateway.id}`} legend={gateway.label}>
              {!gateway.supports_recurring && (
                <p className="field-help">{t('forms.builder.methods.oneTimeOnly', { recurring: String(recurring) })}</p>
              )}
              {gateway.methods.map((method) => {
                const notes = [
                  !method.active && t('forms.builder.methods.notActive'),
                  !method.hosted_page && t('forms.builder.methods.notHosted'),
                  method.pro_only && catalog.plan !== 'pro' && t('forms.builder.methods.needsPro'),
                ].filter(Boolean);
                const id = `method-${gateway.id}-${method.id}`;
                return (
                  <div className="check" key={method.id}>
                    <input
                      id={id}
                      type="checkbox"
                      checked={enabled.includes(method.id)}
                      aria-describedby={notes.length > 0 ? `${id}-note` : undefined}
                      onChange={(event) => dispatch({ type: 'method', gateway: gateway.id, method: method.id, enabled: event.target.checked, order })}
                    />
                    <label htmlFor={id}>{method.label}</label>
                    {notes.length > 0 && (
                      <span className="field-help" id={`${id}-note`}>
                        ({notes.join('; ')})
                      </span>
                    )}
                  </div>
                );
              })}
            </Group>
          );
        })}
      </Group>
    </section>
  );
}

/** The payer fields: the core fields (fixed names and types) and custom ones. */
export function FieldsSection({ draft, dispatch, rules }: EditorProps) {
  const t = useT();
  const missing = missingCoreFields(draft);
  const typeOptions = rules.options(RULE_KEYS.fieldType).map((option) => ({ value: option.value, label: t('forms.builder.fields.type', { type: option.value, label: option.label }) }));
  return (
    <section className="card" aria-labelledby="section-fields">
      <h2 id="section-fields">{t('forms.builder.fields.title')}</h2>
      <p className="field-help">{t('forms.builder.fields.intro')}</p>
      <Group path="settings.fields" legend={<span className="visually-hidden">{t('forms.builder.fields.title')}</span>} className="plain">
        {draft.fields.map((field, f) => {
          const at = `settings.fields.${f}`;
          const core = isCoreField(field.name);
          const set = (patch: { name?: string; type?: FieldType; label?: string; required?: boolean; options?: string }) => dispatch({ type: 'field', field: field.id, patch });
          return (
            <Group key={field.id} path={at} legend={t('forms.builder.fields.legend', { field: f + 1, name: field.label || field.name })} className="payer-field">
              {core ? (
                <p className="muted">{t('forms.builder.fields.builtIn', { name: field.name })}</p>
              ) : (
                <div className="field-row">
                  <TextInput
                    path={`${at}.name`}
                    label={t('forms.builder.fields.name')}
                    help={t('forms.builder.fields.nameHelp')}
                    required
                    maxLength={rules.maxLength(RULE_KEYS.fieldName)}
                    value={field.name}
                    onChange={(name) => set({ name })}
                  />
                  <SelectInput path={`${at}.type`} label={t('forms.builder.fields.typeLabel')} options={typeOptions} value={field.type} onChange={(type) => set({ type: type as FieldType })} />
                </div>
              )}
              <TextInput path={`${at}.label`} label={t('forms.builder.fields.label')} required maxLength={rules.maxLength(RULE_KEYS.fieldLabel)} value={field.label} onChange={(text) => set({ label: text })} />
              {field.type === 'select' && (
                <TextInput path={`${at}.options`} label={t('forms.builder.fields.choices')} help={t('forms.builder.fields.choicesHelp')} required multiline value={field.options} onChange={(options) => set({ options })} />
              )}
              <CheckboxInput path={`${at}.required`} label={t('forms.builder.fields.required')} checked={field.required} onChange={(required) => set({ required })} />
              <div className="button-row">
                <button type="button" className="button" disabled={f === 0} onClick={() => dispatch({ type: 'move-field', field: field.id, by: -1 })}>
                  {t('forms.builder.fields.moveUp')}
                  <span className="visually-hidden">{t('forms.builder.fields.which', { field: f + 1 })}</span>
                </button>
                <button type="button" className="button" disabled={f === draft.fields.length - 1} onClick={() => dispatch({ type: 'move-field', field: field.id, by: 1 })}>
                  {t('forms.builder.fields.moveDown')}
                  <span className="visually-hidden">{t('forms.builder.fields.which', { field: f + 1 })}</span>
                </button>
                {field.name !== REQUIRED_FIELD && (
                  <button type="button" className="button button-danger" onClick={() => dispatch({ type: 'remove-field', field: field.id })}>
                    {t('forms.builder.fields.remove')}
                    <span className="visually-hidden">{t('forms.builder.fields.which', { field: f + 1 })}</span>
                  </button>
                )}
              </div>
            </Group>
          );
        })}
      </Group>
      <div className="button-row">
        {rules.canAdd(RULE_KEYS.fields, draft.fields.length) && (
          <button type="button" className="button" onClick={() => dispatch({ type: 'add-field' })}>
            {t('forms.builder.fields.addCustom')}
          </button>
        )}
        {missing.map((name) => (
          <button key={name} type="button" className="button" onClick={() => dispatch({ type: 'add-field', name })}>
            {t('forms.builder.fields.addCore', { name })}
          </button>
        ))}
      </div>
    </section>
  );
}

/** What happens after a completed payment. */
export function AfterPaymentSection({ draft, dispatch, rules }: EditorProps) {
  const t = useT();
  const actions = rules.options(RULE_KEYS.submitActions);
  const order = actions.map((action) => action.value as SubmitAction);
  return (
    <section className="card" aria-labelledby="section-after">
      <h2 id="section-after">{t('forms.builder.after.title')}</h2>
      <Group path="settings.submit_actions" legend={t('forms.builder.after.actions')}>
        {actions.map((action) => (
          <div className="check" key={action.value}>
            <input
              id={`action-${action.value}`}
              type="checkbox"
              checked={draft.submitActions.includes(action.value as SubmitAction)}
              onChange={(event) => dispatch({ type: 'action', action: action.value as SubmitAction, enabled: event.target.checked, order })}
            />
            <label htmlFor={`action-${action.value}`}>{t('forms.builder.after.action', { action: action.value, label: action.label })}</label>
          </div>
        ))}
      </Group>
      <TextInput
        path="settings.success_message"
        label={t('forms.builder.after.successMessage')}
        help={t('forms.builder.after.successMessageHelp')}
        multiline
        maxLength={rules.maxLength(RULE_KEYS.successMessage)}
        value={draft.successMessage}
        onChange={(successMessage) => dispatch({ type: 'update', patch: { successMessage } })}
      />
      <TextInput
        path="settings.redirect_url"
        label={t('forms.builder.after.redirect')}
        help={t('forms.builder.after.redirectHelp')}
        type="url"
        inputMode="url"
        maxLength={rules.maxLength(RULE_KEYS.redirectUrl)}
        value={draft.redirectUrl}
        onChange={(redirectUrl) => dispatch({ type: 'update', patch: { redirectUrl } })}
      />
    </section>
  );
}

/** Who is told about a payment, and how the emails are titled. */
export function EmailSection({ draft, dispatch, rules }: EditorProps) {
  const t = useT();
  const set = (patch: Partial<FormDraft['email']>) => dispatch({ type: 'email', patch });
  return (
    <section className="card" aria-labelledby="section-email">
      <h2 id="section-email">{t('forms.builder.email.title')}</h2>
      <p className="field-help">
        <FormattedMessage id="forms.builder.email.subjectTags" values={SUBJECT_TAGS} />
      </p>
      <TextInput
        path="settings.email.email_to"
        label={t('forms.builder.email.to')}
        type="email"
        inputMode="email"
        required
        maxLength={rules.maxLength(RULE_KEYS.emailTo)}
        value={draft.email.email_to}
        onChange={(email_to) => set({ email_to })}
        help={
          isPlaceholderAddress(draft.email.email_to)
            ? t('forms.builder.email.placeholderAddress')
            : t('forms.builder.email.toHelp')
        }
      />
      <TextInput path="settings.email.admin_subject" label={t('forms.builder.email.adminSubject')} required maxLength={rules.maxLength(RULE_KEYS.adminSubject)} value={draft.email.admin_subject} onChange={(admin_subject) => set({ admin_subject })} />
      <TextInput path="settings.email.payer_subject" label={t('forms.builder.email.payerSubject')} required maxLength={rules.maxLength(RULE_KEYS.payerSubject)} value={draft.email.payer_subject} onChange={(payer_subject) => set({ payer_subject })} />
      <TextInput path="settings.email.from_name" label={t('forms.builder.email.fromName')} required maxLength={rules.maxLength(RULE_KEYS.fromName)} value={draft.email.from_name} onChange={(from_name) => set({ from_name })} />
      <CheckboxInput
        path="settings.email.renewal_failure_emails"
        label={t('forms.builder.email.renewalFailure')}
        help={t('forms.builder.email.renewalFailureHelp')}
        checked={draft.email.renewal_failure_emails !== false}
        onChange={(renewal_failure_emails) => set({ renewal_failure_emails })}
      />
    </section>
  );
}

/** The pay button's label, the accent colour and the layout. */
export function DisplaySection({ draft, dispatch, rules }: EditorProps) {
  const t = useT();
  const layouts = rules.options(RULE_KEYS.layout).map((option) => ({ value: option.value, label: t('forms.builder.display.layoutName', { layout: option.value, label: option.label }) }));
  const colour = rules.get(RULE_KEYS.primaryColor)?.default;
  const defaultColour = typeof colour === 'string' && /^#[0-9a-f]{6}$/i.test(colour) ? colour : '#2563eb';
  return (
    <section className="card" aria-labelledby="section-display">
      <h2 id="section-display">{t('forms.builder.display.title')}</h2>
      <TextInput
        path="settings.display.button_label"
        label={t('forms.builder.display.buttonLabel')}
        help={t('forms.builder.display.buttonLabelHelp')}
        maxLength={rules.maxLength(RULE_KEYS.buttonLabel)}
        value={draft.buttonLabel}
        onChange={(buttonLabel) => dispatch({ type: 'update', patch: { buttonLabel } })}
      />
      <TextInput
        path="settings.display.primary_color"
        label={t('forms.builder.display.colour')}
        help={draft.primaryColor ? undefined : t('forms.builder.display.colourHelp')}
        type="color"
        value={draft.primaryColor || defaultColour}
        onChange={(primaryColor) => dispatch({ type: 'update', patch: { primaryColor } })}
      />
      <SelectInput
        path="settings.display.layout"
        label={t('forms.builder.display.layout')}
        options={[{ value: '', label: t('forms.builder.display.layoutDefault') }, ...layouts]}
        value={draft.layout}
        onChange={(layout) => dispatch({ type: 'update', patch: { layout: layout as FormDraft['layout'] } })}
      />
    </section>
  );
}

/** The placeholders an email subject may use, each shown as code (`{form_title}`…). */
const SUBJECT_TAGS = Object.fromEntries(['form_title', 'amount', 'payer_name', 'payer_email', 'payment_id'].map((tag) => [tag, <code key={tag}>{`{${tag}}`}</code>]));

/**
 * The server's currency choices named in the console's language: the server's labels are English
 * ("EUR (Euro)"); the code is the stable value, and `Intl` names it ("EUR (Euro)", "USD (US-Dollar)").
 */
function currencyOptions(rules: BuilderRules): BuilderOption[] {
  return rules.options(RULE_KEYS.currency).map((option) => ({ value: option.value, label: `${option.value} (${currencyName(option.value)})` }));
}

/** The server's billing choices in the console's words, by their stable id (`one-time`, `m_3`); an id the console does not know keeps the server's label. */
function frequencyOptions(rules: BuilderRules, t: Translate): BuilderOption[] {
  return rules.options(RULE_KEYS.frequency).map((option) => {
    const match = /^([dwmy])_(\d+)$/.exec(option.value);
    const label = option.value === ONE_TIME ? t('forms.builder.plans.once') : match ? t('forms.builder.plans.every', { unit: match[1], count: Number(match[2]) }) : option.label;
    return { value: option.value, label };
  });
}
