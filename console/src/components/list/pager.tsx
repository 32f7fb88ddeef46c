import { FormattedMessage, useIntl } from 'react-intl';

/**
 * Paging of a list whose answer carried X-WP-Total / X-WP-TotalPages. With `next` (a list paged by
 * keyset, X-Checkout-Next-Cursor), Next asks for the page after that cursor, and is enabled while
 * there is one; `estimated` (X-Checkout-Total-Estimated) shows the totals as approximate.
 */
export function Pager({
  page,
  totalPages,
  total,
  onPage,
  next,
  estimated = false,
}: {
  page: number;
  totalPages: number;
  total: number;
  onPage: (page: number, after?: string) => void;
  next?: string | null;
  estimated?: boolean;
}) {
  const intl = useIntl();
  const keyset = next !== undefined;
  const hasNext = keyset ? next !== null : page < totalPages;
  if (totalPages <= 1 && !hasNext)
    return (
      <p className="pager-summary">
        <FormattedMessage id={estimated ? 'list.pager.itemsEstimated' : 'list.pager.items'} values={{ total }} />
      </p>
    );
  return (
    <nav className="pager" aria-label={intl.formatMessage({ id: 'list.pager.label' })}>
      <button type="button" className="button" disabled={page <= 1} onClick={() => onPage(page - 1)}>
        <FormattedMessage id="list.pager.previous" />
      </button>
      <span aria-live="polite">
        <FormattedMessage id={estimated ? 'list.pager.pageEstimated' : 'list.pager.page'} values={{ page, totalPages, total }} />
      </span>
      <button type="button" className="button" disabled={!hasNext} onClick={() => onPage(page + 1, next ?? undefined)}>
        <FormattedMessage id="list.pager.next" />
      </button>
    </nav>
  );
}

