import { useQuery } from '@tanstack/react-query';
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
      <h2 id="payment-totals-title">Totals of these payments</h2>
      <ul className="payment-totals">
        {query.data.map((group) => (
          <li key={`${group.mode}-${group.currency}`}>
            <strong>
              {group.mode === 'live' ? 'Live' : 'Test'} {group.currency}
            </strong>{' '}
            <span className="muted">
              ({group.paid} of {group.payments} took money{group.failed > 0 ? `, ${group.failed} failed` : ''})
            </span>
            <dl className="facts">
              <div className="facts-row">
                <dt>Gross</dt>
                <dd>{money(group.gross, group.currency)}</dd>
              </div>
              <div className="facts-row">
                <dt>Refunded</dt>
                <dd>{money(group.refunded, group.currency)}</dd>
              </div>
              {(group.application_fees !== 0 || group.lost_disputes !== 0) && (
                <div className="facts-row">
                  <dt>Fees and lost disputes</dt>
                  <dd>{money(group.application_fees + group.lost_disputes, group.currency)}</dd>
                </div>
              )}
              <div className="facts-row">
                <dt>Net</dt>
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
