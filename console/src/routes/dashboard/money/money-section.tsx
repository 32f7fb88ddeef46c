import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import type { components } from '../../../../../clients/typescript/index';
import { dashboardMoneyQuery } from '../../../api/payments';
import { Empty, QueryView } from '../../../components/status';
import { money, utcDay } from '../../../format';
import { Time } from '../../../components/time';
import { DailyChart } from './daily-chart';
import { type DashboardMoney, dailySeries, figureLinks, type MoneyTotals, orderedGroups, paymentsLink, periodFilters } from './money-model';

type PaymentRow = components['schemas']['AdminPaymentDto'];

/**
 * The dashboard's money (GET /administration/dashboard/money): per mode and currency, gross,
 * refunded, net and the payments of the last 30 days with a chart per day, each figure a link to
 * the payments list under the filters it counts; then the latest payments and the failed ones.
 */
export function MoneySection() {
  const query = useQuery(dashboardMoneyQuery);
  return (
    <section className="card" aria-labelledby="money-title">
      <h2 id="money-title">Money in the last 30 days</h2>
      <QueryView query={query} what="status.loading.money30">
        {(data) =>
          data.totals.length === 0 ? (
            <Empty>
              No payments in the last 30 days. <Link to="/payments">All payments</Link>
            </Empty>
          ) : (
            <div className="stack">
              <p className="muted">
                {utcDay(data.from)} to today, in UTC days. Net is what you keep: received, less refunds, platform fees and lost disputes.
              </p>
              <div className="money-groups">
                {orderedGroups(data.totals).map((group) => (
                  <MoneyGroup key={`${group.mode}-${group.currency}`} data={data} group={group} />
                ))}
              </div>
              <div className="split money-latest">
                <LatestPayments title="Latest payments" rows={data.latest_payments} all={paymentsLink({ ...periodFilters(data), status: 'completed' })} empty="No completed payment in the last 30 days." />
                <LatestPayments title="Failed payments" rows={data.latest_failed} all={paymentsLink({ ...periodFilters(data), status: 'failed' })} empty="No failed payment in the last 30 days." />
              </div>
            </div>
          )
        }
      </QueryView>
    </section>
  );
}

function MoneyGroup({ data, group }: { data: DashboardMoney; group: MoneyTotals }) {
  const links = figureLinks(data, group);
  const name = `${group.mode === 'live' ? 'Live' : 'Test'} ${group.currency}`;
  const titleId = `money-${group.mode}-${group.currency}`;
  const figures: Array<{ term: string; value: string; to: string; what: string; negative?: boolean }> = [
    { term: 'Net', value: money(group.net, group.currency), to: links.completed, what: 'net', negative: group.net < 0 },
    { term: 'Gross', value: money(group.gross, group.currency), to: links.completed, what: 'gross' },
    { term: 'Refunded', value: money(group.refunded, group.currency), to: links.refunded, what: 'refunded' },
    { term: 'Payments', value: String(group.paid), to: links.completed, what: 'paid payments' },
    { term: 'Failed', value: String(group.failed), to: links.failed, what: 'failed payments' },
  ];
  return (
    <section className="money-group" aria-labelledby={titleId}>
      <h3 id={titleId}>
        {group.mode === 'live' ? 'Live' : 'Test'} payments in {group.currency}
        {group.mode === 'test' && <span className="badge badge-test"> no real money</span>}
      </h3>
      <dl className="money-figures">
        {figures.map((figure) => (
          <div key={figure.term}>
            <dt>{figure.term}</dt>
            <dd className={figure.negative ? 'money-figure money-negative' : 'money-figure'}>
              <Link to={figure.to}>
                {figure.value}
                <span className="visually-hidden">
                  {' '}
                  {figure.what}, {name}: open these payments
                </span>
              </Link>
            </dd>
          </div>
        ))}
      </dl>
      {(group.application_fees !== 0 || group.lost_disputes !== 0) && (
        <p className="muted">
          Net also deducts {money(group.application_fees, group.currency)} in platform fees and {money(group.lost_disputes, group.currency)} lost in disputes.
        </p>
      )}
      <DailyChart group={group} series={dailySeries(data, group)} />
    </section>
  );
}

function LatestPayments({ title, rows, all, empty }: { title: string; rows: PaymentRow[]; all: string; empty: string }) {
  const id = `latest-${title.toLowerCase().replace(/\W+/g, '-')}`;
  return (
    <section aria-labelledby={id}>
      <h3 id={id}>{title}</h3>
      {rows.length === 0 ? (
        <p className="muted">{empty}</p>
      ) : (
        <ul className="latest-list">
          {rows.map((row) => (
            <li key={row.id}>
              <Link to={`/payments/${row.id}`}>
                {money(row.amount, row.currency)}
                <span className="visually-hidden"> payment #{row.id}</span>
              </Link>{' '}
              {row.mode === 'test' && <span className="badge badge-test">test</span>} <span className="muted">{[row.first_name, row.last_name].filter(Boolean).join(' ') || row.email_address || 'No payer details'}</span>
              <br />
              <span className="muted"><Time iso={row.created_at} /></span>
              {row.failure_reason?.message && <span className="latest-reason"> · {row.failure_reason.message}</span>}
            </li>
          ))}
        </ul>
      )}
      <p>
        <Link to={all}>
          All {title.toLowerCase()}
          <span className="visually-hidden"> of the last 30 days</span>
        </Link>
      </p>
    </section>
  );
}
