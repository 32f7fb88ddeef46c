import type { Dispatch } from 'react';
import type { components } from '../../../../../clients/typescript/index';
import { type BuilderRules, RULE_KEYS } from '../common/builder-rules';
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
import { label } from '../../../format';
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
  return (
    <section className="card" aria-labelledby="section-general">
      <h2 id="section-general">Form</h2>
      <TextInput path="title" label="Title" required maxLength={rules.maxLength(RULE_KEYS.title)} value={draft.title} onChange={(title) => dispatch({ type: 'update', patch: { title } })} />
      <TextInput
        path="settings.display.description"
        label="Description"
        help="A short text under the title."
        multiline
        maxLength={rules.maxLength(RULE_KEYS.description)}
        value={draft.description}
        onChange={(description) => dispatch({ type: 'update', patch: { description } })}
      />
      <CheckboxInput path="settings.display.show_title" label="Show the title on the form" checked={draft.showTitle} onChange={(showTitle) => dispatch({ type: 'update', patch: { showTitle } })} />
      <SelectInput
        path="settings.display.locale"
        label="Payer's language"
        help="The language of the payment page, the embedded form and the payer's emails. Your own texts (title, labels, messages) are shown as you write them."
        value={draft.locale}
        options={[{ value: 'auto', label: "Automatic: the payer's browser, then the site's language" }, ...PAYER_LANGUAGES]}
        onChange={(locale) => dispatch({ type: 'update', patch: { locale: locale as FormLocale } })}
      />
    </section>
  );
}

/** The server's defaults for a new plan and price (builder data), with safe stand-ins. */
function newItemDefaults(rules: BuilderRules): NewItemDefaults {
  const title = rules.get(RULE_KEYS.planTitle)?.default;
  const amount = rules.get(RULE_KEYS.amount)?.default;
  const currency = rules.get(RULE_KEYS.currency)?.default;
  return {
    planTitle: typeof title === 'string' ? title : 'New plan',
    amount: typeof amount === 'number' ? amount : 1000,
    currency: (typeof currency === 'string' ? currency : 'USD') as Currency,
  };
}

