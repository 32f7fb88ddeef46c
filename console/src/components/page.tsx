import { type ReactNode, useEffect, useRef } from 'react';

/**
 * One screen: its heading (focused when the screen opens, so keyboard and screen-reader users
 * land on the new content after a navigation) and the document title.
 */
export function Page({ title, actions, children }: { title: string; actions?: ReactNode; children: ReactNode }) {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    document.title = `${title} · Checkout admin`;
    heading.current?.focus();
  }, [title]);
  return (
    <section className="page" aria-labelledby="page-title">
      <header className="page-header">
        <h1 id="page-title" ref={heading} tabIndex={-1}>
          {title}
        </h1>
        {actions && <div className="page-actions">{actions}</div>}
      </header>
      {children}
    </section>
  );
}
