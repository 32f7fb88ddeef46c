/** The paging headers of a list answer (the same on every paged route). */
export function pagingOf(response: Response): { total: number; totalPages: number } {
  return {
    total: Number(response.headers.get('X-WP-Total') ?? 0) || 0,
    totalPages: Number(response.headers.get('X-WP-TotalPages') ?? 0) || 0,
  };
}

/** Rows of a list screen: 25 a page. */
export const LIST_PAGE_SIZE = 25;
