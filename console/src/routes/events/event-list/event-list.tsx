import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { type FormEvent, Fragment, useEffect, useRef, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { ApiError, unwrap } from '../../../api/api-error';
import { api } from '../../../api/client';
import { formErrorsOf } from '../../../api/field-errors';
import { useGatewayLabels } from '../../../api/gateways';
import { label, when } from '../../../format';
import { Page } from '../../../components/page';
import { Pager, pagingOf } from '../../../components/list/pager';
import { Empty, ErrorNotice, Loading } from '../../../components/status';
import { TableScroll } from '../../../components/table-scroll';
import {
  EVENT_FILTER_NAMES,
  type EventFilterName,
  eventQueryFrom,
  eventSearchParams,
  filterFieldOfParam,
  filterValuesFrom,
  GENERIC_PROVIDER,
  OUTCOME_MEANING,
  OUTCOMES,
  type WebhookEvent,
} from './event-list-model';

const MODES = ['test', 'live'] as const;
const GENERIC_LABEL = 'Generic webhook (section B)';

/**
 * The provider events this service received (`GET /administration/webhook-events`): what each
 * did to which payment, and why. Filters and page live in the address (shareable, kept on reload).
 */
export function EventsScreen() {
  const [params, setParams] = useSearchParams();
  const query = eventQueryFrom(params);
  const values = filterValuesFrom(params);
  const gatewayLabels = useGatewayLabels();
  const providerName = (id: string) => (id === GENERIC_PROVIDER ? GENERIC_LABEL : (gatewayLabels[id] ?? label(id)));
  const events = useQuery({
    queryKey: ['webhook-events', query],
    queryFn: async () => {
      const result = await api.GET('/administration/webhook-events', { params: { query: { ...query, per_page: 25 } } });
      return { rows: unwrap(result), ...pagingOf(result.response) };
    },
    placeholderData: keepPreviousData,
  });
  // A refused filter (400 naming it) is shown at its field too, and focus goes there.
  const errors = formErrorsOf(events.isError ? onScreenFields(events.error) : null, EVENT_FILTER_NAMES);
  const firstInvalid = useRef<string | null>(null);
  useEffect(() => {
    if (errors.first && firstInvalid.current !== errors.first) document.getElementById(`event-filter-${errors.first}`)?.focus();
    firstInvalid.current = errors.first;
  }, [errors.first]);

  function apply(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const next: Partial<Record<EventFilterName, string>> = {};
    for (const name of EVENT_FILTER_NAMES) next[name] = String(form.get(name) ?? '');
    setParams(eventSearchParams(next));
  }

  const field = (name: EventFilterName) => ({
    id: `event-filter-${name}`,
    name,
    defaultValue: values[name] ?? '',
    'aria-invalid': errors.fields[name] ? true : undefined,
    'aria-describedby': errors.fields[name] ? `event-filter-${name}-error` : undefined,
  });
  const fieldError = (name: EventFilterName) =>
    errors.fields[name] && (
      <span className="field-error" id={`event-filter-${name}-error`}>
        {errors.fields[name]}
      </span>
    );

  return (
    <Page title="Provider events" actions={params.toString() ? <Link to="/events">Clear filters</Link> : undefined}>
      <p className="muted">
        Every event a payment provider sent here, newest first: what it did and why. A redelivered event is listed once. Payloads are not kept.
      </p>
      <form className="card filters" onSubmit={apply} aria-label="Filter provider events" key={params.toString()}>
        <label className="field">
          <span className="field-label">Provider</span>
          <select {...field('gateway')}>
            <option value="">Any</option>
            {Object.entries(gatewayLabels).map(([id, name]) => (
              <option key={id} value={id}>
                {name}
              </option>
            ))}
            <option value={GENERIC_PROVIDER}>{GENERIC_LABEL}</option>
          </select>
          {fieldError('gateway')}
        </label>
        <label className="field">
          <span className="field-label">Mode</span>
          <select {...field('mode')}>
            <option value="">Any</option>
            {MODES.map((mode) => (
              <option key={mode} value={mode}>
                {label(mode)}
              </option>
            ))}
          </select>
          {fieldError('mode')}
        </label>
        <label className="field">
          <span className="field-label">Outcome</span>
          <select {...field('outcome')}>
            <option value="">Any</option>
            {OUTCOMES.map((outcome) => (
              <option key={outcome} value={outcome}>
                {label(outcome)}
              </option>
            ))}
          </select>
          {fieldError('outcome')}
        </label>
        <label className="field">
          <span className="field-label">Event type</span>
          <input {...field('event_type')} type="text" maxLength={255} spellCheck={false} placeholder="payment_intent.succeeded" />
          {fieldError('event_type')}
        </label>
        <label className="field">
          <span className="field-label">Payment id</span>
          <input {...field('payment_id')} type="text" inputMode="numeric" pattern="[0-9]*" />
          {fieldError('payment_id')}
        </label>
        <label className="field">
          <span className="field-label">Received from</span>
          <input {...field('received_from')} type="date" />
          {fieldError('received_from')}
        </label>
        <label className="field">
          <span className="field-label">Received until</span>
          <input {...field('received_to')} type="date" />
          <span className="field-help">This day included (UTC)</span>
          {fieldError('received_to')}
        </label>
        <div className="field">
          <button type="submit" className="button button-primary">
            Apply filters
          </button>
        </div>
      </form>
      {events.isPending ? (
        <Loading what="provider events" />
      ) : events.isError ? (
        <ErrorNotice error={events.error} retry={() => void events.refetch()} />
      ) : events.data.rows.length === 0 ? (
        <Empty>
          {params.toString()
            ? 'No provider event matches these filters.'
            : 'No provider events yet. They appear here when a connected gateway sends its first webhook.'}
        </Empty>
      ) : (
        <>
          <EventTable rows={events.data.rows} providerName={providerName} />
          <Pager
            page={query.page ?? 1}
            total={events.data.total}
            totalPages={events.data.totalPages}
            onPage={(page) => {
              const next = new URLSearchParams(params);
              next.set('page', String(page));
              setParams(next);
            }}
          />
        </>
      )}
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
      <table className="card events-table">
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
                  <td>
                    <span className={`badge badge-${event.outcome}`}>{event.outcome}</span>
                  </td>
                  <td className="reason">{event.reason ?? '—'}</td>
                  <td>{event.payment_id === null ? '—' : <Link to={`/payments/${event.payment_id}`}>#{event.payment_id}</Link>}</td>
                  <td>
                    {providerName(event.gateway)}
                    {event.mode && <span className={`badge badge-mode badge-${event.mode}`}> {event.mode}</span>}
                  </td>
                  <td>{when(event.received_at)}</td>
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
        <dd>{when(event.received_at)}</dd>
        <dt>Outcome stored</dt>
        <dd>{event.processed_at ? when(event.processed_at) : 'Not yet'}</dd>
        <dt>Local id</dt>
        <dd>{event.id}</dd>
      </dl>
    </section>
  );
}
