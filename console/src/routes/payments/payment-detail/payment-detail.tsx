import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useParams } from 'react-router';
import type { components } from '../../../../../clients/typescript/index';
import { CANCEL_SUBSCRIPTIONS, REFUND_PAYMENTS, RESEND_RECEIPTS } from '../../../api/capabilities';
import { useGatewayLabels, useMethodLabels } from '../../../api/gateways';
import { paymentQuery } from '../../../api/payments';
import { label, money } from '../../../format';
import { Time } from '../../../components/time';
import { Page } from '../../../components/page';
import { QueryView, Success } from '../../../components/status';
import { useSession } from '../../../api/session';
import { NotFound } from '../../not-found/not-found';
import { disputeWords, failureWords, isDisputeOpen, moneyBadges, refundReasonWords, refundSourceWords, refundStatusWords } from '../common/money-after-model';
import { cardWords, type LogFacts, logSentence, userWords } from '../common/payment-log-model';
import { CancelSubscriptionAction } from './cancel-subscription';
import { RefundAction } from './refund-dialog';
import { ResendReceiptAction } from './resend-receipt';

type Payment = components['schemas']['AdminPaymentDetailDto'];

export function PaymentDetailScreen() {
  const id = Number(useParams().id);
  const gatewayLabels = useGatewayLabels();
  const methodLabel = useMethodLabels();
  const query = useQuery(paymentQuery(id));
  const session = useSession();
  // What the last action did, said once above the payment (a live region: screen readers hear it).
  const [done, setDone] = useState<string>();
  const you = session.state.status === 'signed-in' ? session.state.user.id : null;
  if (!Number.isInteger(id) || id <= 0) return <NotFound />;
  return (
    <Page title={`Payment #${id}`} actions={<Link to="/payments">All payments</Link>}>
      <QueryView query={query} what="status.loading.payment">
        {(payment) => {
          const logFacts: LogFacts = { payment, gatewayName: (gateway) => gatewayLabels[gateway] ?? gateway, methodName: methodLabel, you };
          return (
            <div className="stack">
              {done && <Success>{done}</Success>}
              {payment.dispute && <DisputeBanner payment={payment} />}
              {payment.status === 'failed' && payment.failure_reason && (
                <div className="notice notice-error" role="note">
                  <p className="notice-title">Why the payment failed</p>
                  <p>{failureWords(payment.failure_reason)}</p>
                </div>
              )}
              <PaymentActions
                payment={payment}
                canRefund={session.can(REFUND_PAYMENTS)}
                canCancel={session.can(CANCEL_SUBSCRIPTIONS)}
                canResend={session.can(RESEND_RECEIPTS)}
                onDone={setDone}
              />
              <section className="card" aria-labelledby="summary-title">
                <h2 id="summary-title">Summary</h2>
                <dl className="facts">
                  <dt>Status</dt>
                  <dd>
                    <span className={`badge badge-${payment.status}`}>{payment.status}</span>
                    {payment.mode === 'test' && <span className="badge badge-test">test mode</span>}
                    {moneyBadges(payment).map((badge) => (
                      <span key={badge.kind} className={`badge badge-${badge.kind}`}>
                        {badge.text}
                      </span>
                    ))}
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
                  {payment.amount_refunded > 0 && (
                    <>
                      <dt>Refunded</dt>
                      <dd>{money(payment.amount_refunded, payment.currency)}</dd>
                    </>
                  )}
                  {payment.status === 'completed' && (
                    <>
                      <dt>Refundable</dt>
                      <dd>{money(payment.refundable_amount, payment.currency)}</dd>
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
                  {payment.card && (
                    <>
                      <dt>Card</dt>
                      <dd>{cardWords(payment.card)}</dd>
                    </>
                  )}
                  {payment.subscription?.cancels_at && payment.subscription.status !== 'canceled' && (
                    <>
                      <dt>Subscription</dt>
                      <dd>Cancels on <Time iso={payment.subscription.cancels_at} /></dd>
                    </>
                  )}
                  {payment.parent_payment_id !== null && (
                    <>
                      <dt>Renewal of</dt>
                      <dd>
                        <Link to={`/payments/${payment.parent_payment_id}`}>Payment #{payment.parent_payment_id}</Link>
                      </dd>
                    </>
                  )}
                  <dt>Created</dt>
                  <dd><Time iso={payment.created_at} /></dd>
                  <dt>Updated</dt>
                  <dd><Time iso={payment.updated_at} /></dd>
                </dl>
              </section>
              {payment.refunds.length > 0 && <RefundList payment={payment} you={you} />}
              {payment.renewals_total > 0 && <RenewalList payment={payment} />}
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
                      <span className="muted">
                        <Time iso={line.created_at} />
                      </span>{' '}
                      {logSentence(line, logFacts)}
                      <details className="log-raw">
                        <summary>
                          Details<span className="visually-hidden"> of “{logSentence(line, logFacts)}”</span>
                        </summary>
                        <p>
                          <code>{line.event}</code>: {line.message}
                        </p>
                        {line.context && Object.keys(line.context).length > 0 && <pre>{JSON.stringify(line.context, null, 2)}</pre>}
                      </details>
                    </li>
                  ))}
                </ol>
              </section>
            </div>
          );
        }}
      </QueryView>
    </Page>
  );
}

