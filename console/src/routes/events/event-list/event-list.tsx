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
import { EVENT_FILTER_NAMES, eventQueryOf, filterFieldOfParam, GENERIC_PROVIDER, OUTCOME_MEANING, type WebhookEvent } from './event-list-model';

const GENERIC_LABEL = 'Generic webhook';
const OUTCOME_OPTIONS = EVENT_OUTCOMES.map((outcome) => [outcome, label(outcome)] as const);

/**
 * The provider events this service received (`GET /administration/webhook-events`): what each
 * did to which payment, and why. Filters and page live in the address (the list kit).
 */
export function EventsScreen() {
  const list = useListState(EVENT_FILTER_NAMES);
  const gatewayLabels = useGatewayLabels();
  const providerName = (id: string) => (id === GENERIC_PROVIDER ? GENERIC_LABEL : (gatewayLabels[id] ?? label(id)));
  const events = useQuery(webhookEventListQuery(eventQueryOf(list.values, list.page)));
  // A refused filter (400 naming it) is shown at its field too, and focus goes there.
  const errors = formErrorsOf(events.isError ? onScreenFields(events.error) : null, EVENT_FILTER_NAMES);

  return (
    <Page title="Provider events" actions={list.filtered ? <Link to="/events">Clear filters</Link> : undefined}>
      <p className="muted">
        Every event a payment provider sent here, newest first: what it did and why. A redelivered event is listed once. Payloads are not kept.
      </p>
      <FilterForm list={list} label="Filter provider events" idPrefix="event-filter" errors={errors}>
        <GatewayFilter label="Provider" extra={[[GENERIC_PROVIDER, GENERIC_LABEL]]} />
        <ModeFilter />
        <FilterSelect name="outcome" label="Outcome" options={OUTCOME_OPTIONS} />
        <FilterInput name="event_type" label="Event type" type="text" maxLength={255} spellCheck={false} placeholder="payment_intent.succeeded" />
        <FilterInput name="payment_id" label="Payment id" type="text" inputMode="numeric" pattern="[0-9]*" />
        <FilterInput name="received_from" label="Received from" type="date" />
        <FilterInput name="received_to" label="Received until" type="date" help="This day included (UTC)" />
      </FilterForm>
      <QueryView query={events} what="status.loading.providerEvents">
        {({ rows, total, totalPages }) =>
          rows.length === 0 ? (
            <Empty>
              {list.filtered ? 'No provider event matches these filters.' : 'No provider events yet. They appear here when a connected gateway sends its first webhook.'}
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
  const [open, setOpen] = useState<number | null>(null);
  return (
    <TableScroll label="Provider events">
      <table className="card events-table list-table">
        <caption className="visually-hidden">Provider events, newest first</caption>
        <thead>
          <tr>
            <th scope="col">Event</th>
            <th scope="col">Outcome</th>
            <th scope="col">Reason</th>
            <th scope="col">Payment</th>
            <th scope="col">Provider</th>
            <th scope="col">Received</th>
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
                  <td data-label="Outcome">
                    <span className={`badge badge-${event.outcome}`}>{event.outcome}</span>
                  </td>
                  <td data-label="Reason" className="reason">{event.reason ?? '—'}</td>
                  <td data-label="Payment">{event.payment_id === null ? '—' : <Link to={`/payments/${event.payment_id}`}>#{event.payment_id}</Link>}</td>
                  <td data-label="Provider">
                    {providerName(event.gateway)}
                    {event.mode && <span className={`badge badge-mode badge-${event.mode}`}> {event.mode}</span>}
                  </td>
                  <td data-label="Received"><Time iso={event.received_at} /></td>
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
  return (
    <section className="event-details" aria-label={`Event ${event.event_id}`}>
      <dl className="facts">
        <dt>Outcome</dt>
        <dd>
          <strong>{label(event.outcome)}</strong>: {OUTCOME_MEANING[event.outcome]}
        </dd>
        <dt>Reason</dt>
        <dd>{event.reason ?? 'None given'}</dd>
        <dt>Provider's event id</dt>
        <dd>
          <code>{event.event_id}</code>
        </dd>
        <dt>Type</dt>
        <dd>
          <code>{event.event_type}</code>
        </dd>
        <dt>Provider</dt>
        <dd>
          {providerName(event.gateway)}
          {event.mode ? `, ${event.mode} mode endpoint` : ''}
        </dd>
        <dt>Payment</dt>
        <dd>
          {event.payment_id === null ? (
            'None found'
          ) : (
            <>
              <Link to={`/payments/${event.payment_id}`}>Payment #{event.payment_id}</Link> ·{' '}
              <Link to={`/events?payment_id=${event.payment_id}`}>all its events</Link>
            </>
          )}
        </dd>
        <dt>Received</dt>
        <dd><Time iso={event.received_at} /></dd>
        <dt>Outcome stored</dt>
        <dd>{event.processed_at ? <Time iso={event.processed_at} /> : 'Not yet'}</dd>
        <dt>Local id</dt>
        <dd>{event.id}</dd>
      </dl>
    </section>
  );
}
