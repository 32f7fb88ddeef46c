import { useMutation } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { FormattedMessage } from 'react-intl';
import { unwrap } from '../../../api/api-error';
import { api } from '../../../api/client';
import { ErrorNotice, Success } from '../../../components/status';
import { ForOperator } from '../../../components/for-operator';
import { useT } from '../../../i18n/use-t';

/** Sends the emails a completed payment of the saved form would send, for a sample payment. */
export function TestEmail({ formId, unsaved }: { formId: number; unsaved: boolean }) {
  const t = useT();
  const [payerEmail, setPayerEmail] = useState('');
  const send = useMutation({
    mutationFn: async (to: string) =>
      unwrap(await api.POST('/administration/payment-forms/{id}/test-email', { params: { path: { id: formId } }, body: to ? { payer_email: to } : {} })),
  });
  function submit(event: FormEvent) {
    event.preventDefault();
    send.mutate(payerEmail.trim());
  }
  return (
    <section className="card" aria-labelledby="test-email-title">
      <h2 id="test-email-title">{t('forms.builder.testEmail.title')}</h2>
      <form onSubmit={submit} noValidate>
        <p className="field-help">
          {t('forms.builder.testEmail.intro', { unsaved: String(unsaved) })}
        </p>
        <div className="field">
          <label className="field-label" htmlFor="test-email-to">
            {t('forms.builder.testEmail.to')}
          </label>
          <span className="field-help" id="test-email-help">
            {t('forms.builder.testEmail.toHelp')}
          </span>
          <input id="test-email-to" type="email" autoComplete="email" aria-describedby="test-email-help" value={payerEmail} onChange={(event) => setPayerEmail(event.target.value)} />
        </div>
        <button type="submit" className="button" disabled={send.isPending}>
          {send.isPending ? t('forms.builder.testEmail.sending') : t('forms.builder.testEmail.send')}
        </button>
      </form>
      {send.isError && <ErrorNotice error={send.error} />}
      {send.isSuccess && (
        <div>
          {send.data.transport === 'outbox' ? (
            <div className="notice notice-warning" role="status">
              <p>{t('forms.builder.testEmail.kept')}</p>
              <ForOperator setting="SMTP_URL" />
            </div>
          ) : (
            <Success>{t('forms.builder.testEmail.sent', { count: send.data.emails.length })}</Success>
          )}
          <ul className="plain-list">
            {send.data.emails.map((email) => (
              <li key={email.message_id}>
                <FormattedMessage
                  id="forms.builder.testEmail.email"
                  values={{ kind: email.kind, to: email.to, subject: email.subject, strong: (chunks) => <strong>{chunks}</strong> }}
                />
              </li>
            ))}
          </ul>
        </div>
      )}
    </section>
  );
}
