import { useState } from 'react';

/** A read-only value with a button that copies it (the text stays selectable where copying is not allowed). */
export function CopyField({ id, label, value, help, multiline }: { id: string; label: string; value: string; help?: string; multiline?: boolean }) {
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
          Copy<span className="visually-hidden"> {label.toLowerCase()}</span>
        </button>
        <span className="muted copy-state" role="status">
          {copied === 'yes' ? ' Copied.' : copied === 'no' ? ' Copying is not allowed here: select the text and copy it.' : ''}
        </span>
      </div>
    </div>
  );
}
