/**
 * A list screen's filters and page as the address holds them (pure: unit-tested in
 * list-params.spec.ts). The address is the one source: shareable, kept on reload and on Back.
 */
export type FilterValues<N extends string> = Partial<Record<N, string>>;

/** The address's filters as they are (trimmed, empty ones dropped), for the form's fields and the query. */
export function filterValuesFrom<N extends string>(params: URLSearchParams, names: readonly N[]): FilterValues<N> {
  const values: FilterValues<N> = {};
  for (const name of names) {
    const value = params.get(name)?.trim();
    if (value) values[name] = value;
  }
  return values;
}

/** The page of the address: 1 unless `page` is a whole number above 1. */
export function pageFrom(params: URLSearchParams): number {
  const page = Number(params.get('page'));
  return Number.isInteger(page) && page > 1 ? page : 1;
}

/** The address for a filter form's values: in the names' order, empty ones left out, back to the first page. */
export function searchParamsFor<N extends string>(values: FilterValues<N>, names: readonly N[]): URLSearchParams {
  const next = new URLSearchParams();
  for (const name of names) {
    const value = values[name]?.trim();
    if (value) next.set(name, value);
  }
  return next;
}

/** The keyset cursor of the address (`after`, the previous page's X-Checkout-Next-Cursor), if any. */
export function afterFrom(params: URLSearchParams): string | undefined {
  const after = params.get('after')?.trim();
  return after ? after : undefined;
}

/**
 * The address with another page, every filter kept; with `after`, the page that follows that
 * cursor (a deep page costs the API what the first does), without it the page by its number.
 */
export function withPage(params: URLSearchParams, page: number, after?: string): URLSearchParams {
  const next = new URLSearchParams(params);
  next.set('page', String(page));
  if (after) next.set('after', after);
  else next.delete('after');
  return next;
}
