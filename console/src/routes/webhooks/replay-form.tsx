import { useT } from '../../i18n/use-t';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { formErrorsOf } from '../../api/field-errors';
import { replayWebhookEvents, type WebhookEndpoint, webhookEndpointKeys } from '../../api/webhook-endpoints';
import { FieldError, useFocusFirstInvalid } from '../../components/fields';
import { ErrorNotice, Success } from '../../components/status';
import { localTimeZone } from '../../format';
import { localInputValue, sinceInstant } from './webhook-model';

const DAY_MS = 24 * 3600_000;

/** "Send events since …": for an endpoint that was down, every event it subscribes to created since a time, queued again. */
export function ReplayForm({ endpoint }: { endpoint: WebhookEndpoint }) {
  const t = useT();
  const queries = useQueryClient();
  const [since, setSince] = useState(() => localInputValue(new Date(Date.now() - DAY_MS)));
  const [problem, setProblem] = useState<string>();
  const replay = useMutation({
    mutationFn: (iso: string) => replayWebhookEvents(endpoint.id, iso),
    onSuccess: () => queries.invalidateQueries({ queryKey: webhookEndpointKeys.deliveries(endpoint.id) }),
  });
  const errors = formErrorsOf(replay.error, ['since'] as const);
  useFocusFirstInvalid(replay.error, errors.first, 'replay');
  const message = problem ?? errors.fields.since;

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const instant = sinceInstant(since, t);
    if ('error' in instant) {
      setProblem(instant.error);
      document.getElementById('replay-since')?.focus();
      return;
    }
    setProblem(undefined);
    replay.mutate(instant.iso);
  }

  return (
    <form className="card" aria-labelledby="replay-title" noValidate onSubmit={submit}>
      <h2 id="replay-title">{t('webhooks.replay.title')}</h2>
      <p className="muted">{t('webhooks.replay.intro')}</p>
      {endpoint.status === 'disabled' && <p className="notice notice-warning">{t('webhooks.replay.disabled')}</p>}
      {replay.isSuccess && (
        <Success>
          {t('webhooks.replay.queued', { queued: replay.data.queued })}
          {replay.data.truncated && ` ${t('webhooks.replay.truncated')}`}
        </Success>
      )}
      {replay.isError && errors.notice && <ErrorNotice error={replay.error} />}
      <div className="field">
        <label className="field-label" htmlFor="replay-since">
          {t('webhooks.replay.since')}
        </label>
        <span className="field-help" id="replay-since-help">
          {t('webhooks.replay.timeZone', { zone: localTimeZone() })}
        </span>
        <input
          id="replay-since"
          type="datetime-local"
          value={since}
          onChange={(event) => setSince(event.target.value)}
          aria-invalid={message ? true : undefined}
          aria-describedby={[message ? 'replay-since-error' : '', 'replay-since-help'].filter(Boolean).join(' ')}
        />
        <FieldError id="replay-since" message={message} />
      </div>
      <button type="submit" className="button" disabled={replay.isPending}>
        {t(replay.isPending ? 'webhooks.replay.queuing' : 'webhooks.replay.submit')}
      </button>
    </form>
  );
}