/** Plans, each with its prices: amount in the price's currency, frequency (one time or a subscription), setup fee, payer-entered amounts. */
export function PlansSection({ draft, dispatch, rules }: EditorProps) {
  const defaults = newItemDefaults(rules);
  return (
    <section className="card" aria-labelledby="section-plans">
      <h2 id="section-plans">Plans and prices</h2>
      <Group path="settings.plans" legend={<span className="visually-hidden">Plans</span>} className="plain">
        {draft.plans.map((plan, p) => (
          <Group key={plan.id} path={`settings.plans.${p}`} legend={`Plan ${p + 1}`} className="plan">
            <TextInput
              path={`settings.plans.${p}.title`}
              label="Plan title"
              required
              maxLength={rules.maxLength(RULE_KEYS.planTitle)}
              value={plan.title}
              onChange={(title) => dispatch({ type: 'plan-title', plan: plan.id, title })}
            />
            <Group path={`settings.plans.${p}.prices`} legend={<span className="visually-hidden">Prices of plan {p + 1}</span>} className="plain">
              {plan.prices.map((price, i) => {
                const at = `settings.plans.${p}.prices.${i}`;
                const set = (patch: Partial<Omit<PriceDraft, 'id'>>) => dispatch({ type: 'price', plan: plan.id, price: price.id, patch });
                const recurring = price.frequency !== ONE_TIME;
                return (
                  <Group key={price.id} path={at} legend={`Plan ${p + 1}, price ${i + 1}`} className="price">
                    <div className="field-row">
                      <TextInput
                        path={`${at}.amount`}
                        label={price.customAmount ? `Suggested amount (${price.currency})` : `Amount (${price.currency})`}
                        required
                        inputMode="decimal"
                        value={price.amount}
                        onChange={(amount) => set({ amount })}
                      />
                      <SelectInput path={`${at}.currency`} label="Currency" options={rules.options(RULE_KEYS.currency)} value={price.currency} onChange={(currency) => set({ currency: currency as Currency })} />
                      <SelectInput
                        path={`${at}.frequency`}
                        label="Billing"
                        help={recurring ? 'A subscription: charged again at this interval.' : undefined}
                        options={rules.options(RULE_KEYS.frequency)}
                        value={price.frequency}
                        onChange={(frequency) => set({ frequency: frequency as Frequency })}
                      />
                    </div>
                    {recurring && (
                      <TextInput
                        path={`${at}.setup_amount`}
                        label={`Setup fee (${price.currency})`}
                        help="Charged once with the first payment. Leave empty for none."
                        inputMode="decimal"
                        value={price.setupFee}
                        onChange={(setupFee) => set({ setupFee })}
                      />
                    )}
                    <CheckboxInput
                      path={`${at}.custom_amount`}
                      label="The payer enters the amount"
                      checked={price.customAmount}
                      onChange={(customAmount) => set(customAmount && !price.customMin ? { customAmount, customMin: price.amount, customMax: price.amount } : { customAmount })}
                    />
                    {price.customAmount && (
                      <div className="field-row">
                        <TextInput path={`${at}.custom_amount.min`} label={`Minimum (${price.currency})`} required inputMode="decimal" value={price.customMin} onChange={(customMin) => set({ customMin })} />
                        <TextInput path={`${at}.custom_amount.max`} label={`Maximum (${price.currency})`} required inputMode="decimal" value={price.customMax} onChange={(customMax) => set({ customMax })} />
                      </div>
                    )}
                    {rules.canRemove(RULE_KEYS.prices, plan.prices.length) && (
                      <button type="button" className="button button-quiet" onClick={() => dispatch({ type: 'remove-price', plan: plan.id, price: price.id })}>
                        Remove price {i + 1} of plan {p + 1}
                      </button>
                    )}
                  </Group>
                );
              })}
            </Group>
            <div className="button-row">
              {rules.canAdd(RULE_KEYS.prices, plan.prices.length) && (
                <button type="button" className="button" onClick={() => dispatch({ type: 'add-price', plan: plan.id, defaults })}>
                  Add a price to plan {p + 1}
                </button>
              )}
              {rules.canRemove(RULE_KEYS.plans, draft.plans.length) && (
                <button type="button" className="button button-danger" onClick={() => dispatch({ type: 'remove-plan', plan: plan.id })}>
                  Remove plan {p + 1}
                </button>
              )}
            </div>
          </Group>
        ))}
      </Group>
      {rules.canAdd(RULE_KEYS.plans, draft.plans.length) && (
        <button type="button" className="button" onClick={() => dispatch({ type: 'add-plan', defaults })}>
          Add a plan
        </button>
      )}
    </section>
  );
}

