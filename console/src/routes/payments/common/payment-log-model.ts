import type { components } from '../../../../../clients/typescript/index';
import { label, money } from '../../../format';

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
export function cardWords(card: Card): string {
  return `${cardBrandName(card.brand) ?? 'card'} ending ${card.last4}`;
}

/**
 * "with a Visa card ending 4242", "with a card", "with Apple Pay (Visa ending 4242)": how a
 * payment was paid, in the payer's words; the card's brand and last four digits when the
 * provider's charge named them.
 */
function withMethod(facts: LogFacts, gateway: string, method: string, card: Card | null = null): string {
  const name = facts.methodName(gateway, method);
  if (name.toLowerCase() === 'card') {
    if (!card) return 'with a card';
    const brand = cardBrandName(card.brand);
    return brand ? `with ${/^[AEIOU]/.test(brand) ? 'an' : 'a'} ${brand} card ending ${card.last4}` : `with a card ending ${card.last4}`;
  }
  return card ? `with ${name} (${cardWords(card)})` : `with ${name}`;
}

/** A user the payment's detail names, as the reader knows them. */
export function userWords(userId: number | null, facts: Pick<LogFacts, 'payment' | 'you'>): string | null {
  if (userId === null) return null;
  if (userId === facts.you) return 'you';
  return facts.payment.user_names[String(userId)] ?? 'a former teammate';
}

/** Who reported a move, when it was not the payer's own browser: `webhook:gateway_a` → "reported by Stripe". */
function sourceWords(source: string | null, facts: LogFacts): string {
  if (!source) return '';
  const [kind, gateway] = source.split(':');
  if (kind === 'webhook' && gateway) return ` (reported by ${facts.gatewayName(gateway)})`;
  if (kind === 'reconcile') return ' (read back from the provider)';
  return '';
}

function statusSentence(context: Context, facts: LogFacts): string | null {
  const to = str(context, 'to');
  const { payment } = facts;
  const by = sourceWords(str(context, 'source'), facts);
  switch (to) {
    case 'completed':
      return `Paid ${money(payment.amount_received ?? payment.amount, payment.currency)} ${withMethod(facts, payment.gateway, payment.payment_method, payment.card)}${by}.`;
    case 'failed': {
      const reason = str(context, 'reason');
      return `The payment failed${reason ? `: ${reason}` : ''}${by}.`;
    }
    case 'processing':
      return `The payment is being processed by ${facts.gatewayName(payment.gateway)}${by}.`;
    case 'pending':
      return str(context, 'from') === 'failed' ? 'The payer is trying again.' : `Waiting for the payer${by}.`;
    case 'refunded':
      return `Refunded in full${by}.`;
    case null:
      return null;
    default:
      return `The payment is now ${label(to).toLowerCase()}${by}.`;
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
  const { payment } = facts;
  const currency = str(context, 'currency') ?? payment.currency;
  const amount = num(context, 'amount');
  switch (line.event) {
    case 'payment_created': {
      const userId = num(context, 'user_id');
      if (userId !== null && amount !== null) return `Charge of ${money(amount, currency)} started by ${userWords(userId, facts)}.`;
      const gateway = str(context, 'gateway') ?? payment.gateway;
      const method = str(context, 'payment_method') ?? payment.payment_method;
      return amount === null ? 'Checkout started.' : `Checkout started: ${money(amount, currency)} ${withMethod(facts, gateway, method)}.`;
    }
    case 'status_changed':
      return statusSentence(context, facts) ?? line.message;
    case 'refund_requested': {
      const refund = refundById(facts, num(context, 'refund_id'));
      const who = userWords(refund?.created_by ?? null, facts);
      const through = str(context, 'source') === 'api' ? ' through the API' : '';
      if (amount === null) return line.message;
      return `Refund of ${money(amount, currency)}${who ? ` by ${who}` : ''}${through}.`;
    }
    case 'refund_recorded':
      return amount === null ? line.message : `Refund of ${money(amount, currency)} made at ${facts.gatewayName(payment.gateway)}: ${str(context, 'status') ?? 'recorded'}.`;
    case 'refund_updated': {
      const refund = refundById(facts, num(context, 'refund_id'));
      const status = str(context, 'status');
      if (!refund || !status) return line.message;
      return `The refund of ${money(refund.amount, refund.currency)} is ${status === 'succeeded' ? 'complete' : status}.`;
    }
    case 'refund_email_sent':
      return 'Refund email sent to the payer.';
    case 'emails_sent': {
      const kinds = Array.isArray(context.kinds) ? context.kinds : [];
      const parts = [kinds.includes('payer') ? 'the receipt to the payer' : null, kinds.includes('admin') ? 'the notification to you' : null].filter(Boolean);
      return parts.length > 0 ? `Emailed ${parts.join(' and ')}.` : line.message;
    }
    case 'renewal_created': {
      const parent = num(context, 'parent_payment_id');
      const status = str(context, 'status');
      if (amount === null || parent === null) return line.message;
      return `Renewal of ${money(amount, currency)} for the subscription of payment #${parent}${status ? ` (${label(status).toLowerCase()})` : ''}.`;
    }
    case 'receipt_requested':
      // "on request of you" reads oddly: the signed-in user is "you" as the subject.
      return num(context, 'user_id') === facts.you ? 'You had the receipt sent again.' : `Receipt sent again on request of ${userWords(num(context, 'user_id'), facts) ?? 'a user'}.`;
    case 'receipt_sent':
      return 'Receipt emailed to the payer.';
    case 'renewal_payment_failed': {
      const attempt = num(context, 'attempt');
      const next = str(context, 'next_attempt_at');
      const what = amount === null ? 'A renewal payment' : `The renewal payment of ${money(amount, currency)}`;
      return `${what} failed${attempt === null ? '' : ` (attempt ${attempt})`}; ${next ? `${facts.gatewayName(payment.gateway)} tries again on ${next.slice(0, 10)}` : `${facts.gatewayName(payment.gateway)} makes no further attempt`}.`;
    }
    case 'renewal_given_up':
      return `${facts.gatewayName(payment.gateway)} stopped trying to collect the renewal: the subscription is ${str(context, 'status') ?? 'ended'}.`;
    case 'renewal_email_sent':
      return str(context, 'kind') === 'ended' ? 'Told the payer the subscription ended unpaid.' : 'Emailed the payer about the failed renewal, with a link to update their card.';
    case 'renewal_email_off':
      return "No email to the payer about the failed renewal: the form's setting turns it off.";
    case 'checkout_changed':
      return 'The payer changed their details before paying.';
    case 'provider_details':
      return `Details received from ${facts.gatewayName(payment.gateway)}.`;
    default:
      return line.message;
  }
}
