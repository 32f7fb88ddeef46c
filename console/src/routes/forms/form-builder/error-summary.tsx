import type { MouseEvent, Ref } from 'react';
import { inputId, type SummaryItem } from '../common/field-paths';

/**
 * What stops the form from being saved, at the top of the builder: it takes focus when it
 * appears, and each line links to the input (or group) that shows the error.
 */
export function ErrorSummary({ items, ref }: { items: SummaryItem[]; ref: Ref<HTMLDivElement> }) {
  function go(event: MouseEvent<HTMLAnchorElement>, target: string) {
    event.preventDefault();
    const element = document.getElementById(inputId(target));
    element?.scrollIntoView({ block: 'center' });
    element?.focus();
  }
  return (
    <div ref={ref} className="notice notice-error error-summary" tabIndex={-1} aria-labelledby="error-summary-title">
      <h2 id="error-summary-title" className="notice-title">
        {items.length === 1 ? 'The form was not saved: one thing to fix' : `The form was not saved: ${items.length} things to fix`}
      </h2>
      <ul>
        {items.map((item, index) => (
          <li key={index}>
            {item.target ? (
              <a href={`#${inputId(item.target)}`} onClick={(event) => go(event, item.target!)}>
                {item.where}
              </a>
            ) : (
              <strong>{item.where}</strong>
            )}
            : {item.message}
          </li>
        ))}
      </ul>
    </div>
  );
}
