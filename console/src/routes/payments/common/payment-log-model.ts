import type { components } from '../../../../../clients/typescript/index';
import { label, money, utcDay } from '../../../format';
import type { Translate } from '../../../i18n/use-t';

/** Pure logic of the payment log (no DOM, no React: unit-tested in payment-log-model.spec.ts). */

type Payment = components['schemas']['AdminPaymentDetailDto'];
export type LogLine = components['schemas']['PaymentLogEntryDto'];

/** What a sentence needs besides its line: the payment, the catalog's names, and who is reading. */
export interface LogFacts {
  payment: Pick<Payment, 'amount' | 'amount_received' | 'card' | 'currency' | 'gateway' | 'payment_method' | 'refunds' | 'user_names'>;
  /** A gateway id → the name merchants know it by ("Stripe") */
  gatewayName: (gateway: string) => string;
  /** A method id of a gateway → the name payers know it by ("Card", "Apple Pay") */
  methodName: (gateway: string, method: string) => string;
  /** The signed-in user's id: their own actions read "by you" */
  you: number | null;
  /** The console's words (`useT()`; the English catalog in specs) */
  t: Translate;
}

type Context = NonNullable<LogLine['context']>;

const num = (context: Context, key: string): number | null => (typeof context[key] === 'number' ? (context[key] as number) : null);
const str = (context: Context, key: string): string | null => (typeof context[key] === 'string' ? (context[key] as string) : null);

/** The names card brands go by, from the provider's words (`visa`, `amex`, …); another brand is shown as it comes. */
const CARD_BRANDS: Record<string, string> = {
  amex: 'American Express',
  american_express: 'American Express',
  cartes_bancaires: 'Cartes Bancaires',
  diners: 'Diners Club',
  discover: 'Discover',
  eftpos_au: 'eftpos',
  interac: 'Interac',
  jcb: 'JCB',
  maestro: 'Maestro',
  mastercard: 'Mastercard',
  unionpay: 'UnionPay',
  visa: 'Visa',
};

type Card = NonNullable<Payment['card']>;

/** "Visa", "American Express": a card brand as payers know it; null for one the provider could not name. */
export function cardBrandName(brand: string): string | null {
  const key = brand.toLowerCase();
  if (key === 'unknown' || key === '') return null;
  return CARD_BRANDS[key] ?? brand.replace(/_/g, ' ').replace(/\b\w/g, (letter) => letter.toUpperCase());
}

/** "Visa ending 4242", or "card ending 4242" when the brand is unknown. */
export function cardWords(card: Card, t: Translate): string {
  const brand = cardBrandName(card.brand);
  return brand ? t('payments.log.card', { brand, last4: card.last4 }) : t('payments.log.cardUnknown', { last4: card.last4 });
}

/**
 * "with a Visa card ending 4242", "with a card", "with Apple Pay (Visa ending 4242)": how a
 * payment was paid, in the payer's words; the card's brand and last four digits when the
 * provider's charge named them.
 */
function withMethod(facts: LogFacts, gateway: string, method: string, card: Card | null = null): string {
  const { t } = facts;
  // The gateway catalog's method names are the API's (English): "Card" is a card at every gateway.
  if (facts.methodName(gateway, method).toLowerCase() === 'card') {
    if (!card) return t('payments.log.with.card');
    const brand = cardBrandName(card.brand);
    return brand
      ? t('payments.log.with.brandCard', { brand, last4: card.last4, vowel: /^[AEIOU]/.test(brand) ? 'yes' : 'no' })
      : t('payments.log.with.cardEnding', { last4: card.last4 });
  }
  const name = facts.methodName(gateway, method);
  return card ? t('payments.log.with.methodCard', { method: name, card: cardWords(card, t) }) : t('payments.log.with.method', { method: name });
}

/** A user the payment's detail names, as the reader knows them. */
export function userWords(userId: number | null, facts: Pick<LogFacts, 'payment' | 'you' | 't'>): string | null {
  if (userId === null) return null;
  if (userId === facts.you) return facts.t('payments.log.user.you');
  return facts.payment.user_names[String(userId)] ?? facts.t('payments.log.user.former');
}

/** Who reported a move, when it was not the payer's own browser: `webhook:gateway_a` → "reported by Stripe". */
function sourceWords(source: string | null, facts: LogFacts): string {
  if (!source) return '';
  const [kind, gateway] = source.split(':');
  if (kind === 'webhook' && gateway) return facts.t('payments.log.source.webhook', { gateway: facts.gatewayName(gateway) });
  if (kind === 'reconcile') return facts.t('payments.log.source.reconcile');
  return '';
}

function statusSentence(context: Context, facts: LogFacts): string | null {
  const to = str(context, 'to');
  const { payment, t } = facts;
  const by = sourceWords(str(context, 'source'), facts);
  switch (to) {
    case 'completed':
      return t('payments.log.paid', { amount: money(payment.amount_received ?? payment.amount, payment.currency), with: withMethod(facts, payment.gateway, payment.payment_method, payment.card), by });
    case 'failed': {
      const reason = str(context, 'reason');
      return reason ? t('payments.log.failedBecause', { reason, by }) : t('payments.log.failed', { by });
    }
    case 'processing':
      return t('payments.log.processing', { gateway: facts.gatewayName(payment.gateway), by });
    case 'pending':
      return str(context, 'from') === 'failed' ? t('payments.log.tryingAgain') : t('payments.log.waiting', { by });
    case 'refunded':
      return t('payments.log.refundedInFull', { by });
    case null:
      return null;
    default:
      return t('payments.log.statusNow', { status: t('vocabulary.paymentStatusBadge', { status: label(to).toLowerCase() }), by });
  }
}

