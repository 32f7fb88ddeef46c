import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useLocation } from 'react-router';
import { createWebhookEndpoint, lastDeliveryQuery, type WebhookEndpoint, type WebhookEndpointWithSecret, webhookEndpointKeys, webhookEndpointListQuery } from '../../api/webhook-endpoints';
import { Page } from '../../components/page';
import { Empty, QueryView, Success } from '../../components/status';
import { Time } from '../../components/time';
import { EndpointForm } from './endpoint-form';
import { SecretReveal } from './secret-reveal';
import { createBody, deliveryOutcome, draftOf, eventsText } from './webhook-model';

/** `/webhooks`: the endpoints events are sent to, each with its last delivery, and adding one. */
export function EndpointListScreen() {
  const queries = useQueryClient();
  const endpoints = useQuery(webhookEndpointListQuery);
  const notice = (useLocation().state as { notice?: string } | null)?.notice;
  const [adding, setAdding] = useState(false);
  const [created, setCreated] = useState<WebhookEndpointWithSecret | null>(null);
  const create = useMutation({
    mutationFn: createWebhookEndpoint,
    onSuccess: (endpoint) => {
      setAdding(false);
      setCreated(endpoint);
      return queries.invalidateQueries({ queryKey: webhookEndpointKeys.list() });
    },
  });

  return (
    <Page
      title="Webhooks"
      actions={
        !adding && (
          <button
            type="button"
            className="button button-primary"
            onClick={() => {
              create.reset();
              setCreated(null);
              setAdding(true);
            }}
          >
            Add an endpoint
          </button>
        )
      }
    >
      <div className="stack">
        <p className="muted">
          Send events to your systems: when a payment completes or fails, or a subscription renews, fails to renew or is canceled, Checkout sends a signed JSON
          event to each endpoint below, again and again until it answers (for up to 3 days). Your CRM, shop or automation tool no longer needs to ask.
        </p>
        {notice && !created && <Success>{notice}</Success>}
        {created && (
          <SecretReveal title="Endpoint added: its signing secret" secret={created.secret} onDone={() => setCreated(null)}>
            <p>
              Events now go to <code>{created.url}</code>. <Link to={`/webhooks/${created.id}`}>Open its delivery log</Link>.
            </p>
          </SecretReveal>
        )}
        {adding && (
          <EndpointForm
            idPrefix="new-endpoint"
            title="Add an endpoint"
            initial={draftOf()}
            submitLabel="Add endpoint"
            pendingLabel="Adding…"
            busy={create.isPending}
            error={create.error}
            onSubmit={(draft) => create.mutate(createBody(draft))}
            onCancel={() => setAdding(false)}
          />
        )}
        <QueryView query={endpoints} what="status.loading.endpoints">
          {(list) =>
            list.length === 0 ? (
              <Empty>
                <p>No endpoints yet.</p>
                <p>Add one to have your systems told about payments as they happen.</p>
              </Empty>
            ) : (
              <ul className="endpoint-list" aria-label="Endpoints">
                {list.map((endpoint) => (
                  <EndpointCard key={endpoint.id} endpoint={endpoint} />
                ))}
              </ul>
            )
          }
        </QueryView>
      </div>
    </Page>
  );
}

function EndpointCard({ endpoint }: { endpoint: WebhookEndpoint }) {
  const last = useQuery(lastDeliveryQuery(endpoint.id));
  const outcome = last.data === undefined ? null : deliveryOutcome(last.data);
  return (
    <li className="card endpoint-card">
      <h2 className="endpoint-url">
        <Link to={`/webhooks/${endpoint.id}`}>{endpoint.url}</Link>
      </h2>
      {endpoint.description && <p className="endpoint-description">{endpoint.description}</p>}
      <dl className="facts">
        <dt>Status</dt>
        <dd>
          <EndpointStatus endpoint={endpoint} />
        </dd>
        <dt>Events</dt>
        <dd>{eventsText(endpoint.events)}</dd>
        <dt>Last delivery</dt>
        <dd>
          {last.isError ? (
            <span className="muted">Could not be read: {last.error.message}</span>
          ) : !outcome ? (
            <span className="muted">Loading…</span>
          ) : (
            <>
              <span className={`badge badge-delivery-${outcome.tone}`}>{outcome.text}</span>
              {last.data && (
                <span className="muted">
                  {' '}
                  <code>{last.data.event_type}</code>, <Time iso={last.data.last_attempt_at ?? last.data.created_at} seconds />
                </span>
              )}
            </>
          )}
        </dd>
      </dl>
    </li>
  );
}

export function EndpointStatus({ endpoint }: { endpoint: WebhookEndpoint }) {
  return endpoint.status === 'enabled' ? <span className="badge badge-enabled">Enabled</span> : <span className="badge badge-disabled">Disabled: nothing is sent</span>;
}
