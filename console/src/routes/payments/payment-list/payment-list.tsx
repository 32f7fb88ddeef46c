import { keepPreviousData, useMutation, useQuery } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import type { components, paths } from '../../../../../clients/typescript/index';
import { unwrap } from '../../../api/api-error';
import { api } from '../../../api/client';
import { useGatewayLabels, useMethodLabels } from '../../../api/gateways';
import { label, money, when } from '../../../format';
import { Page } from '../../../components/page';
import { TableScroll } from '../../../components/table-scroll';
import { Pager, pagingOf } from '../../../components/list/pager';
import { Empty, ErrorNotice, QueryView } from '../../../components/status';

type PaymentRow = components['schemas']['AdminPaymentDto'];
export type PaymentFilters = NonNullable<paths['/administration/payments']['get']['parameters']['query']>;

const STATUSES = ['pending', 'processing', 'completed', 'failed', 'canceled'] as const;
const MODES = ['test', 'live'] as const;
const FILTER_NAMES = ['status', 'gateway', 'mode', 'form_id', 'created_from', 'created_before', 'search'] as const;

/** The list's filters live in the address (shareable, kept on reload and on Back). */
export function filtersFrom(params: URLSearchParams): PaymentFilters {
  const filters: Record<string, string | number> = {};
  for (const name of FILTER_NAMES) {
    const value = params.get(name)?.trim();
    if (!value) continue;
    filters[name] = name === 'form_id' ? Number(value) : value;
  }
  const page = Number(params.get('page'));
  if (Number.isInteger(page) && page > 1) filters.page = page;
  return filters as PaymentFilters;
}

export function PaymentsScreen() {
  const [params, setParams] = useSearchParams();
  const filters = filtersFrom(params);
  const gatewayLabels = useGatewayLabels();
  const query = useQuery({
    queryKey: ['payments', filters],
    queryFn: async () => {
      const result = await api.GET('/administration/payments', { params: { query: { ...filters, per_page: 25 } } });
      return { rows: unwrap(result), ...pagingOf(result.response) };
    },
    placeholderData: keepPreviousData,
  });

  function apply(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const next = new URLSearchParams();
    for (const name of FILTER_NAMES) {
      const value = String(form.get(name) ?? '').trim();
      if (value) next.set(name, value);
    }
    setParams(next);
  }

  return (
    <Page title="Payments" actions={<ExportButton filters={filters} />}>
      <form className="card filters" onSubmit={apply} aria-label="Filter payments" key={params.toString()}>
        <label className="field">
          <span className="field-label">Payer email or name</span>
          <input name="search" type="search" maxLength={100} defaultValue={params.get('search') ?? ''} />
        </label>
        <label className="field">
          <span className="field-label">Status</span>
          <select name="status" defaultValue={params.get('status') ?? ''}>
            <option value="">Any</option>
            {STATUSES.map((status) => (
              <option key={status} value={status}>
                {label(status)}
              </option>
            ))}
          </select>
        </label>
        <label className="field">
          <span className="field-label">Gateway</span>
          <select name="gateway" defaultValue={params.get('gateway') ?? ''}>
            <option value="">Any</option>
            {Object.entries(gatewayLabels).map(([id, name]) => (
              <option key={id} value={id}>
                {name}
              </option>
            ))}
          </select>
        </label>
        <label className="field">
          <span className="field-label">Mode</span>
          <select name="mode" defaultValue={params.get('mode') ?? ''}>
            <option value="">Any</option>
            {MODES.map((mode) => (
              <option key={mode} value={mode}>
                {label(mode)}
              </option>
            ))}
          </select>
        </label>
        <label className="field">
          <span className="field-label">Form id</span>
          <input name="form_id" type="number" min={1} step={1} inputMode="numeric" defaultValue={params.get('form_id') ?? ''} />
        </label>
        <label className="field">
          <span className="field-label">Created from</span>
          <input name="created_from" type="date" defaultValue={params.get('created_from') ?? ''} />
        </label>
        <label className="field">
          <span className="field-label">Created before</span>
          <input name="created_before" type="date" defaultValue={params.get('created_before') ?? ''} />
        </label>
        <div className="field">
          <button type="submit" className="button button-primary">
            Apply filters
          </button>
        </div>
      </form>
      <QueryView query={query} what="payments">
        {({ rows, total, totalPages }) =>
          rows.length === 0 ? (
            <Empty>{params.toString() ? 'No payment matches these filters.' : 'No payments yet. They appear here as soon as a payer starts a checkout.'}</Empty>
          ) : (
            <>
              <PaymentTable rows={rows} gatewayLabels={gatewayLabels} />
              <Pager
                page={filters.page ?? 1}
                total={total}
                totalPages={totalPages}
                onPage={(page) => {
                  const next = new URLSearchParams(params);
                  next.set('page', String(page));
                  setParams(next);
                }}
              />
            </>
          )
        }
      </QueryView>
    </Page>
  );
}