/** Refund, Cancel subscription and Resend receipt, for users who may do them and payments they apply to. */
function PaymentActions({
  payment,
  canRefund,
  canCancel,
  canResend,
  onDone,
}: {
  payment: Payment;
  canRefund: boolean;
  canCancel: boolean;
  canResend: boolean;
  onDone: (message: string) => void;
}) {
  const refundable = canRefund && payment.status === 'completed' && payment.refundable_amount > 0;
  const disputeOpen = payment.dispute !== null && isDisputeOpen(payment.dispute);
  const subscription = payment.provider_references.subscription !== null && payment.provider_references.subscription_status !== 'canceled';
  const cancelable = canCancel && subscription;
  const scheduled = payment.subscription?.cancel_at_period_end ?? false;
  // A receipt exists for a completed payment of a form with a payer address (the API refuses the rest).
  const receipt = canResend && payment.status === 'completed' && payment.form_id !== null && payment.email_address ? payment.email_address : null;
  if (!refundable && !cancelable && !receipt) return null;
  return (
    <div className="toolbar" role="group" aria-label="Actions on this payment">
      {refundable &&
        (disputeOpen ? (
          <p className="muted">A refund is not possible while the chargeback is open.</p>
        ) : (
          <RefundAction payment={payment} onRefunded={(refund) => onDone(`${money(refund.amount, refund.currency)} ${refund.status === 'succeeded' ? 'refunded' : 'refund requested'}.`)} />
        ))}
      {cancelable && (
        <CancelSubscriptionAction
          paymentId={payment.id}
          endScheduled={scheduled}
          onCanceled={(atPeriodEnd) => onDone(atPeriodEnd ? 'The subscription ends at the end of the period already paid.' : 'The subscription is canceled.')}
        />
      )}
      {receipt && <ResendReceiptAction paymentId={payment.id} email={receipt} onSent={onDone} />}
    </div>
  );
}

/** An open or closed chargeback: what it means for the merchant, how much, and until when evidence is taken. */
function DisputeBanner({ payment }: { payment: Payment }) {
  const dispute = payment.dispute!;
  const open = isDisputeOpen(dispute);
  return (
    <div className={`notice ${open ? 'notice-warning' : 'notice-info'}`} role="note" aria-label="Dispute">
      <p className="notice-title">{disputeWords(dispute.status)}</p>
      <p>
        {money(dispute.amount, payment.currency)} disputed
        {dispute.reason ? ` (${label(dispute.reason)})` : ''}.
        {open && dispute.evidence_due_by && (
          <>
            {' '}Send your evidence at the provider by <Time iso={dispute.evidence_due_by} />.
          </>
        )}
      </p>
      <p className="muted">
        Provider reference: <code>{dispute.provider_dispute_id}</code>
        {dispute.provider_url && (
          <>
            {' · '}
            <a href={dispute.provider_url} target="_blank" rel="noopener noreferrer">
              Open the dispute at the provider
            </a>
          </>
        )}
      </p>
    </div>
  );
}

function RefundList({ payment, you }: { payment: Payment; you: number | null }) {
  return (
    <section className="card" aria-labelledby="refunds-title">
      <h2 id="refunds-title">Refunds</h2>
      <ul className="refunds">
        {payment.refunds.map((refund) => (
          <li key={refund.id}>
            <strong>{money(refund.amount, refund.currency)}</strong> <span className={`badge badge-refund-${refund.status}`}>{refundStatusWords(refund.status)}</span>
            <br />
            <span className="muted">
              <Time iso={refund.created_at} /> · {refundSourceWords(refund.source)}
              {refund.created_by === null ? '' : ` · by ${userWords(refund.created_by, { payment, you })}`} · {refundReasonWords(refund.reason)}
            </span>
            {refund.note && <p className="refund-note">Note: {refund.note}</p>}
          </li>
        ))}
      </ul>
    </section>
  );
}

function RenewalList({ payment }: { payment: Payment }) {
  return (
    <section className="card" aria-labelledby="renewals-title">
      <h2 id="renewals-title">Renewals</h2>
      {payment.renewals_total > payment.renewals.length && (
        <p className="muted">
          The newest {payment.renewals.length} of {payment.renewals_total} renewals.
        </p>
      )}
      <ul className="refunds">
        {payment.renewals.map((renewal) => (
          <li key={renewal.id}>
            <Link to={`/payments/${renewal.id}`}>Payment #{renewal.id}</Link> · {money(renewal.amount, renewal.currency)} ·{' '}
            <span className={`badge badge-${renewal.status}`}>{renewal.status}</span> <span className="muted"><Time iso={renewal.created_at} /></span>
          </li>
        ))}
      </ul>
    </section>
  );
}
