import { useSearchParams } from 'react-router';
import { afterFrom, type FilterValues, filterValuesFrom, pageFrom, searchParamsFor, withPage } from './list-params';

/** A list screen's state, read from and written to the address (list-params.ts). */
export interface ListState<N extends string> {
  filterNames: readonly N[];
  /** The filters of the address (trimmed, non-empty) */
  values: FilterValues<N>;
  page: number;
  /** The keyset cursor the page follows (lists that page by keyset), else undefined */
  after: string | undefined;
  /** The address holds filters or a page: "nothing matches" rather than "nothing yet" */
  filtered: boolean;
  /** New filters from the form: back to the first page */
  apply: (values: FilterValues<N>) => void;
  /** Another page: by its number, or (`after`) the page that follows a cursor */
  setPage: (page: number, after?: string) => void;
  /** Changes with the address: the filter form is drawn again from it (Back, a link, Clear filters) */
  version: string;
}

/** Address ⇄ filters ⇄ page for a list screen with these filters. */
export function useListState<const N extends string>(filterNames: readonly N[]): ListState<N> {
  const [params, setParams] = useSearchParams();
  return {
    filterNames,
    values: filterValuesFrom(params, filterNames),
    page: pageFrom(params),
    after: afterFrom(params),
    filtered: params.toString() !== '',
    apply: (values) => setParams(searchParamsFor(values, filterNames)),
    setPage: (page, after) => setParams(withPage(params, page, after)),
    version: params.toString(),
  };
}
