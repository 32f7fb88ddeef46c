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
    const instant = sinceInstant(since);
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
      <h2 id="replay-title">Send events since …</h2>
      <p className="muted">
        Was your system down or refusing events? Every event this endpoint gets that was created since the time below is sent again, with its own id, so your
        system can skip the ones it already has.
      </p>
      {endpoint.status === 'disabled' && <p className="notice notice-warning">This endpoint is disabled: enable it first, or the events queued are given up.</p>}
      {replay.isSuccess && (
        <Success>
          {replay.data.queued === 0
            ? 'No event of this endpoint was created since then: nothing to send.'
            : `${replay.data.queued === 1 ? '1 event' : `${replay.data.queued} events`} queued for this endpoint.`}
          {replay.data.truncated && ' More events matched than one request sends (1000): send again from the time of the last one sent.'}
        </Success>
      )}
      {replay.isError && errors.notice && <ErrorNotice error={replay.error} />}
      <div className="field">
        <label className="field-label" htmlFor="replay-since">
          Events created since
        </label>
        <span className="field-help" id="replay-since-help">
          Your time zone ({localTimeZone()}).
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
        {replay.isPending ? 'Queuing…' : 'Send events'}
      </button>
    </form>
  );
}
