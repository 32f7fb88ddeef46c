import { useQuery } from '@tanstack/react-query';
import { Fragment, useState } from 'react';
import { Link } from 'react-router';
import { ApiError } from '../../../api/api-error';
import { formErrorsOf } from '../../../api/field-errors';
import { useGatewayLabels } from '../../../api/gateways';
import { EVENT_OUTCOMES } from '../../../api/vocabulary';
import { webhookEventListQuery } from '../../../api/webhook-events';
import { FilterForm, FilterInput, FilterSelect, GatewayFilter, ModeFilter } from '../../../components/list/filter-form';
import { Pager } from '../../../components/list/pager';
import { useListState } from '../../../components/list/use-list-state';
import { Page } from '../../../components/page';
import { Empty, QueryView } from '../../../components/status';
import { TableScroll } from '../../../components/table-scroll';
import { label } from '../../../format';
import { Time } from '../../../components/time';
import { useT } from '../../../i18n/use-t';
import { EVENT_FILTER_NAMES, eventQueryOf, filterFieldOfParam, GENERIC_PROVIDER, OUTCOME_MEANING, type WebhookEvent } from './event-list-model';


/**
 * The provider events this service received (`GET /administration/webhook-events`): what each
 * did to which payment, and why. Filters and page live in the address (the list kit).
 */
export function EventsScreen() {
  const t = useT();
  const list = useListState(EVENT_FILTER_NAMES);
  const gatewayLabels = useGatewayLabels();
  const genericLabel = t('events.provider.generic');
  const outcomeOptions = EVENT_OUTCOMES.map((outcome) => [outcome, t('events.outcome.name', { outcome })] as const);
  const providerName = (id: string) => (id === GENERIC_PROVIDER ? genericLabel : (gatewayLabels[id] ?? label(id)));
  const events = useQuery(webhookEventListQuery(eventQueryOf(list.values, list.page)));
  // A refused filter (400 naming it) is shown at its field too, and focus goes there.
  const errors = formErrorsOf(events.isError ? onScreenFields(events.error) : null, EVENT_FILTER_NAMES);

  return (
    <Page title={t('layout.nav.events')} actions={list.filtered ? <Link to="/events">{t('events.clearFilters')}</Link> : undefined}>
      <p className="muted">{t('events.intro')}</p>
      <FilterForm list={list} label={t('events.filter.label')} idPrefix="event-filter" errors={errors}>
        <GatewayFilter label={t('events.column.provider')} extra={[[GENERIC_PROVIDER, genericLabel]]} />
        <ModeFilter />
        <FilterSelect name="outcome" label={t('events.column.outcome')} options={outcomeOptions} />
        <FilterInput name="event_type" label={t('events.filter.eventType')} type="text" maxLength={255} spellCheck={false} placeholder={t('events.filter.eventTypeExample')} />
        <FilterInput name="payment_id" label={t('events.filter.paymentId')} type="text" inputMode="numeric" pattern="[0-9]*" />
        <FilterInput name="received_from" label={t('events.filter.receivedFrom')} type="date" />
        <FilterInput name="received_to" label={t('events.filter.receivedTo')} type="date" help={t('events.filter.receivedToHelp')} />
      </FilterForm>
      <QueryView query={events} what="status.loading.providerEvents">
        {({ rows, total, totalPages }) =>
          rows.length === 0 ? (
            <Empty>
              {t(list.filtered ? 'events.noMatch' : 'events.empty')}
            </Empty>
          ) : (
            <>
              <EventTable rows={rows} providerName={providerName} />
              <Pager page={list.page} total={total} totalPages={totalPages} onPage={list.setPage} />
            </>
          )
        }
      </QueryView>
    </Page>
  );
}

/** The API names `received_before`; this screen's field for it is the inclusive end date. */
function onScreenFields(error: unknown): unknown {
  if (!(error instanceof ApiError)) return error;
  const params: Record<string, string> = {};
  for (const [param, message] of Object.entries(error.params)) params[filterFieldOfParam(param) ?? param] = message;
  return new ApiError(error.message, error.status, error.code, params);
}

