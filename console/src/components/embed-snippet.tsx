import { useState } from 'react';
import { embedIframeSnippet, embedSnippet } from '../../../clients/typescript/index';
import { hostedPageUrl } from '../api/forms';

/**
 * How a merchant shares a form: the link to its hosted page `/pay/{id}`, and the snippet that puts
 * it inside the merchant's own page (the committed client's `embedSnippet`: the embed script, or
 * a plain iframe for sites that load no third-party script). The console is served by the service,
 * so its origin is the one payers reach.
 */
export function EmbedSnippet({ formId, published }: { formId: number; published: boolean }) {
  const origin = window.location.origin;
  const url = hostedPageUrl(formId, origin);
  return (
    <section className="card" aria-labelledby="share-title">
      <h2 id="share-title">Share</h2>
      {published ? (
        <p>
          <a href={url} target="_blank" rel="noopener">
            Open the payment page<span className="visually-hidden"> (new tab)</span>
          </a>
        </p>
      ) : (
        <p className="muted">The link and the snippets work once the form is published; until then the page answers “not found”.</p>
      )}
      <CopyField id="share-link" label="Link to the payment page" value={url} />
      <CopyField
        id="share-embed"
        label="Embed on your site"
        help="Paste where the form should appear. It works only on sites whose origin the operator lists in EMBED_ORIGINS."
        value={embedSnippet({ origin, formId })}
        multiline
      />
      <details>
        <summary>Without a script (fixed height)</summary>
        <CopyField id="share-iframe" label="Embed as a plain iframe" value={embedIframeSnippet({ origin, formId })} multiline />
      </details>
    </section>
  );
}

/** A read-only value with a button that copies it (the text stays selectable where copying is not allowed). */
function CopyField({ id, label, value, help, multiline }: { id: string; label: string; value: string; help?: string; multiline?: boolean }) {
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
