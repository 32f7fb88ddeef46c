import { useMutation } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { unwrap } from '../../../api/api-error';
import { api } from '../../../api/client';
import { ErrorNotice, Success } from '../../../components/status';
import { ForOperator } from '../../../components/for-operator';

/** Sends the emails a completed payment of the saved form would send, for a sample payment. */
export function TestEmail({ formId, unsaved }: { formId: number; unsaved: boolean }) {
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
      <h2 id="test-email-title">Test email</h2>
      <form onSubmit={submit} noValidate>
        <p className="field-help">
          Sends the notification and the payer confirmation of a sample payment, as the saved form would.{unsaved ? ' Save first to test your changes.' : ''}
        </p>
        <div className="field">
          <label className="field-label" htmlFor="test-email-to">
            Send the payer confirmation to
          </label>
          <span className="field-help" id="test-email-help">
            Leave empty for your own address.
          </span>
          <input id="test-email-to" type="email" autoComplete="email" aria-describedby="test-email-help" value={payerEmail} onChange={(event) => setPayerEmail(event.target.value)} />
        </div>
        <button type="submit" className="button" disabled={send.isPending}>
          {send.isPending ? 'Sending…' : 'Send a test email'}
        </button>
      </form>
      {send.isError && <ErrorNotice error={send.error} />}
      {send.isSuccess && (
        <div>
          {send.data.transport === 'outbox' ? (
            <div className="notice notice-warning" role="status">
              <p>Not sent: this service has no mail server yet, so the test emails were kept on the server.</p>
              <ForOperator setting="SMTP_URL" />
            </div>
          ) : (
            <Success>
              Sent {send.data.emails.length} test email{send.data.emails.length === 1 ? '' : 's'}.
            </Success>
          )}
          <ul className="plain-list">
            {send.data.emails.map((email) => (
              <li key={email.message_id}>
                <strong>{email.kind === 'admin' ? 'Notification' : 'Payer confirmation'}</strong> to {email.to}: “{email.subject}”
              </li>
            ))}
          </ul>
        </div>
      )}
    </section>
  );
}
