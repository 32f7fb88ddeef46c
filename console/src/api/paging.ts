/** The paging headers of a list answer (the same on every paged route). */
export function pagingOf(response: Response): { total: number; totalPages: number; next: string | null; estimated: boolean } {
  return {
    total: Number(response.headers.get('X-WP-Total') ?? 0) || 0,
    totalPages: Number(response.headers.get('X-WP-TotalPages') ?? 0) || 0,
    // Keyset paging (the payments list): the cursor of the page after this one, and whether the total is an estimate.
    next: response.headers.get('X-Checkout-Next-Cursor'),
    estimated: response.headers.get('X-Checkout-Total-Estimated') === 'true',
  };
}

/** Rows of a list screen: 25 a page. */
export const LIST_PAGE_SIZE = 25;
