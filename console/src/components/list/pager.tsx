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
  const about = estimated ? 'about ' : '';
  const keyset = next !== undefined;
  const hasNext = keyset ? next !== null : page < totalPages;
  if (totalPages <= 1 && !hasNext) return <p className="pager-summary">{total === 1 ? '1 item' : `${about}${total} items`}</p>;
  return (
    <nav className="pager" aria-label="Pages">
      <button type="button" className="button" disabled={page <= 1} onClick={() => onPage(page - 1)}>
        Previous
      </button>
      <span aria-live="polite">
        Page {page} of {about}
        {totalPages} ({about}
        {total} items)
      </span>
      <button type="button" className="button" disabled={!hasNext} onClick={() => onPage(page + 1, next ?? undefined)}>
        Next
      </button>
    </nav>
  );
}

