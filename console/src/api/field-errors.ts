import { ApiError } from './api-error';

/** What a failed form submission shows: a message per field it names, and whether anything is left for a notice. */
export interface FormErrors<F extends string> {
  fields: Partial<Record<F, string>>;
  /** The first field (in the form's order) with a message: focus goes there. */
  first: F | null;
  /** True when the error is not (only) about fields: a 403, a 5xx, a network failure… show it as a notice. */
  notice: boolean;
}

/**
 * The API's field messages (`data.params`) for the fields of one form, in the form's order. A
 * refusal about the one value a single-field form sends (400 or 409 without params, e.g. "a tag
 * with that name already exists") belongs to that field too (`soleField`). A 403 is never a
 * field's: it says the account may not do this at all.
 */
export function formErrorsOf<F extends string>(error: unknown, fieldsInOrder: readonly F[], soleField?: F): FormErrors<F> {
  const fields: Partial<Record<F, string>> = {};
  if (!(error instanceof ApiError) || error.isForbidden || error.isSignedOut) return { fields, first: null, notice: error !== null && error !== undefined };
  for (const field of fieldsInOrder) {
    if (error.params[field]) fields[field] = error.params[field];
  }
  const named = Object.keys(fields).length;
  if (named === 0 && soleField && (error.status === 400 || error.status === 409)) fields[soleField] = error.message;
  const first = fieldsInOrder.find((field) => fields[field] !== undefined) ?? null;
  // A param the form has no field for (or no param at all) must still be seen.
  const unplaced = Object.keys(error.params).some((param) => !(fieldsInOrder as readonly string[]).includes(param));
  return { fields, first, notice: first === null || unplaced };
}
