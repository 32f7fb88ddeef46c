import { useState } from 'react';
import { hostedPageUrl } from '../api/forms';

/**
 * How a merchant shares a form. Today: the link to its hosted page `/pay/{id}`. The embeddable
 * form (a snippet that puts the form on another site, limited by EMBED_ORIGINS) is being built on
 * its own branch; when it lands, its snippet is shown here, per form, next to the link.
 */
export function EmbedSnippet({ formId, published }: { formId: number; published: boolean }) {
  const url = hostedPageUrl(formId);
  const [copied, setCopied] = useState<'yes' | 'no' | null>(null);
  async function copy() {
    try {
      await navigator.clipboard.writeText(url);
      setCopied('yes');
    } catch {
      setCopied('no');
    }
  }
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
        <p className="muted">The payment page works once the form is published; until then it answers “not found”.</p>
      )}
      <div className="field">
        <label className="field-label" htmlFor="share-link">
          Link to the payment page
        </label>
        <input id="share-link" type="text" readOnly value={url} onFocus={(event) => event.target.select()} />
      </div>
      <button type="button" className="button" onClick={() => void copy()}>
        Copy the link
      </button>
      <span className="muted copy-state" role="status">
        {copied === 'yes' ? ' Copied.' : copied === 'no' ? ' Copying is not allowed here: select the link and copy it.' : ''}
      </span>
    </section>
  );
}
