import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { FormattedMessage } from 'react-intl';
import { Link, useLocation } from 'react-router';
import { createWebhookEndpoint, lastDeliveryQuery, type WebhookEndpoint, type WebhookEndpointWithSecret, webhookEndpointKeys, webhookEndpointListQuery } from '../../api/webhook-endpoints';
import { Page } from '../../components/page';
import { Empty, QueryView, Success } from '../../components/status';
import { Time } from '../../components/time';
import { useT } from '../../i18n/use-t';
import { EndpointForm } from './endpoint-form';
import { SecretReveal } from './secret-reveal';
import { createBody, deliveryOutcome, draftOf, eventsText } from './webhook-model';

/** `/webhooks`: the endpoints events are sent to, each with its last delivery, and adding one. */
export function EndpointListScreen() {
  const t = useT();
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
      title={t('layout.nav.webhooks')}
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
            {t('webhooks.list.add')}
          </button>
        )
      }
    >
      <div className="stack">
        <p className="muted">{t('webhooks.list.intro')}</p>
        {notice && !created && <Success>{notice}</Success>}
        {created && (
          <SecretReveal title={t('webhooks.list.added')} secret={created.secret} onDone={() => setCreated(null)}>
            <p>
              <FormattedMessage
                id="webhooks.list.addedText"
                values={{ url: <code>{created.url}</code>, link: (chunks) => <Link to={`/webhooks/${created.id}`}>{chunks}</Link> }}
              />
            </p>
          </SecretReveal>
        )}
        {adding && (
          <EndpointForm
            idPrefix="new-endpoint"
            title={t('webhooks.list.add')}
            initial={draftOf()}
            submitLabel={t('webhooks.list.addSubmit')}
            pendingLabel={t('webhooks.list.adding')}
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
                <p>{t('webhooks.list.empty')}</p>
                <p>{t('webhooks.list.emptyHint')}</p>
              </Empty>
            ) : (
              <ul className="endpoint-list" aria-label={t('webhooks.list.label')}>
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
  const t = useT();
  const last = useQuery(lastDeliveryQuery(endpoint.id));
  const outcome = last.data === undefined ? null : deliveryOutcome(last.data, t);
  return (
    <li className="card endpoint-card">
      <h2 className="endpoint-url">
        <Link to={`/webhooks/${endpoint.id}`}>{endpoint.url}</Link>
      </h2>
      {endpoint.description && <p className="endpoint-description">{endpoint.description}</p>}
      <dl className="facts">
        <dt>{t('webhooks.fact.status')}</dt>
        <dd>
          <EndpointStatus endpoint={endpoint} />
        </dd>
        <dt>{t('webhooks.fact.events')}</dt>
        <dd>{eventsText(endpoint.events, t)}</dd>
        <dt>{t('webhooks.fact.lastDelivery')}</dt>
        <dd>
          {last.isError ? (
            <span className="muted">{t('webhooks.list.unreadable', { error: last.error.message })}</span>
          ) : !outcome ? (
            <span className="muted">{t('webhooks.list.loading')}</span>
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
  const t = useT();
  return endpoint.status === 'enabled' ? (
    <span className="badge badge-enabled">{t('webhooks.status.enabled')}</span>
  ) : (
    <span className="badge badge-disabled">{t('webhooks.status.disabled')}</span>
  );
}
