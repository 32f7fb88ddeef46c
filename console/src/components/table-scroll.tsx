import type { ReactNode } from 'react';

/**
 * A table that may scroll sideways on a narrow screen: the scrolling region takes keyboard focus
 * (arrow keys scroll it) and is named for screen readers.
 */
export function TableScroll({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="table-scroll" role="region" aria-label={label} tabIndex={0}>
      {children}
    </div>
  );
}