/** The methods of each gateway the catalog lists (labels, states and limits from the API). */
export function MethodsSection({ draft, dispatch, catalog }: Omit<EditorProps, 'rules'> & { catalog: Catalog }) {
  const recurring = draft.plans.some((plan) => plan.prices.some((price) => price.frequency !== ONE_TIME));
  return (
    <section className="card" aria-labelledby="section-methods">
      <h2 id="section-methods">Payment methods</h2>
      <Group path="settings.payment_methods" legend={<span className="visually-hidden">Payment methods per gateway</span>} className="plain">
        {catalog.gateways.map((gateway) => {
          const enabled = draft.methods[gateway.id] ?? [];
          const order = gateway.methods.map((method) => method.id);
          return (
            <Group key={gateway.id} path={`settings.payment_methods.${gateway.id}`} legend={gateway.label}>
              {!gateway.supports_recurring && (
                <p className="field-help">
                  Takes one-time prices only{recurring ? ': payers of a subscription price of this form cannot choose it.' : '.'}
                </p>
              )}
              {gateway.methods.map((method) => {
                const notes = [
                  !method.active && 'not active on this site yet',
                  !method.hosted_page && 'not offered on the hosted page',
                  method.pro_only && catalog.plan !== 'pro' && 'needs the Pro plan',
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
  const missing = missingCoreFields(draft);
  const typeOptions = rules.options(RULE_KEYS.fieldType);
  return (
    <section className="card" aria-labelledby="section-fields">
      <h2 id="section-fields">Payer fields</h2>
      <p className="field-help">What the form asks the payer. The email address is always asked.</p>
      <Group path="settings.fields" legend={<span className="visually-hidden">Payer fields</span>} className="plain">
        {draft.fields.map((field, f) => {
          const at = `settings.fields.${f}`;
          const core = isCoreField(field.name);
          const set = (patch: { name?: string; type?: FieldType; label?: string; required?: boolean; options?: string }) => dispatch({ type: 'field', field: field.id, patch });
          return (
            <Group key={field.id} path={at} legend={`Field ${f + 1}: ${field.label || field.name}`} className="payer-field">
              {core ? (
                <p className="muted">
                  Built-in field: {label(field.name)}. Its name and type are fixed; its label and whether it is required are yours.
                </p>
              ) : (
                <div className="field-row">
                  <TextInput
                    path={`${at}.name`}
                    label="Name"
                    help="Lower case letters, digits and _ (the key in payment records)."
                    required
                    maxLength={rules.maxLength(RULE_KEYS.fieldName)}
                    value={field.name}
                    onChange={(name) => set({ name })}
                  />
                  <SelectInput path={`${at}.type`} label="Type" options={typeOptions} value={field.type} onChange={(type) => set({ type: type as FieldType })} />
                </div>
              )}
              <TextInput path={`${at}.label`} label="Label" required maxLength={rules.maxLength(RULE_KEYS.fieldLabel)} value={field.label} onChange={(text) => set({ label: text })} />
              {field.type === 'select' && (
                <TextInput path={`${at}.options`} label="Choices" help="One per line." required multiline value={field.options} onChange={(options) => set({ options })} />
              )}
              <CheckboxInput path={`${at}.required`} label="Required" checked={field.required} onChange={(required) => set({ required })} />
              <div className="button-row">
                <button type="button" className="button" disabled={f === 0} onClick={() => dispatch({ type: 'move-field', field: field.id, by: -1 })}>
                  Move up<span className="visually-hidden"> field {f + 1}</span>
                </button>
                <button type="button" className="button" disabled={f === draft.fields.length - 1} onClick={() => dispatch({ type: 'move-field', field: field.id, by: 1 })}>
                  Move down<span className="visually-hidden"> field {f + 1}</span>
                </button>
                {field.name !== REQUIRED_FIELD && (
                  <button type="button" className="button button-danger" onClick={() => dispatch({ type: 'remove-field', field: field.id })}>
                    Remove<span className="visually-hidden"> field {f + 1}</span>
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
            Add a custom field
          </button>
        )}
        {missing.map((name) => (
          <button key={name} type="button" className="button" onClick={() => dispatch({ type: 'add-field', name })}>
            Add the {name.replace(/_/g, ' ')} field
          </button>
        ))}
      </div>
    </section>
  );
}

/** What happens after a completed payment. */
export function AfterPaymentSection({ draft, dispatch, rules }: EditorProps) {
  const actions = rules.options(RULE_KEYS.submitActions);
  const order = actions.map((action) => action.value as SubmitAction);
  return (
    <section className="card" aria-labelledby="section-after">
      <h2 id="section-after">After payment</h2>
      <Group path="settings.submit_actions" legend="Actions">
        {actions.map((action) => (
          <div className="check" key={action.value}>
            <input
              id={`action-${action.value}`}
              type="checkbox"
              checked={draft.submitActions.includes(action.value as SubmitAction)}
              onChange={(event) => dispatch({ type: 'action', action: action.value as SubmitAction, enabled: event.target.checked, order })}
            />
            <label htmlFor={`action-${action.value}`}>{ACTION_LABELS[action.value] ?? action.label}</label>
          </div>
        ))}
      </Group>
      <TextInput
        path="settings.success_message"
        label="Success message"
        help="Shown to the payer after paying (with the message action)."
        multiline
        maxLength={rules.maxLength(RULE_KEYS.successMessage)}
        value={draft.successMessage}
        onChange={(successMessage) => dispatch({ type: 'update', patch: { successMessage } })}
      />
      <TextInput
        path="settings.redirect_url"
        label="Redirect to"
        help="An http(s) address the payer is sent to after paying (with the redirect action)."
        type="url"
        inputMode="url"
        maxLength={rules.maxLength(RULE_KEYS.redirectUrl)}
        value={draft.redirectUrl}
        onChange={(redirectUrl) => dispatch({ type: 'update', patch: { redirectUrl } })}
      />
    </section>
  );
}

/** Clearer names for the interface's action ids; an action the console does not know keeps the server's label. */
const ACTION_LABELS: Record<string, string> = {
  email: 'Send the notification and the payer confirmation emails',
  redirect: 'Send the payer to another address',
  message: 'Show a success message',
};

/** Who is told about a payment, and how the emails are titled. */
export function EmailSection({ draft, dispatch, rules }: EditorProps) {
  const set = (patch: Partial<FormDraft['email']>) => dispatch({ type: 'email', patch });
  return (
    <section className="card" aria-labelledby="section-email">
      <h2 id="section-email">Emails</h2>
      <p className="field-help">
        Subjects may use <code>{'{form_title}'}</code>, <code>{'{amount}'}</code>, <code>{'{payer_name}'}</code>, <code>{'{payer_email}'}</code> and <code>{'{payment_id}'}</code>.
      </p>
      <TextInput
        path="settings.email.email_to"
        label="Send the notification to"
        type="email"
        inputMode="email"
        required
        maxLength={rules.maxLength(RULE_KEYS.emailTo)}
        value={draft.email.email_to}
        onChange={(email_to) => set({ email_to })}
        help={
          isPlaceholderAddress(draft.email.email_to)
            ? 'This address cannot receive mail (it is a stand-in): enter the address where you want to hear about each payment.'
            : 'You get an email here for each payment.'
        }
      />
      <TextInput path="settings.email.admin_subject" label="Notification subject" required maxLength={rules.maxLength(RULE_KEYS.adminSubject)} value={draft.email.admin_subject} onChange={(admin_subject) => set({ admin_subject })} />
      <TextInput path="settings.email.payer_subject" label="Payer confirmation subject" required maxLength={rules.maxLength(RULE_KEYS.payerSubject)} value={draft.email.payer_subject} onChange={(payer_subject) => set({ payer_subject })} />
      <TextInput path="settings.email.from_name" label="Sender name" required maxLength={rules.maxLength(RULE_KEYS.fromName)} value={draft.email.from_name} onChange={(from_name) => set({ from_name })} />
      <CheckboxInput
        path="settings.email.renewal_failure_emails"
        label="Email the payer when a subscription renewal fails"
        help="Each failed attempt, with the amount, the provider's next try and a link to update their card; once more if the provider gives up. You see it on the dashboard either way."
        checked={draft.email.renewal_failure_emails !== false}
        onChange={(renewal_failure_emails) => set({ renewal_failure_emails })}
      />
    </section>
  );
}

/** The pay button's label, the accent colour and the layout. */
export function DisplaySection({ draft, dispatch, rules }: EditorProps) {
  const layouts = rules.options(RULE_KEYS.layout);
  const colour = rules.get(RULE_KEYS.primaryColor)?.default;
  const defaultColour = typeof colour === 'string' && /^#[0-9a-f]{6}$/i.test(colour) ? colour : '#2563eb';
  return (
    <section className="card" aria-labelledby="section-display">
      <h2 id="section-display">Display</h2>
      <TextInput
        path="settings.display.button_label"
        label="Button label"
        help="Leave empty for the default."
        maxLength={rules.maxLength(RULE_KEYS.buttonLabel)}
        value={draft.buttonLabel}
        onChange={(buttonLabel) => dispatch({ type: 'update', patch: { buttonLabel } })}
      />
      <TextInput
        path="settings.display.primary_color"
        label="Accent colour"
        help={draft.primaryColor ? undefined : 'The default colour until you choose one.'}
        type="color"
        value={draft.primaryColor || defaultColour}
        onChange={(primaryColor) => dispatch({ type: 'update', patch: { primaryColor } })}
      />
      <SelectInput
        path="settings.display.layout"
        label="Layout"
        options={[{ value: '', label: 'Default' }, ...layouts]}
        value={draft.layout}
        onChange={(layout) => dispatch({ type: 'update', patch: { layout: layout as FormDraft['layout'] } })}
      />
    </section>
  );
}
