import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { ApiError } from '../../../api/api-error';
import { livePreviewQuery } from '../../../api/forms';
import type { FormBody } from '../common/form-draft';
import { Loading } from '../../../components/status';
import { useT } from '../../../i18n/use-t';

/** How long the editor must be still before the preview is drawn again. */
const PREVIEW_DELAY_MS = 400;

function useSettled<T>(value: T, delay: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), delay);
    return () => clearTimeout(timer);
  }, [value, delay]);
  return settled;
}

/**
 * The form as payers will see it, with the unsaved changes: the editor's settings are sent to the
 * live-preview route (`POST`, through the client with the session's nonce: validated, never
 * stored), and the HTML it answers, drawn by the hosted page's own renderer, is shown in a frame
 * of its own (`srcdoc`) that is sandboxed: no script, a unique origin, no navigation. Its styles
 * are the service's stylesheets, which the console's CSP allows. An answer the route refuses
 * leaves the last good preview in place and says why.
 */
export function LivePreview({ formId, body, problem }: { formId: number; body: FormBody | null; problem?: string }) {
  const t = useT();
  const json = useSettled(body ? JSON.stringify(body) : null, PREVIEW_DELAY_MS);
  const preview = useQuery(livePreviewQuery(formId, json));
  // The last HTML the route drew: it stays in the frame while newer settings are refused.
  const [shown, setShown] = useState<string>();
  useEffect(() => {
    if (preview.data !== undefined) setShown(preview.data);
  }, [preview.data]);
  const refused = preview.isError ? (preview.error instanceof ApiError ? preview.error : null) : null;
  return (
    <section className="card preview" aria-labelledby="preview-title">
      <h2 id="preview-title">{t('forms.builder.preview.title')}</h2>
      <p className="muted">{t('forms.builder.preview.intro')}</p>
      <div aria-live="polite">
        {problem && <p className="notice notice-warning">{t('forms.builder.preview.waits', { problem })}</p>}
        {preview.isError && (
          <p className="notice notice-warning">
            {t('forms.builder.preview.refused', { reason: refused ? refused.message : t('forms.builder.preview.failed') })}
          </p>
        )}
      </div>
      {shown !== undefined ? (
        <iframe className="preview-frame" title={t('forms.builder.preview.frame')} sandbox="" srcDoc={shown} />
      ) : preview.isError ? null : (
        <Loading what="status.loading.preview" />
      )}
      <p className="muted preview-state">{preview.isFetching ? t('forms.builder.preview.updating') : preview.isError || problem ? '' : shown !== undefined ? t('forms.builder.preview.upToDate') : ''}</p>
    </section>
  );
}
