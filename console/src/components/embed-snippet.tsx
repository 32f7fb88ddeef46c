import { embedIframeSnippet, embedSnippet } from '../../../clients/typescript/index';
import { hostedPageUrl } from '../api/forms';
import { CopyField } from './copy-field';
import { ForOperator } from './for-operator';

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
        help="Paste where the form should appear on your site. It shows only on sites this service allows (below)."
        value={embedSnippet({ origin, formId })}
        multiline
      />
      <ForOperator setting="EMBED_ORIGINS" />
      <details>
        <summary>Without a script (fixed height)</summary>
        <CopyField id="share-iframe" label="Embed as a plain iframe" value={embedIframeSnippet({ origin, formId })} multiline />
      </details>
    </section>
  );
}
