import { FormattedMessage, useIntl } from 'react-intl';

/** Paging of a list whose answer carried X-WP-Total / X-WP-TotalPages. */
export function Pager({ page, totalPages, total, onPage }: { page: number; totalPages: number; total: number; onPage: (page: number) => void }) {
  const intl = useIntl();
  if (totalPages <= 1)
    return (
      <p className="pager-summary">
        <FormattedMessage id="list.pager.items" values={{ total }} />
      </p>
    );
  return (
    <nav className="pager" aria-label={intl.formatMessage({ id: 'list.pager.label' })}>
      <button type="button" className="button" disabled={page <= 1} onClick={() => onPage(page - 1)}>
        <FormattedMessage id="list.pager.previous" />
      </button>
      <span aria-live="polite">
        <FormattedMessage id="list.pager.page" values={{ page, totalPages, total }} />
      </span>
      <button type="button" className="button" disabled={page >= totalPages} onClick={() => onPage(page + 1)}>
        <FormattedMessage id="list.pager.next" />
      </button>
    </nav>
  );
}

