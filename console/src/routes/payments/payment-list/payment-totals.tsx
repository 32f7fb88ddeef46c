import { useQuery } from '@tanstack/react-query';
import { FormattedMessage } from 'react-intl';
import { type PaymentFilters, paymentTotalsQuery } from '../../../api/payments';
import { ErrorNotice } from '../../../components/status';
import { money } from '../../../format';

/**
 * What the filtered payments add up to (GET /administration/payments/totals, the same filters as
 * the list, every page): per mode and currency, gross, refunded and net, with how many took money.
 */
export function PaymentTotals({ filters }: { filters: PaymentFilters }) {
  const query = useQuery(paymentTotalsQuery(filters));
  if (query.isError) return <ErrorNotice error={query.error} retry={() => void query.refetch()} />;
  if (!query.data || query.data.length === 0) return null;
  return (
    <section className="card" aria-labelledby="payment-totals-title">
      <h2 id="payment-totals-title">
        <FormattedMessage id="payments.totals.title" />
      </h2>
      <ul className="payment-totals">
        {query.data.map((group) => (
          <li key={`${group.mode}-${group.currency}`}>
            <strong>
              <FormattedMessage id="payments.totals.group" values={{ mode: group.mode, currency: group.currency }} />
            </strong>{' '}
            <span className="muted">
              <FormattedMessage id="payments.totals.count" values={{ paid: group.paid, payments: group.payments, failed: group.failed }} />
            </span>
            <dl className="facts">
              <div className="facts-row">
                <dt>
                  <FormattedMessage id="payments.totals.gross" />
                </dt>
                <dd>{money(group.gross, group.currency)}</dd>
              </div>
              <div className="facts-row">
                <dt>
                  <FormattedMessage id="payments.totals.refunded" />
                </dt>
                <dd>{money(group.refunded, group.currency)}</dd>
              </div>
              {(group.application_fees !== 0 || group.lost_disputes !== 0) && (
                <div className="facts-row">
                  <dt>
                    <FormattedMessage id="payments.totals.fees" />
                  </dt>
                  <dd>{money(group.application_fees + group.lost_disputes, group.currency)}</dd>
                </div>
              )}
              <div className="facts-row">
                <dt>
                  <FormattedMessage id="payments.totals.net" />
                </dt>
                <dd>
                  <strong>{money(group.net, group.currency)}</strong>
                </dd>
              </div>
            </dl>
          </li>
        ))}
      </ul>
    </section>
  );
}
