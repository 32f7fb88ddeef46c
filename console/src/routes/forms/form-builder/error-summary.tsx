import type { MouseEvent, Ref } from 'react';
import { useT } from '../../../i18n/use-t';
import { inputId, type SummaryItem } from '../common/field-paths';

/**
 * What stops the form from being saved, at the top of the builder: it takes focus when it
 * appears, and each line links to the input (or group) that shows the error.
 */
export function ErrorSummary({ items, ref }: { items: SummaryItem[]; ref: Ref<HTMLDivElement> }) {
  const t = useT();
  function go(event: MouseEvent<HTMLAnchorElement>, target: string) {
    event.preventDefault();
    const element = document.getElementById(inputId(target));
    element?.scrollIntoView({ block: 'center' });
    element?.focus();
  }
  return (
    <div ref={ref} className="notice notice-error error-summary" tabIndex={-1} aria-labelledby="error-summary-title">
      <h2 id="error-summary-title" className="notice-title">
        {t('forms.builder.summary.title', { count: items.length })}
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
            {t('forms.builder.summary.message', { message: item.message })}
          </li>
        ))}
      </ul>
    </div>
  );
}
