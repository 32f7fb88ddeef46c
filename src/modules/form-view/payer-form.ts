import { type FormField, type FormPlan, type FormTranslation, formTextsIn, type Frequency, type PaymentFormSettings } from '../forms/index.js';

/** What the hosted page shows after a payment when the form has no message of its own. */
export const DEFAULT_SUCCESS_MESSAGE = 'Thank you: your payment is complete.';
const DEFAULT_ACCENT = '2563eb';
/** The button's verb when the form names none ("Pay $10.00"). */
export const DEFAULT_BUTTON_LABEL = 'Pay';

/**
 * A form as a payer sees it, whatever draws it (the hosted page, the builder's preview, a custom
 * checkout through `GET /payment/form/{form_id}`): the settings resolved once, so the three cannot
 * read them differently. Merchant strings are raw here; the renderer escapes them.
 */
export interface PayerForm {
  id: number;
  title: string;
  /** `display.show_title`; a hidden title stays in the page for screen readers */
  showTitle: boolean;
  description: string | null;
  plans: FormPlan[];
  /** The form's payer fields; the email is always among them (first when the form lacks it) and always required */
  fields: PayerField[];
  /** The form's message with its `message` action on, the neutral default otherwise */
  successMessage: string;
  /** With the `redirect` action on: where the browser goes after paying */
  redirectUrl: string | null;
  buttonLabel: string;
  /** The accent colour as six lower-case hex digits (no `#`); an invalid one falls back to the default */
  accent: string;
  layout: 'stacked' | 'compact';
  /** `display.locale`: `auto` (the payer's browser, then the site's default language) or a fixed payer language */
  locale: string;
  /** The form's own texts in other payer languages (`settings.translations`) */
  translations: FormTranslation[];
}

/** A payer field; a select field's choices keep their values (`options`, what is submitted) and may show other labels */
export interface PayerField extends FormField {
  /** The label shown for each of `options`, in order (in the payer's language); the options themselves when absent */
  optionLabels?: string[];
}

/**
 * The form as payers of `locale` read it: the merchant's texts of that language where the form has
 * them (title, description, button label, success message, field labels, select choices' labels,
 * plan titles), the texts as written otherwise (the rule is forms' `formTextsIn`).
 */
export function localizePayerForm(form: PayerForm, locale: string): PayerForm {
  // Most forms have no version in the payer's language: nothing to copy on every page and read.
  if (!form.translations.some((translation) => translation.locale === locale)) return form;
  const texts = formTextsIn(form.translations, locale);
  // The default message is the service's, not the merchant's: no version of the form replaces it.
  const own = form.successMessage === DEFAULT_SUCCESS_MESSAGE ? null : form.successMessage;
  return {
    ...form,
    title: texts.title(form.title),
    description: texts.description(form.description),
    buttonLabel: texts.buttonLabel(form.buttonLabel),
    successMessage: texts.successMessage(own) ?? form.successMessage,
    fields: form.fields.map((field) => ({ ...field, label: texts.fieldLabel(field), ...(field.type === 'select' ? { optionLabels: texts.optionLabels(field) } : {}) })),
    plans: form.plans.map((plan, planIndex) => ({ ...plan, title: texts.planTitle(plan, planIndex) })),
  };
}

const EMAIL_FIELD: FormField = { name: 'email_address', type: 'email', label: 'Email', required: true };

export function toPayerForm(id: number, title: string, settings: PaymentFormSettings): PayerForm {
  const display = settings.display ?? {};
  const color = typeof display.primary_color === 'string' ? /^#([0-9a-fA-F]{6})$/.exec(display.primary_color) : null;
  const hasEmail = settings.fields.some((field) => field.name === EMAIL_FIELD.name);
  const fields = (hasEmail ? settings.fields : [EMAIL_FIELD, ...settings.fields]).map((field) =>
    field.name === EMAIL_FIELD.name ? { ...field, required: true } : field,
  );
  return {
    id,
    title,
    showTitle: display.show_title !== false,
    description: typeof display.description === 'string' && display.description ? display.description : null,
    plans: settings.plans,
    fields,
    successMessage: settings.submit_actions.includes('message') && settings.success_message ? settings.success_message : DEFAULT_SUCCESS_MESSAGE,
    redirectUrl: settings.submit_actions.includes('redirect') && settings.redirect_url ? settings.redirect_url : null,
    buttonLabel: typeof display.button_label === 'string' && display.button_label ? display.button_label : DEFAULT_BUTTON_LABEL,
    accent: color ? color[1].toLowerCase() : DEFAULT_ACCENT,
    layout: display.layout === 'compact' ? 'compact' : 'stacked',
    locale: typeof display.locale === 'string' && display.locale ? display.locale : 'auto',
    translations: settings.translations ?? [],
  };
}

export const INTERVAL_UNITS = ['day', 'week', 'month', 'year'] as const;
export type IntervalUnit = (typeof INTERVAL_UNITS)[number];

/** How often a price recurs as a unit and a count (`m_3` → every 3 months); null for a one-time price. */
export function frequencyInterval(frequency: Frequency): { unit: IntervalUnit; count: number } | null {
  if (frequency === 'one-time') return null;
  const [code, count] = frequency.split('_');
  const unit = ({ d: 'day', w: 'week', m: 'month', y: 'year' } as const)[code as 'd' | 'w' | 'm' | 'y'];
  return { unit, count: Number(count) };
}
