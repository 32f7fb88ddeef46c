import { type ReactNode, useEffect, useRef } from 'react';
import { useIntl } from 'react-intl';

/**
 * One screen: its heading (focused when the screen opens, so keyboard and screen-reader users
 * land on the new content after a navigation) and the document title.
 */
export function Page({ title, actions, children }: { title: string; actions?: ReactNode; children: ReactNode }) {
  const intl = useIntl();
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    document.title = intl.formatMessage({ id: 'page.documentTitle' }, { title });
    heading.current?.focus();
  }, [title, intl]);
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
