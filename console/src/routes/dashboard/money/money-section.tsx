import { useT } from '../../../i18n/use-t';
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
  const t = useT();
  const query = useQuery(dashboardMoneyQuery);
  return (
    <section className="card" aria-labelledby="money-title">
      <h2 id="money-title">{t('dashboard.money.title')}</h2>
      <QueryView query={query} what="status.loading.money30">
        {(data) =>
          data.totals.length === 0 ? (
            <Empty>
              {t('dashboard.money.empty')} <Link to="/payments">{t('dashboard.money.allPayments')}</Link>
            </Empty>
          ) : (
            <div className="stack">
              <p className="muted">
                {t('dashboard.money.period', { from: utcDay(data.from) })}
              </p>
              <div className="money-groups">
                {orderedGroups(data.totals).map((group) => (
                  <MoneyGroup key={`${group.mode}-${group.currency}`} data={data} group={group} />
                ))}
              </div>
              <div className="split money-latest">
                <LatestPayments kind="latest" rows={data.latest_payments} all={paymentsLink({ ...periodFilters(data), status: 'completed' })} />
                <LatestPayments kind="failed" rows={data.latest_failed} all={paymentsLink({ ...periodFilters(data), status: 'failed' })} />
              </div>
            </div>
          )
        }
      </QueryView>
    </section>
  );
}

function MoneyGroup({ data, group }: { data: DashboardMoney; group: MoneyTotals }) {
  const t = useT();
  const links = figureLinks(data, group);
  const name = t('payments.totals.group', { mode: group.mode, currency: group.currency });
  const titleId = `money-${group.mode}-${group.currency}`;
  const figures: Array<{ term: string; value: string; to: string; what: string; negative?: boolean }> = [
    { term: t('dashboard.money.net'), value: money(group.net, group.currency), to: links.completed, what: t('dashboard.money.net.what'), negative: group.net < 0 },
    { term: t('dashboard.money.gross'), value: money(group.gross, group.currency), to: links.completed, what: t('dashboard.money.gross.what') },
    { term: t('dashboard.money.refunded'), value: money(group.refunded, group.currency), to: links.refunded, what: t('dashboard.money.refunded.what') },
    { term: t('dashboard.money.payments'), value: String(group.paid), to: links.completed, what: t('dashboard.money.payments.what') },
    { term: t('dashboard.money.failed'), value: String(group.failed), to: links.failed, what: t('dashboard.money.failed.what') },
  ];
  return (
    <section className="money-group" aria-labelledby={titleId}>
      <h3 id={titleId}>
        {t('dashboard.money.groupTitle', { mode: group.mode, currency: group.currency })}
        {group.mode === 'test' && <span className="badge badge-test"> {t('dashboard.money.noRealMoney')}</span>}
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
                  {t('dashboard.money.openFigure', { what: figure.what, name })}
                </span>
              </Link>
            </dd>
          </div>
        ))}
      </dl>
      {(group.application_fees !== 0 || group.lost_disputes !== 0) && (
        <p className="muted">
          {t('dashboard.money.deducts', { fees: money(group.application_fees, group.currency), disputes: money(group.lost_disputes, group.currency) })}
        </p>
      )}
      <DailyChart group={group} series={dailySeries(data, group)} />
    </section>
  );
}

function LatestPayments({ kind, rows, all }: { kind: 'latest' | 'failed'; rows: PaymentRow[]; all: string }) {
  const t = useT();
  const title = t(`dashboard.money.${kind}.title`);
  const id = `latest-${kind}-payments`;
  return (
    <section aria-labelledby={id}>
      <h3 id={id}>{title}</h3>
      {rows.length === 0 ? (
        <p className="muted">{t(`dashboard.money.${kind}.empty`)}</p>
      ) : (
        <ul className="latest-list">
          {rows.map((row) => (
            <li key={row.id}>
              <Link to={`/payments/${row.id}`}>
                {money(row.amount, row.currency)}
                <span className="visually-hidden"> {t('dashboard.money.paymentNumber', { id: String(row.id) })}</span>
              </Link>{' '}
              {row.mode === 'test' && <span className="badge badge-test">{t('payments.list.testBadge')}</span>} <span className="muted">{[row.first_name, row.last_name].filter(Boolean).join(' ') || row.email_address || t('dashboard.money.noPayer')}</span>
              <br />
              <span className="muted"><Time iso={row.created_at} /></span>
              {row.failure_reason?.message && <span className="latest-reason"> · {row.failure_reason.message}</span>}
            </li>
          ))}
        </ul>
      )}
      <p>
        <Link to={all}>
          {t(`dashboard.money.${kind}.all`)}
          <span className="visually-hidden"> {t('dashboard.money.ofLast30')}</span>
        </Link>
      </p>
    </section>
  );
}
