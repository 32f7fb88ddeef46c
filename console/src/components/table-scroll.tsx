import type { ReactNode } from 'react';

/**
 * A table that may scroll sideways: the scrolling region takes keyboard focus (arrow keys scroll
 * it) and is named for screen readers, "<label> table" so that it never takes the name of the
 * screen or section around it (two landmarks of one name). A list's table with the `list-table`
 * class becomes stacked cards on a phone instead (styles.css): each cell then shows its column's
 * name from `data-label`.
 */
export function TableScroll({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="table-scroll" role="region" aria-label={`${label} table`} tabIndex={0}>
      {children}
    </div>
  );
}
