import { embedIframeSnippet, embedSnippet } from '../../../clients/typescript/index';
import { hostedPageUrl } from '../api/forms';
import { useT } from '../i18n/use-t';
import { CopyField } from './copy-field';
import { ForOperator } from './for-operator';

/**
 * How a merchant shares a form: the link to its hosted page `/pay/{id}`, and the snippet that puts
 * it inside the merchant's own page (the committed client's `embedSnippet`: the embed script, or
 * a plain iframe for sites that load no third-party script). The console is served by the service,
 * so its origin is the one payers reach.
 */
export function EmbedSnippet({ formId, published }: { formId: number; published: boolean }) {
  const t = useT();
  const origin = window.location.origin;
  const url = hostedPageUrl(formId, origin);
  return (
    <section className="card" aria-labelledby="share-title">
      <h2 id="share-title">{t('embedSnippet.title')}</h2>
      {published ? (
        <p>
          <a href={url} target="_blank" rel="noopener">
            {t('embedSnippet.openPage')}
            <span className="visually-hidden">{t('embedSnippet.newTab')}</span>
          </a>
        </p>
      ) : (
        <p className="muted">{t('embedSnippet.notPublished')}</p>
      )}
      <CopyField id="share-link" label={t('embedSnippet.link')} value={url} />
      <CopyField id="share-embed" label={t('embedSnippet.embed')} help={t('embedSnippet.embedHelp')} value={embedSnippet({ origin, formId })} multiline />
      <ForOperator setting="EMBED_ORIGINS" />
      <details>
        <summary>{t('embedSnippet.withoutScript')}</summary>
        <CopyField id="share-iframe" label={t('embedSnippet.iframe')} value={embedIframeSnippet({ origin, formId })} multiline />
      </details>
    </section>
  );
}