function EventTable({ rows, providerName }: { rows: WebhookEvent[]; providerName: (id: string) => string }) {
  const t = useT();
  const [open, setOpen] = useState<number | null>(null);
  return (
    <TableScroll label={t('layout.nav.events')}>
      <table className="card events-table list-table">
        <caption className="visually-hidden">{t('events.caption')}</caption>
        <thead>
          <tr>
            <th scope="col">{t('events.column.event')}</th>
            <th scope="col">{t('events.column.outcome')}</th>
            <th scope="col">{t('events.column.reason')}</th>
            <th scope="col">{t('events.column.payment')}</th>
            <th scope="col">{t('events.column.provider')}</th>
            <th scope="col">{t('events.column.received')}</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((event) => {
            const expanded = open === event.id;
            const detailsId = `event-details-${event.id}`;
            return (
              <Fragment key={event.id}>
                <tr>
                  <th scope="row">
                    <button type="button" className="button-link" aria-expanded={expanded} aria-controls={detailsId} onClick={() => setOpen(expanded ? null : event.id)}>
                      {event.event_type}
                    </button>
                  </th>
                  <td data-label={t('events.column.outcome')}>
                    <span className={`badge badge-${event.outcome}`}>{t('events.outcome.badge', { outcome: event.outcome })}</span>
                  </td>
                  <td data-label={t('events.column.reason')} className="reason">{event.reason ?? '—'}</td>
                  <td data-label={t('events.column.payment')}>{event.payment_id === null ? '—' : <Link to={`/payments/${event.payment_id}`}>#{event.payment_id}</Link>}</td>
                  <td data-label={t('events.column.provider')}>
                    {providerName(event.gateway)}
                    {event.mode && <span className={`badge badge-mode badge-${event.mode}`}> {t('events.modeBadge', { mode: event.mode })}</span>}
                  </td>
                  <td data-label={t('events.column.received')}><Time iso={event.received_at} /></td>
                </tr>
                <tr id={detailsId} hidden={!expanded} className="details-row">
                  <td colSpan={6}>{expanded && <EventDetails event={event} providerName={providerName} />}</td>
                </tr>
              </Fragment>
            );
          })}
        </tbody>
      </table>
    </TableScroll>
  );
}

/** One event's facts: all the service keeps of it (no payload is stored). */
function EventDetails({ event, providerName }: { event: WebhookEvent; providerName: (id: string) => string }) {
  const t = useT();
  return (
    <section className="event-details" aria-label={t('events.details.label', { id: event.event_id })}>
      <dl className="facts">
        <dt>{t('events.column.outcome')}</dt>
        <dd>
          <strong>{t('events.outcome.name', { outcome: event.outcome })}</strong>: {t(OUTCOME_MEANING[event.outcome])}
        </dd>
        <dt>{t('events.column.reason')}</dt>
        <dd>{event.reason ?? t('events.details.noReason')}</dd>
        <dt>{t('events.details.eventId')}</dt>
        <dd>
          <code>{event.event_id}</code>
        </dd>
        <dt>{t('events.details.type')}</dt>
        <dd>
          <code>{event.event_type}</code>
        </dd>
        <dt>{t('events.column.provider')}</dt>
        <dd>
          {event.mode ? t('events.details.providerMode', { provider: providerName(event.gateway), mode: event.mode }) : providerName(event.gateway)}
        </dd>
        <dt>{t('events.column.payment')}</dt>
        <dd>
          {event.payment_id === null ? (
            t('events.details.noPayment')
          ) : (
            <>
              <Link to={`/payments/${event.payment_id}`}>{t('payments.detail.title', { id: String(event.payment_id) })}</Link> ·{' '}
              <Link to={`/events?payment_id=${event.payment_id}`}>{t('events.details.allEvents')}</Link>
            </>
          )}
        </dd>
        <dt>{t('events.column.received')}</dt>
        <dd><Time iso={event.received_at} /></dd>
        <dt>{t('events.details.processedAt')}</dt>
        <dd>{event.processed_at ? <Time iso={event.processed_at} /> : t('events.details.notYet')}</dd>
        <dt>{t('events.details.localId')}</dt>
        <dd>{event.id}</dd>
      </dl>
    </section>
  );
}