function PaymentTable({ rows, gatewayLabels }: { rows: PaymentRow[]; gatewayLabels: Record<string, string> }) {
  const methodLabel = useMethodLabels();
  return (
    <TableScroll label="Payments">
      <table className="card">
        <caption className="visually-hidden">Payments, newest first</caption>
        <thead>
          <tr>
            <th scope="col">Payment</th>
            <th scope="col">Payer</th>
            <th scope="col">Form</th>
            <th scope="col" className="number">
              Amount
            </th>
            <th scope="col">Status</th>
            <th scope="col">Gateway</th>
            <th scope="col">Created</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={row.id}>
              <th scope="row">
                <Link to={`/payments/${row.id}`}>#{row.id}</Link>
                {row.mode === 'test' && <span className="badge badge-test"> test</span>}
              </th>
              <td>
                {[row.first_name, row.last_name].filter(Boolean).join(' ') || '—'}
                <br />
                <span className="muted">{row.email_address ?? 'no email yet'}</span>
              </td>
              <td>{row.form_id === null ? '—' : `${row.form_title ?? 'Deleted form'} (#${row.form_id})`}</td>
              <td className="number">{money(row.amount, row.currency)}</td>
              <td>
                <span className={`badge badge-${row.status}`}>{row.status}</span>
              </td>
              <td>
                {gatewayLabels[row.gateway] ?? label(row.gateway)}
                <br />
                <span className="muted">{methodLabel(row.gateway, row.payment_method)}</span>
              </td>
              <td>{when(row.created_at)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </TableScroll>
  );
}

/** The filtered list as a CSV file, fetched through the client (with the session's nonce) and saved by the browser. */
function ExportButton({ filters }: { filters: PaymentFilters }) {
  const [truncated, setTruncated] = useState(false);
  const exportCsv = useMutation({
    mutationFn: async () => {
      const { page: _page, ...rest } = filters;
      const result = await api.GET('/administration/payments/export.csv', { params: { query: rest }, parseAs: 'blob' });
      const file = unwrap(result) as unknown as Blob;
      return { file, truncated: result.response.headers.get('X-Checkout-Truncated') === 'true' };
    },
    onSuccess: ({ file, truncated: cut }) => {
      setTruncated(cut);
      const url = URL.createObjectURL(file);
      const link = document.createElement('a');
      link.href = url;
      link.download = `payments-${new Date().toISOString().slice(0, 10)}.csv`;
      link.click();
      setTimeout(() => URL.revokeObjectURL(url), 10_000);
    },
  });
  return (
    <div>
      <button type="button" className="button" disabled={exportCsv.isPending} onClick={() => exportCsv.mutate()}>
        {exportCsv.isPending ? 'Exporting…' : 'Export CSV'}
      </button>
      {exportCsv.isError && <ErrorNotice error={exportCsv.error} />}
      {truncated && (
        <p className="notice notice-warning" role="status">
          The export holds the newest payments only: narrow the filters to get the rest.
        </p>
      )}
    </div>
  );
}
