import { useMutation, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
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
import { DISPUTED_OPTIONS, PAYMENT_FILTER_NAMES, paymentQueryOf, REFUNDED_OPTIONS } from './payment-list-model';
import { PaymentTotals } from './payment-totals';

type PaymentRow = components['schemas']['AdminPaymentDto'];


/** The admin payments list: filters and page in the address (the list kit), newest first, a CSV export of what is filtered. */
export function PaymentsScreen() {
  const list = useListState(PAYMENT_FILTER_NAMES);
  const filters = paymentQueryOf(list.values, list.page, list.after);
  const gatewayLabels = useGatewayLabels();
  const query = useQuery(paymentListQuery(filters));
  const intl = useIntl();
  const t = (id: string) => intl.formatMessage({ id });
  const statusOptions = PAYMENT_STATUSES.map((status) => [status, intl.formatMessage({ id: 'vocabulary.paymentStatus' }, { status })] as const);

  return (
    <Page title={t('payments.list.title')} actions={<ExportButton filters={filters} />}>
      <FilterForm list={list} label={t('payments.list.filter.label')} idPrefix="payment-filter">
        <FilterInput name="search" label={t('payments.list.filter.search')} help={t('payments.list.filter.searchHint')} type="search" maxLength={100} />
        <FilterSelect name="status" label={t('payments.list.filter.status')} options={statusOptions} />
        <GatewayFilter label={t('payments.list.filter.gateway')} />
        <ModeFilter />
        <FilterInput name="currency" label={t('payments.list.filter.currency')} maxLength={3} autoCapitalize="characters" autoComplete="off" />
        <FilterSelect name="refunded" label={t('payments.list.filter.refunded')} options={REFUNDED_OPTIONS.map(([value]) => [value, t(`payments.list.filter.refunded.${value}`)] as const)} />
        <FilterSelect name="disputed" label={t('payments.list.filter.disputed')} options={DISPUTED_OPTIONS.map(([value]) => [value, t(`payments.list.filter.disputed.${value}`)] as const)} />
        <FilterInput name="form_id" label={t('payments.list.filter.formId')} type="number" min={1} step={1} inputMode="numeric" />
        <FilterInput name="created_from" label={t('payments.list.filter.createdFrom')} type="date" />
        <FilterInput name="created_before" label={t('payments.list.filter.createdBefore')} type="date" />
      </FilterForm>
      <PaymentTotals filters={filters} />
      <QueryView query={query} what="status.loading.payments">
        {({ rows, total, totalPages, next, estimated }) =>
          rows.length === 0 ? (
            <Empty>
              <FormattedMessage id={list.filtered ? 'payments.list.noMatch' : 'payments.list.empty'} />
            </Empty>
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
  const intl = useIntl();
  const t = (id: string) => intl.formatMessage({ id });
  return (
    <TableScroll label={t('payments.list.table.label')}>
      <table className="card list-table">
        <caption className="visually-hidden">{t('payments.list.table.caption')}</caption>
        <thead>
          <tr>
            <th scope="col">{t('payments.list.column.payment')}</th>
            <th scope="col">{t('payments.list.column.payer')}</th>
            <th scope="col">{t('payments.list.column.form')}</th>
            <th scope="col" className="number">
              {t('payments.list.column.amount')}
            </th>
            <th scope="col">{t('payments.list.column.status')}</th>
            <th scope="col">{t('payments.list.column.gateway')}</th>
            <th scope="col">{t('payments.list.column.created')}</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={row.id}>
              <th scope="row">
                <Link to={`/payments/${row.id}`}>#{row.id}</Link>
                {row.mode === 'test' && <span className="badge badge-test"> {t('payments.list.testBadge')}</span>}
              </th>
              <td data-label={t('payments.list.column.payer')} className="cell-later">
                {[row.first_name, row.last_name].filter(Boolean).join(' ') || '—'}
                <br />
                <span className="muted">{row.email_address ?? t('payments.list.noEmail')}</span>
              </td>
              <td data-label={t('payments.list.column.form')} className="cell-later">
                {row.form_id === null ? '—' : intl.formatMessage({ id: 'payments.list.formCell' }, { title: row.form_title ?? t('payments.list.deletedForm'), id: String(row.form_id) })}
              </td>
              <td data-label={t('payments.list.column.amount')} className="number">{money(row.amount, row.currency)}</td>
              <td data-label={t('payments.list.column.status')}>
                <span className={`badge badge-${row.status}`}>{intl.formatMessage({ id: 'vocabulary.paymentStatusBadge' }, { status: row.status })}</span>
                {moneyBadges(row).map((badge) => (
                  <span key={badge.kind} className={`badge badge-${badge.kind}`}>
                    {t(`payments.badge.${badge.kind}`)}
                  </span>
                ))}
              </td>
              <td data-label={t('payments.list.column.gateway')} className="cell-later">
                {gatewayLabels[row.gateway] ?? label(row.gateway)}
                <br />
                <span className="muted">{methodLabel(row.gateway, row.payment_method)}</span>
              </td>
              <td data-label={t('payments.list.column.created')}><Time iso={row.created_at} /></td>
            </tr>
          ))}
        </tbody>
      </table>
    </TableScroll>
  );
}

/** The filtered list as a CSV file, fetched through the client (with the session's nonce) and saved by the browser. */
function ExportButton({ filters }: { filters: PaymentFilters }) {
  const intl = useIntl();
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
        {intl.formatMessage({ id: exportCsv.isPending ? 'payments.list.exporting' : 'payments.list.export' })}
      </button>
      {exportCsv.isError && <ErrorNotice error={exportCsv.error} />}
      {truncated && (
        <p className="notice notice-warning" role="status">
          <FormattedMessage id="payments.list.exportTruncated" />
        </p>
      )}
    </div>
  );
}
