import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { FormattedMessage } from 'react-intl';
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
import { useT } from '../../../i18n/use-t';
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
  const t = useT();
  // What the last action did, said once above the payment (a live region: screen readers hear it).
  const [done, setDone] = useState<string>();
  const you = session.state.status === 'signed-in' ? session.state.user.id : null;
  if (!Number.isInteger(id) || id <= 0) return <NotFound />;
  return (
    <Page title={t('payments.detail.title', { id: String(id) })} actions={<Link to="/payments">{t('payments.detail.allPayments')}</Link>}>
      <QueryView query={query} what="status.loading.payment">
        {(payment) => {
          const logFacts: LogFacts = { payment, gatewayName: (gateway) => gatewayLabels[gateway] ?? gateway, methodName: methodLabel, you, t };
          return (
            <div className="stack">
              {done && <Success>{done}</Success>}
              {payment.dispute && <DisputeBanner payment={payment} />}
              {payment.status === 'failed' && payment.failure_reason && (
                <div className="notice notice-error" role="note">
                  <p className="notice-title">{t('payments.detail.failedWhy')}</p>
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
                <h2 id="summary-title">{t('payments.detail.summary')}</h2>
                <dl className="facts">
                  <dt>{t('payments.detail.status')}</dt>
                  <dd>
                    <span className={`badge badge-${payment.status}`}>{t('vocabulary.paymentStatusBadge', { status: payment.status })}</span>
                    {payment.mode === 'test' && <span className="badge badge-test">{t('payments.detail.testMode')}</span>}
                    {moneyBadges(payment).map((badge) => (
                      <span key={badge.kind} className={`badge badge-${badge.kind}`}>
                        {t(`payments.badge.${badge.kind}`)}
                      </span>
                    ))}
                  </dd>
                  <dt>{t('payments.detail.amount')}</dt>
                  <dd>
                    {payment.frequency && payment.frequency !== 'one-time'
                      ? t('payments.detail.amountEvery', { amount: money(payment.amount, payment.currency), frequency: payment.frequency, other: label(payment.frequency) })
                      : money(payment.amount, payment.currency)}
                  </dd>
                  {payment.amount_received !== null && (
                    <>
                      <dt>{t('payments.detail.received')}</dt>
                      <dd>{money(payment.amount_received, payment.currency)}</dd>
                    </>
                  )}
                  {payment.amount_refunded > 0 && (
                    <>
                      <dt>{t('payments.detail.refunded')}</dt>
                      <dd>{money(payment.amount_refunded, payment.currency)}</dd>
                    </>
                  )}
                  {payment.status === 'completed' && (
                    <>
                      <dt>{t('payments.detail.refundable')}</dt>
                      <dd>{money(payment.refundable_amount, payment.currency)}</dd>
                    </>
                  )}
                  {payment.setup_amount !== null && payment.setup_amount > 0 && (
                    <>
                      <dt>{t('payments.detail.setupFee')}</dt>
                      <dd>{money(payment.setup_amount, payment.currency)}</dd>
                    </>
                  )}
                  {payment.application_fee_amount !== null && (
                    <>
                      <dt>{t('payments.detail.platformFee')}</dt>
                      <dd>{money(payment.application_fee_amount, payment.currency)}</dd>
                    </>
                  )}
                  <dt>{t('payments.detail.payer')}</dt>
                  <dd>
                    {[payment.first_name, payment.last_name].filter(Boolean).join(' ') || '—'} {payment.email_address ? `<${payment.email_address}>` : ''}
                  </dd>
                  <dt>{t('payments.detail.form')}</dt>
                  <dd>
                    {payment.form_id === null ? '—' : <Link to={`/forms/${payment.form_id}`}>{payment.form_title ?? t('payments.list.deletedForm')}</Link>}
                    {payment.plan_title ? ` · ${payment.plan_title}` : ''}
                  </dd>
                  <dt>{t('payments.detail.gateway')}</dt>
                  <dd>
                    {gatewayLabels[payment.gateway] ?? label(payment.gateway)} · {methodLabel(payment.gateway, payment.payment_method)}
                  </dd>
                  {payment.card && (
                    <>
                      <dt>{t('payments.detail.card')}</dt>
                      <dd>{cardWords(payment.card, t)}</dd>
                    </>
                  )}
                  {payment.subscription?.cancels_at && payment.subscription.status !== 'canceled' && (
                    <>
                      <dt>{t('payments.detail.subscription')}</dt>
                      <dd>
                        <FormattedMessage id="payments.detail.cancelsOn" values={{ time: <Time iso={payment.subscription.cancels_at} /> }} />
                      </dd>
                    </>
                  )}
                  {payment.parent_payment_id !== null && (
                    <>
                      <dt>{t('payments.detail.renewalOf')}</dt>
                      <dd>
                        <Link to={`/payments/${payment.parent_payment_id}`}>{t('payments.detail.title', { id: String(payment.parent_payment_id) })}</Link>
                      </dd>
                    </>
                  )}
                  <dt>{t('payments.detail.created')}</dt>
                  <dd><Time iso={payment.created_at} /></dd>
                  <dt>{t('payments.detail.updated')}</dt>
                  <dd><Time iso={payment.updated_at} /></dd>
                </dl>
              </section>
              {payment.refunds.length > 0 && <RefundList payment={payment} you={you} />}
              {payment.renewals_total > 0 && <RenewalList payment={payment} />}
              <section className="card" aria-labelledby="refs-title">
                <h2 id="refs-title">{t('payments.detail.references')}</h2>
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
                  <h2 id="fields-title">{t('payments.detail.customFields')}</h2>
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
                <h2 id="log-title">{t('payments.detail.log')}</h2>
                <p><Link to={`/events?payment_id=${payment.id}`}>{t('payments.detail.log.events')}</Link></p>
                {payment.log_total > payment.log.length && <p className="muted">{t('payments.detail.log.newest', { shown: payment.log.length, total: payment.log_total })}</p>}
                <ol className="log">
                  {payment.log.map((line) => (
                    <li key={line.id} className={`log-line log-${line.level}`}>
                      <span className="muted">
                        <Time iso={line.created_at} />
                      </span>{' '}
                      {logSentence(line, logFacts)}
                      <details className="log-raw">
                        <summary>
                          {t('payments.detail.log.details')}
                          <span className="visually-hidden">{t('payments.detail.log.detailsOf', { line: logSentence(line, logFacts) })}</span>
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
  const t = useT();
  const refundable = canRefund && payment.status === 'completed' && payment.refundable_amount > 0;
  const disputeOpen = payment.dispute !== null && isDisputeOpen(payment.dispute);
  const subscription = payment.provider_references.subscription !== null && payment.provider_references.subscription_status !== 'canceled';
  const cancelable = canCancel && subscription;
  const scheduled = payment.subscription?.cancel_at_period_end ?? false;
  // A receipt exists for a completed payment of a form with a payer address (the API refuses the rest).
  const receipt = canResend && payment.status === 'completed' && payment.form_id !== null && payment.email_address ? payment.email_address : null;
  if (!refundable && !cancelable && !receipt) return null;
  return (
    <div className="toolbar" role="group" aria-label={t('payments.detail.actions')}>
      {refundable &&
        (disputeOpen ? (
          <p className="muted">{t('payments.detail.refundWhileDispute')}</p>
        ) : (
          <RefundAction
            payment={payment}
            onRefunded={(refund) => onDone(t('payments.detail.refundDone', { amount: money(refund.amount, refund.currency), status: refund.status === 'succeeded' ? 'succeeded' : 'requested' }))}
          />
        ))}
      {cancelable && (
        <CancelSubscriptionAction
          paymentId={payment.id}
          endScheduled={scheduled}
          onCanceled={(atPeriodEnd) => onDone(t(atPeriodEnd ? 'payments.detail.subscriptionEnds' : 'payments.detail.subscriptionCanceled'))}
        />
      )}
      {receipt && <ResendReceiptAction paymentId={payment.id} email={receipt} onSent={onDone} />}
    </div>
  );
}

/** An open or closed chargeback: what it means for the merchant, how much, and until when evidence is taken. */
function DisputeBanner({ payment }: { payment: Payment }) {
  const t = useT();
  const dispute = payment.dispute!;
  const open = isDisputeOpen(dispute);
  return (
    <div className={`notice ${open ? 'notice-warning' : 'notice-info'}`} role="note" aria-label={t('payments.dispute.label')}>
      <p className="notice-title">{disputeWords(dispute.status, t)}</p>
      <p>
        {dispute.reason
          ? t('payments.dispute.amountReason', { amount: money(dispute.amount, payment.currency), reason: label(dispute.reason) })
          : t('payments.dispute.amount', { amount: money(dispute.amount, payment.currency) })}
        {open && dispute.evidence_due_by && (
          <>
            {' '}
            <FormattedMessage id="payments.dispute.evidenceBy" values={{ time: <Time iso={dispute.evidence_due_by} /> }} />
          </>
        )}
      </p>
      <p className="muted">
        <FormattedMessage id="payments.dispute.reference" values={{ reference: <code>{dispute.provider_dispute_id}</code> }} />
        {dispute.provider_url && (
          <>
            {' · '}
            <a href={dispute.provider_url} target="_blank" rel="noopener noreferrer">
              {t('payments.dispute.open')}
            </a>
          </>
        )}
      </p>
    </div>
  );
}

function RefundList({ payment, you }: { payment: Payment; you: number | null }) {
  const t = useT();
  return (
    <section className="card" aria-labelledby="refunds-title">
      <h2 id="refunds-title">{t('payments.detail.refunds')}</h2>
      <ul className="refunds">
        {payment.refunds.map((refund) => (
          <li key={refund.id}>
            <strong>{money(refund.amount, refund.currency)}</strong> <span className={`badge badge-refund-${refund.status}`}>{refundStatusWords(refund.status, t)}</span>
            <br />
            <span className="muted">
              <Time iso={refund.created_at} /> · {refundSourceWords(refund.source, t)}
              {refund.created_by === null ? '' : ` · ${t('payments.detail.refundBy', { who: userWords(refund.created_by, { payment, you, t }) })}`} · {refundReasonWords(refund.reason, t)}
            </span>
            {refund.note && <p className="refund-note">{t('payments.detail.refundNote', { note: refund.note })}</p>}
          </li>
        ))}
      </ul>
    </section>
  );
}

function RenewalList({ payment }: { payment: Payment }) {
  const t = useT();
  return (
    <section className="card" aria-labelledby="renewals-title">
      <h2 id="renewals-title">{t('payments.detail.renewals')}</h2>
      {payment.renewals_total > payment.renewals.length && (
        <p className="muted">{t('payments.detail.renewals.newest', { shown: payment.renewals.length, total: payment.renewals_total })}</p>
      )}
      <ul className="refunds">
        {payment.renewals.map((renewal) => (
          <li key={renewal.id}>
            <Link to={`/payments/${renewal.id}`}>{t('payments.detail.title', { id: String(renewal.id) })}</Link> · {money(renewal.amount, renewal.currency)} ·{' '}
            <span className={`badge badge-${renewal.status}`}>{t('vocabulary.paymentStatusBadge', { status: renewal.status })}</span> <span className="muted"><Time iso={renewal.created_at} /></span>
          </li>
        ))}
      </ul>
    </section>
  );
}
