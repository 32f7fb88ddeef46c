import { useQuery } from '@tanstack/react-query';
import { Link, useParams } from 'react-router';
import { useGatewayLabels, useMethodLabels } from '../../../api/gateways';
import { paymentQuery } from '../../../api/payments';
import { label, money, when } from '../../../format';
import { Page } from '../../../components/page';
import { QueryView } from '../../../components/status';
import { NotFound } from '../../not-found/not-found';

export function PaymentDetailScreen() {
  const id = Number(useParams().id);
  const gatewayLabels = useGatewayLabels();
  const methodLabel = useMethodLabels();
  const query = useQuery(paymentQuery(id));
  if (!Number.isInteger(id) || id <= 0) return <NotFound />;
  return (
    <Page title={`Payment #${id}`} actions={<Link to="/payments">All payments</Link>}>
      <QueryView query={query} what="the payment">
        {(payment) => (
          <div className="stack">
            <section className="card" aria-labelledby="summary-title">
              <h2 id="summary-title">Summary</h2>
              <dl className="facts">
                <dt>Status</dt>
                <dd>
                  <span className={`badge badge-${payment.status}`}>{payment.status}</span>
                  {payment.mode === 'test' && <span className="badge badge-test">test mode</span>}
                </dd>
                <dt>Amount</dt>
                <dd>
                  {money(payment.amount, payment.currency)}
                  {payment.frequency && payment.frequency !== 'one-time' ? ` (${label(payment.frequency)})` : ''}
                </dd>
                {payment.amount_received !== null && (
                  <>
                    <dt>Received</dt>
                    <dd>{money(payment.amount_received, payment.currency)}</dd>
                  </>
                )}
                {payment.setup_amount !== null && payment.setup_amount > 0 && (
                  <>
                    <dt>Setup fee</dt>
                    <dd>{money(payment.setup_amount, payment.currency)}</dd>
                  </>
                )}
                {payment.application_fee_amount !== null && (
                  <>
                    <dt>Platform fee</dt>
                    <dd>{money(payment.application_fee_amount, payment.currency)}</dd>
                  </>
                )}
                <dt>Payer</dt>
                <dd>
                  {[payment.first_name, payment.last_name].filter(Boolean).join(' ') || '—'} {payment.email_address ? `<${payment.email_address}>` : ''}
                </dd>
                <dt>Form</dt>
                <dd>
                  {payment.form_id === null ? '—' : <Link to={`/forms/${payment.form_id}`}>{payment.form_title ?? 'Deleted form'}</Link>}
                  {payment.plan_title ? ` · ${payment.plan_title}` : ''}
                </dd>
                <dt>Gateway</dt>
                <dd>
                  {gatewayLabels[payment.gateway] ?? label(payment.gateway)} · {methodLabel(payment.gateway, payment.payment_method)}
                </dd>
                {payment.parent_payment_id !== null && (
                  <>
                    <dt>Renewal of</dt>
                    <dd>
                      <Link to={`/payments/${payment.parent_payment_id}`}>Payment #{payment.parent_payment_id}</Link>
                    </dd>
                  </>
                )}
                <dt>Created</dt>
                <dd>{when(payment.created_at)}</dd>
                <dt>Updated</dt>
                <dd>{when(payment.updated_at)}</dd>
              </dl>
            </section>
            <section className="card" aria-labelledby="refs-title">
              <h2 id="refs-title">Provider references</h2>
              <dl className="facts">
                {Object.entries(payment.provider_references).map(([name, value]) => (
                  <div key={name} className="facts-row">
                    <dt>{label(name)}</dt>
                    <dd>{value ? <code>{value}</code> : '—'}</dd>
                  </div>
                ))}
              </dl>
            </section>
            {payment.custom_fields && Object.keys(payment.custom_fields).length > 0 && (
              <section className="card" aria-labelledby="fields-title">
                <h2 id="fields-title">Custom fields</h2>
                <dl className="facts">
                  {Object.entries(payment.custom_fields).map(([name, value]) => (
                    <div key={name} className="facts-row">
                      <dt>{name}</dt>
                      <dd>{String(value)}</dd>
                    </div>
                  ))}
                </dl>
              </section>
            )}
            <section className="card" aria-labelledby="log-title">
              <h2 id="log-title">Payment log</h2>
              <p><Link to={`/events?payment_id=${payment.id}`}>Provider events of this payment</Link></p>
              {payment.log_total > payment.log.length && (
                <p className="muted">
                  The newest {payment.log.length} of {payment.log_total} lines.
                </p>
              )}
              <ol className="log">
                {payment.log.map((line) => (
                  <li key={line.id} className={`log-line log-${line.level}`}>
                    <span className="muted">{when(line.created_at)}</span> <strong>{line.event}</strong>: {line.message}
                    {line.context && Object.keys(line.context).length > 0 && <pre>{JSON.stringify(line.context, null, 2)}</pre>}
                  </li>
                ))}
              </ol>
            </section>
          </div>
        )}
      </QueryView>
    </Page>
  );
}
