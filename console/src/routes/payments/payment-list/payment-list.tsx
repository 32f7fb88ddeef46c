import { useMutation, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import type { components } from '../../../../../clients/typescript/index';
import { useGatewayLabels, useMethodLabels } from '../../../api/gateways';
import { exportPayments, type PaymentFilters, paymentListQuery } from '../../../api/payments';
import { PAYMENT_STATUSES } from '../../../api/vocabulary';
import { FilterForm, FilterInput, FilterSelect, GatewayFilter, ModeFilter } from '../../../components/list/filter-form';
import { Pager } from '../../../components/list/pager';
import { useListState } from '../../../components/list/use-list-state';
import { Page } from '../../../components/page';
import { Empty, ErrorNotice, QueryView } from '../../../components/status';
import { TableScroll } from '../../../components/table-scroll';
import { label, money } from '../../../format';
import { Time } from '../../../components/time';
import { moneyBadges } from '../common/money-after-model';
import { DISPUTED_OPTIONS, PAYMENT_FILTER_NAMES, PAYMENT_SEARCH_HINT, paymentQueryOf, REFUNDED_OPTIONS } from './payment-list-model';
import { PaymentTotals } from './payment-totals';

type PaymentRow = components['schemas']['AdminPaymentDto'];

const STATUS_OPTIONS = PAYMENT_STATUSES.map((status) => [status, label(status)] as const);

/** The admin payments list: filters and page in the address (the list kit), newest first, a CSV export of what is filtered. */
export function PaymentsScreen() {
  const list = useListState(PAYMENT_FILTER_NAMES);
  const filters = paymentQueryOf(list.values, list.page, list.after);
  const gatewayLabels = useGatewayLabels();
  const query = useQuery(paymentListQuery(filters));

  return (
    <Page title="Payments" actions={<ExportButton filters={filters} />}>
      <FilterForm list={list} label="Filter payments" idPrefix="payment-filter">
        <FilterInput name="search" label="Search: id, email, name or reference" help={PAYMENT_SEARCH_HINT} type="search" maxLength={100} />
        <FilterSelect name="status" label="Status" options={STATUS_OPTIONS} />
        <GatewayFilter label="Gateway" />
        <ModeFilter />
        <FilterInput name="currency" label="Currency (e.g. USD)" maxLength={3} autoCapitalize="characters" autoComplete="off" />
        <FilterSelect name="refunded" label="Refunds" options={REFUNDED_OPTIONS} />
        <FilterSelect name="disputed" label="Disputes" options={DISPUTED_OPTIONS} />
        <FilterInput name="form_id" label="Form id" type="number" min={1} step={1} inputMode="numeric" />
        <FilterInput name="created_from" label="Created from" type="date" />
        <FilterInput name="created_before" label="Created before" type="date" />
      </FilterForm>
      <PaymentTotals filters={filters} />
      <QueryView query={query} what="payments">
        {({ rows, total, totalPages, next, estimated }) =>
          rows.length === 0 ? (
            <Empty>{list.filtered ? 'No payment matches these filters.' : 'No payments yet. They appear here as soon as a payer starts a checkout.'}</Empty>
          ) : (
            <>
              <PaymentTable rows={rows} gatewayLabels={gatewayLabels} />
              <Pager page={list.page} total={total} totalPages={totalPages} onPage={list.setPage} next={next} estimated={estimated} />
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
      <table className="card list-table">
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
              <td data-label="Payer" className="cell-later">
                {[row.first_name, row.last_name].filter(Boolean).join(' ') || '—'}
                <br />
                <span className="muted">{row.email_address ?? 'no email yet'}</span>
              </td>
              <td data-label="Form" className="cell-later">{row.form_id === null ? '—' : `${row.form_title ?? 'Deleted form'} (#${row.form_id})`}</td>
              <td data-label="Amount" className="number">{money(row.amount, row.currency)}</td>
              <td data-label="Status">
                <span className={`badge badge-${row.status}`}>{row.status}</span>
                {moneyBadges(row).map((badge) => (
                  <span key={badge.kind} className={`badge badge-${badge.kind}`}>
                    {badge.text}
                  </span>
                ))}
              </td>
              <td data-label="Gateway" className="cell-later">
                {gatewayLabels[row.gateway] ?? label(row.gateway)}
                <br />
                <span className="muted">{methodLabel(row.gateway, row.payment_method)}</span>
              </td>
              <td data-label="Created"><Time iso={row.created_at} /></td>
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
    mutationFn: () => exportPayments(filters),
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
