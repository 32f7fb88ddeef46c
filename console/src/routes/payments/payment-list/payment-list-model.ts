import type { PaymentFilters } from '../../../api/payments';
import type { FilterValues } from '../../../components/list/list-params';

/** Pure logic of the payments list (no DOM, no React: unit-tested in payment-list-model.spec.ts). */

/** The list's filters, in the address and the form: the API's own names. */
export const PAYMENT_FILTER_NAMES = ['status', 'gateway', 'mode', 'currency', 'refunded', 'disputed', 'form_id', 'created_from', 'created_before', 'search'] as const;
export type PaymentFilterName = (typeof PAYMENT_FILTER_NAMES)[number];

/**
 * The API query of the address's filters and page (the form id as a number, the currency code in
 * upper case): with a keyset cursor (`after`, which Next puts in the address), the page after it
 * and no page number (the API refuses both); without one, the page by its number.
 */
export function paymentQueryOf(values: FilterValues<PaymentFilterName>, page: number, after?: string): PaymentFilters {
  const filters: Record<string, string | number> = {};
  for (const [name, value] of Object.entries(values) as Array<[PaymentFilterName, string]>) filters[name] = name === 'form_id' ? Number(value) : name === 'currency' ? value.toUpperCase() : value;
  if (after) filters.after = after;
  else if (page > 1) filters.page = page;
  return filters as PaymentFilters;
}

/** The refunded filter's choices, as the API names them, in merchant words. */
export const REFUNDED_OPTIONS: ReadonlyArray<readonly [NonNullable<PaymentFilters['refunded']>, string]> = [
  ['none', 'Not refunded'],
  ['partial', 'Partially refunded'],
  ['full', 'Fully refunded'],
  ['any', 'Refunded (in part or in full)'],
];

export const DISPUTED_OPTIONS: ReadonlyArray<readonly [NonNullable<PaymentFilters['disputed']>, string]> = [
  ['true', 'Disputed'],
  ['false', 'Not disputed'],
];
