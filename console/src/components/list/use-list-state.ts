import { useSearchParams } from 'react-router';
import { type FilterValues, filterValuesFrom, pageFrom, searchParamsFor, withPage } from './list-params';

/** A list screen's state, read from and written to the address (list-params.ts). */
export interface ListState<N extends string> {
  filterNames: readonly N[];
  /** The filters of the address (trimmed, non-empty) */
  values: FilterValues<N>;
  page: number;
  /** The address holds filters or a page: "nothing matches" rather than "nothing yet" */
  filtered: boolean;
  /** New filters from the form: back to the first page */
  apply: (values: FilterValues<N>) => void;
  setPage: (page: number) => void;
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
    filtered: params.toString() !== '',
    apply: (values) => setParams(searchParamsFor(values, filterNames)),
    setPage: (page) => setParams(withPage(params, page)),
    version: params.toString(),
  };
}
