import { FormattedMessage } from 'react-intl';
import { useT } from '../../i18n/use-t';
import { type ReactNode, useEffect, useId, useRef } from 'react';
import { CopyField } from '../../components/copy-field';

/**
 * A signing secret, the one time the API answers it (a new endpoint, a rotation): a copy button,
 * and plainly that it will not be shown again. Focus lands here when it appears. The secret lives
 * in this component's props only: "I have stored it" (or leaving the screen) forgets it.
 */
export function SecretReveal({ title, secret, children, onDone }: { title: string; secret: string; children?: ReactNode; onDone: () => void }) {
  const t = useT();
  const region = useRef<HTMLElement>(null);
  const titleId = useId();
  useEffect(() => {
    region.current?.focus();
  }, [secret]);
  return (
    <section ref={region} tabIndex={-1} className="card secret-reveal focus-target" aria-labelledby={titleId}>
      <h2 id={titleId}>{title}</h2>
      <div className="notice notice-warning">
        <p className="notice-title">{t('webhooks.secret.copyNow')}</p>
        <p>
          <FormattedMessage id="webhooks.secret.store" values={{ code: (chunks) => <code>{chunks}</code> }} />
        </p>
      </div>
      {children}
      <CopyField id="webhook-secret" label={t('webhooks.secret.label')} value={secret} />
      <button type="button" className="button button-primary" onClick={onDone}>
        {t('webhooks.secret.stored')}
      </button>
    </section>
  );
}
