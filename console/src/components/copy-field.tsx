import { useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';

/** A read-only value with a button that copies it (the text stays selectable where copying is not allowed). */
export function CopyField({ id, label, value, help, multiline }: { id: string; label: string; value: string; help?: string; multiline?: boolean }) {
  const intl = useIntl();
  const [copied, setCopied] = useState<'yes' | 'no' | null>(null);
  async function copy() {
    try {
      await navigator.clipboard.writeText(value);
      setCopied('yes');
    } catch {
      setCopied('no');
    }
  }
  const common = { id, readOnly: true, value, 'aria-describedby': help ? `${id}-help` : undefined };
  return (
    <div className="field">
      <label className="field-label" htmlFor={id}>
        {label}
      </label>
      {help && (
        <span className="field-help" id={`${id}-help`}>
          {help}
        </span>
      )}
      {multiline ? <textarea {...common} rows={3} className="code" onFocus={(event) => event.target.select()} /> : <input {...common} type="text" onFocus={(event) => event.target.select()} />}
      <div>
        <button type="button" className="button" onClick={() => void copy()}>
          <FormattedMessage id="copyField.copy" />
          <span className="visually-hidden"> {intl.locale === 'en' ? label.toLowerCase() : label}</span>
        </button>
        <span className="muted copy-state" role="status">
          {copied ? ` ${intl.formatMessage({ id: copied === 'yes' ? 'copyField.copied' : 'copyField.notAllowed' })}` : ''}
        </span>
      </div>
    </div>
  );
}