function refundById(facts: LogFacts, refundId: number | null) {
  return refundId === null ? undefined : facts.payment.refunds.find((refund) => refund.id === refundId);
}

/**
 * One line of the payment log as a sentence the merchant reads ("Paid $25.00 with a Visa card ending 4242",
 * "Refund of $4.00 by Grace Hopper"), from its machine name and details; a line without words of
 * its own keeps the service's message. The raw details stay available beside it (folded).
 */
export function logSentence(line: LogLine, facts: LogFacts): string {
  const context: Context = line.context ?? {};
  const { payment, t } = facts;
  const currency = str(context, 'currency') ?? payment.currency;
  const amount = num(context, 'amount');
  const gateway = facts.gatewayName(payment.gateway);
  switch (line.event) {
    case 'payment_created': {
      const userId = num(context, 'user_id');
      if (userId !== null && amount !== null) return t('payments.log.chargeStarted', { amount: money(amount, currency), who: userWords(userId, facts) });
      const created = str(context, 'gateway') ?? payment.gateway;
      const method = str(context, 'payment_method') ?? payment.payment_method;
      return amount === null ? t('payments.log.checkoutStarted') : t('payments.log.checkoutStartedAmount', { amount: money(amount, currency), with: withMethod(facts, created, method) });
    }
    case 'status_changed':
      return statusSentence(context, facts) ?? line.message;
    case 'refund_requested': {
      const refund = refundById(facts, num(context, 'refund_id'));
      const who = userWords(refund?.created_by ?? null, facts);
      if (amount === null) return line.message;
      return t('payments.log.refundRequested', {
        amount: money(amount, currency),
        by: who ? t('payments.log.byUser', { who }) : '',
        through: str(context, 'source') === 'api' ? t('payments.log.throughApi') : '',
      });
    }
    case 'refund_recorded':
      return amount === null ? line.message : t('payments.log.refundRecorded', { amount: money(amount, currency), gateway, status: str(context, 'status') ?? 'recorded' });
    case 'refund_updated': {
      const refund = refundById(facts, num(context, 'refund_id'));
      const status = str(context, 'status');
      if (!refund || !status) return line.message;
      return t('payments.log.refundUpdated', { amount: money(refund.amount, refund.currency), status });
    }
    case 'refund_email_sent':
      return t('payments.log.refundEmailSent');
    case 'emails_sent': {
      const kinds = Array.isArray(context.kinds) ? context.kinds : [];
      const payer = kinds.includes('payer');
      const admin = kinds.includes('admin');
      if (!payer && !admin) return line.message;
      return t('payments.log.emailsSent', { to: payer && admin ? 'both' : payer ? 'payer' : 'admin' });
    }
    case 'renewal_created': {
      const parent = num(context, 'parent_payment_id');
      const status = str(context, 'status');
      if (amount === null || parent === null) return line.message;
      const values = { amount: money(amount, currency), parent: String(parent) };
      return status
        ? t('payments.log.renewalCreatedStatus', { ...values, status: t('vocabulary.paymentStatusBadge', { status: label(status).toLowerCase() }) })
        : t('payments.log.renewalCreated', values);
    }
    case 'receipt_requested':
      // "on request of you" reads oddly: the signed-in user is "you" as the subject.
      return num(context, 'user_id') === facts.you
        ? t('payments.log.receiptRequestedByYou')
        : t('payments.log.receiptRequested', { who: userWords(num(context, 'user_id'), facts) ?? t('payments.log.user.someone') });
    case 'receipt_sent':
      return t('payments.log.receiptSent');
    case 'renewal_payment_failed': {
      const attempt = num(context, 'attempt');
      const nextAt = str(context, 'next_attempt_at');
      const values = {
        attempt: attempt === null ? '' : t('payments.log.attempt', { attempt }),
        next: nextAt ? t('payments.log.retryOn', { gateway, day: utcDay(nextAt) }) : t('payments.log.noRetry', { gateway }),
      };
      return amount === null ? t('payments.log.renewalFailed', values) : t('payments.log.renewalFailedAmount', { ...values, amount: money(amount, currency) });
    }
    case 'renewal_given_up':
      return t('payments.log.renewalGivenUp', { gateway, status: str(context, 'status') ?? 'ended' });
    case 'renewal_email_sent':
      return str(context, 'kind') === 'ended' ? t('payments.log.renewalEndedEmail') : t('payments.log.renewalFailedEmail');
    case 'renewal_email_off':
      return t('payments.log.renewalEmailOff');
    case 'checkout_changed':
      return t('payments.log.checkoutChanged');
    case 'provider_details':
      return t('payments.log.providerDetails', { gateway });
    default:
      return line.message;
  }
}
