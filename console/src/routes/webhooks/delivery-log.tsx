import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { deliveryPageQuery, resendWebhookDelivery, type WebhookDelivery, type WebhookEndpoint, webhookEndpointKeys } from '../../api/webhook-endpoints';
import { Pager } from '../../components/list/pager';
import { useListState } from '../../components/list/use-list-state';
import { Empty, ErrorNotice, QueryView, Success } from '../../components/status';
import { Time } from '../../components/time';
import { useT } from '../../i18n/use-t';
import { deliveryOutcome, durationText } from './webhook-model';

/**
 * An endpoint's delivery log, newest first (the page is in the address, as on every list): each
 * delivery's time in the viewer's time zone, event, outcome, status code, duration, the first
 * 1 KB of the answer (folded), and Resend. Read again every few seconds while one is still waiting.
 */
export function DeliveryLog({ endpoint }: { endpoint: WebhookEndpoint }) {
  const t = useT();
  const list = useListState([]);
  const queries = useQueryClient();
  const deliveries = useQuery(deliveryPageQuery(endpoint.id, list.page));
  const [done, setDone] = useState<string | null>(null);
  const resend = useMutation({
    mutationFn: (delivery: WebhookDelivery) => resendWebhookDelivery(endpoint.id, delivery.id),
    onMutate: () => setDone(null),
    onSuccess: (queued, delivery) => {
      setDone(t('webhooks.log.resent', { event: String(delivery.event_id), type: delivery.event_type, delivery: String(queued.id) }));
      return queries.invalidateQueries({ queryKey: webhookEndpointKeys.deliveries(endpoint.id) });
    },
  });

  return (
    <section className="card" aria-labelledby="deliveries-title">
      <div className="section-head">
        <h2 id="deliveries-title">{t('webhooks.log.title')}</h2>
        <button type="button" className="button" disabled={deliveries.isFetching} onClick={() => void deliveries.refetch()}>
          {t(deliveries.isFetching ? 'webhooks.log.refreshing' : 'webhooks.log.refresh')}
        </button>
      </div>
      <p className="muted">{t('webhooks.log.intro')}</p>
      {done && <Success>{done}</Success>}
      {resend.isError && <ErrorNotice error={resend.error} />}
      <QueryView query={deliveries} what="status.loading.deliveryLog">
        {({ rows, total, totalPages }) =>
          rows.length === 0 ? (
            <Empty>{t('webhooks.log.empty')}</Empty>
          ) : (
            <>
              <ol className="deliveries" aria-label={t('webhooks.log.label')}>
                {rows.map((delivery) => (
                  <DeliveryCard key={delivery.id} delivery={delivery} busy={resend.isPending} onResend={() => resend.mutate(delivery)} />
                ))}
              </ol>
              <Pager page={list.page} total={total} totalPages={totalPages} onPage={list.setPage} />
            </>
          )
        }
      </QueryView>
    </section>
  );
}

function DeliveryCard({ delivery, busy, onResend }: { delivery: WebhookDelivery; busy: boolean; onResend: () => void }) {
  const t = useT();
  const outcome = deliveryOutcome(delivery, t);
  const name = t('webhooks.log.name', { type: delivery.event_type, event: String(delivery.event_id), delivery: String(delivery.id) });
  return (
    <li className="delivery">
      <div className="delivery-head">
        <h3>
          <code>{delivery.event_type}</code> <span className="muted">{t('webhooks.log.event', { event: String(delivery.event_id) })}</span>
        </h3>
        <span className={`badge badge-delivery-${outcome.tone}`}>{outcome.text}</span>
      </div>
      <dl className="facts">
        <dt>{t(delivery.last_attempt_at ? 'webhooks.log.sent' : 'webhooks.log.queued')}</dt>
        <dd><Time iso={delivery.last_attempt_at ?? delivery.created_at} seconds /></dd>
        <dt>{t('webhooks.log.statusCode')}</dt>
        <dd>{delivery.status_code ?? '—'}</dd>
        <dt>{t('webhooks.log.duration')}</dt>
        <dd>{durationText(delivery.duration_ms, t)}</dd>
        <dt>{t('webhooks.log.attempts')}</dt>
        <dd>{delivery.attempts}</dd>
        {delivery.error && (
          <>
            <dt>{t('webhooks.log.error')}</dt>
            <dd>{delivery.error}</dd>
          </>
        )}
      </dl>
      {delivery.response_excerpt !== null && delivery.response_excerpt !== '' && (
        <details className="delivery-answer">
          <summary>{t('webhooks.log.answer')}</summary>
          <pre>{delivery.response_excerpt}</pre>
        </details>
      )}
      <button type="button" className="button" disabled={busy} onClick={onResend}>
        {t('webhooks.log.resend')}
        <span className="visually-hidden"> {name}</span>
      </button>
    </li>
  );
}
