import type { CheckoutGateway } from '../gateways/index.js';

/**
 * The settings of a payment form (docs/decisions.md §11). Amounts are integer minor units of `currency`.
 * These types are the contract between the forms module (which validates and stores them) and
 * the payments module (which computes amounts from them on the server).
 */
export const FREQUENCIES = ['one-time', 'd_1', 'w_1', 'm_1', 'm_3', 'm_6', 'y_1', 'y_3'] as const;
export type Frequency = (typeof FREQUENCIES)[number];

export const CORE_FIELDS = ['email_address', 'first_name', 'last_name'] as const;
export const SUBMIT_ACTIONS = ['email', 'redirect', 'message'] as const;
export type SubmitAction = (typeof SUBMIT_ACTIONS)[number];

export interface CustomAmountBounds {
  min: number;
  max: number;
}

export interface FormPrice {
  amount: number;
  currency: string;
  frequency: Frequency;
  setup_amount?: number;
  /** Present when the payer enters the amount; `amount` is then the suggested default. */
  custom_amount?: CustomAmountBounds;
}

export interface FormPlan {
  title: string;
  prices: FormPrice[];
}

export interface FormField {
  name: string;
  type: 'text' | 'email' | 'textarea' | 'select' | 'checkbox' | 'number' | 'phone';
  label: string;
  required: boolean;
  options?: string[];
}

export interface FormEmailSettings {
  email_to: string;
  admin_subject: string;
  payer_subject: string;
  from_name: string;
  /** Whether the payer is emailed about a failed renewal (absent: yes) */
  renewal_failure_emails?: boolean;
}

export const FIELD_TYPES = ['text', 'email', 'textarea', 'select', 'checkbox', 'number', 'phone'] as const;
export const DISPLAY_LAYOUTS = ['stacked', 'compact'] as const;

/**
 * How the form looks: an open map of scalars. The builder offers the keys of `DISPLAY_KEYS`
 * (see payment-form-settings.dto.ts for their rules).
 */
export interface FormDisplaySettings {
  [key: string]: string | number | boolean;
}
export const DISPLAY_KEYS = ['button_label', 'primary_color', 'layout', 'show_title', 'description', 'locale'] as const;

export interface PaymentFormSettings {
  plans: FormPlan[];
  payment_methods: Partial<Record<CheckoutGateway, string[]>>;
  fields: FormField[];
  submit_actions: SubmitAction[];
  email: FormEmailSettings;
  display: FormDisplaySettings;
  redirect_url?: string;
  success_message?: string;
  /** The merchant's own texts in other payer languages (issue 32): shown to payers of that language instead of the texts above */
  translations?: FormTranslation[];
}

/** One payer language's versions of a form's own texts; a text left out is shown as written above. */
export interface FormTranslation {
  /** A payer language (common/i18n PAYER_LOCALES) */
  locale: string;
  title?: string;
  description?: string;
  button_label?: string;
  success_message?: string;
  /** The subject of the payer's confirmation email in this language (`email.payer_subject`'s placeholders) */
  payer_subject?: string;
  /** Field labels in this language, by the field's `name` */
  fields?: FormFieldTranslation[];
  /** Plan titles in this language, by the plan's position (`plan_index`, the key payments and the public form use) */
  plans?: FormPlanTranslation[];
}

export interface FormFieldTranslation {
  name: string;
  label?: string;
  /** A select field's choices as shown in this language, in the order of its `options` (one each); the value submitted and stored stays the choice as written */
  options?: string[];
}

export interface FormPlanTranslation {
  plan_index: number;
  title: string;
}

export type FormStatus = 'draft' | 'publish';

/** A payment form as other modules see it. */
export interface PaymentForm {
  id: number;
  title: string;
  status: FormStatus;
  author_id: number;
  settings: PaymentFormSettings;
  created_at: string;
  updated_at: string;
}
