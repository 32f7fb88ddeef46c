import type { FormField, FormPlan, FormTranslation } from './form-settings.js';

/**
 * A form's own texts as payers of one language read them (issue 32): each gives that language's
 * version (`settings.translations`) where the form has one, the text as written otherwise. The
 * one place of this rule, for everything a payer reads: the hosted page, the embed and the public
 * form (form-view's `localizePayerForm`) and the payer's emails (mail/).
 */
export interface FormTexts {
  title(asWritten: string): string;
  description<T extends string | null>(asWritten: T): string | T;
  buttonLabel(asWritten: string): string;
  /** Replaces only a message of the merchant's own (null: the form has none, the service's default is shown) */
  successMessage<T extends string | null>(own: T): string | T;
  /** A field's label, by the field's `name` */
  fieldLabel(field: FormField): string;
  /**
   * The label shown for each of a select field's choices, in the order of its `options` (empty when it
   * has none). Only what is shown: the value a payer submits and a payment stores is the choice as written.
   */
  optionLabels(field: FormField): string[];
  /** The label of a chosen value of a select field (the value itself when it is none of its choices) */
  optionLabel(field: FormField, value: string): string;
  /** The subject template of the payer's confirmation email (`email.payer_subject`) */
  payerSubject(asWritten: string): string;
  /** A plan's title, by the plan's position in `settings.plans` (its `plan_index`) */
  planTitle(plan: FormPlan, planIndex: number): string;
}

export function formTextsIn(translations: readonly FormTranslation[] | undefined, locale: string | null | undefined): FormTexts {
  const entry = translations?.find((translation) => translation.locale === locale);
  const fieldVersion = (field: FormField) => entry?.fields?.find((version) => version.name === field.name);
  // Matched by position; a version whose count no longer matches the choices is not used (the API refuses one).
  const optionLabels = (field: FormField): string[] => {
    const options = field.options ?? [];
    const versions = fieldVersion(field)?.options;
    return versions && versions.length === options.length ? [...versions] : [...options];
  };
  return {
    title: (asWritten) => entry?.title ?? asWritten,
    description: (asWritten) => entry?.description ?? asWritten,
    buttonLabel: (asWritten) => entry?.button_label ?? asWritten,
    successMessage: (own) => (own !== null && entry?.success_message ? entry.success_message : own),
    fieldLabel: (field) => fieldVersion(field)?.label ?? field.label,
    optionLabels,
    optionLabel: (field, value) => {
      const at = field.options?.indexOf(value) ?? -1;
      return at < 0 ? value : optionLabels(field)[at];
    },
    payerSubject: (asWritten) => entry?.payer_subject ?? asWritten,
    planTitle: (plan, planIndex) => entry?.plans?.find((version) => version.plan_index === planIndex)?.title ?? plan.title,
  };
}
