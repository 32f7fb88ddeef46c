import type { components } from '../../../../../clients/typescript/index';
import { fromAmountInput, money, toAmountInput } from '../../../format';

/**
 * Pure logic of what happens to a payment after it took the money (refunds, disputes, failure
 * reasons), shared by the payments list and the payment detail. No DOM, no React:
 * unit-tested in money-after-model.spec.ts.
 */

type Refund = components['schemas']['RefundDto'];
type Dispute = components['schemas']['PaymentDisputeDto'];
type FailureReason = components['schemas']['PaymentFailureReasonDto'];
export type RefundReason = NonNullable<components['schemas']['CreateRefundDto']['reason']>;

/** The refund reasons the API takes, in merchant words (`other` stays with us, the provider is not told). */
export const REFUND_REASONS: ReadonlyArray<readonly [RefundReason, string]> = [
  ['requested_by_customer', 'The customer asked for it'],
  ['duplicate', 'Duplicate payment'],
  ['fraudulent', 'Fraudulent payment'],
  ['other', 'Another reason'],
];

export function refundReasonWords(reason: Refund['reason']): string {
  return REFUND_REASONS.find(([value]) => value === reason)?.[1] ?? '—';
}

const REFUND_STATUS_WORDS: Record<Refund['status'], string> = {
  pending: 'On its way',
  succeeded: 'Refunded',
  failed: 'Failed',
  canceled: 'Canceled',
};

export function refundStatusWords(status: Refund['status']): string {
  return REFUND_STATUS_WORDS[status] ?? status;
}

const REFUND_SOURCE_WORDS: Record<Refund['source'], string> = {
  console: 'This console',
  api: 'An API client',
  provider: "The provider's dashboard",
};

export function refundSourceWords(source: Refund['source']): string {
  return REFUND_SOURCE_WORDS[source] ?? source;
}

/** The badges a payment row or detail shows beside its status. */
export type MoneyBadge = { kind: 'refunded' | 'partially-refunded' | 'disputed'; text: string };

/** Refunded in full, in part, or not at all (from what was received, else the amount), and disputed. */
export function moneyBadges(payment: { amount: number; amount_refunded: number; disputed: boolean; amount_received?: number | null }): MoneyBadge[] {
  const badges: MoneyBadge[] = [];
  const paid = payment.amount_received ?? payment.amount;
  if (payment.amount_refunded > 0) {
    badges.push(payment.amount_refunded >= paid ? { kind: 'refunded', text: 'Refunded' } : { kind: 'partially-refunded', text: 'Partially refunded' });
  }
  if (payment.disputed) badges.push({ kind: 'disputed', text: 'Disputed' });
  return badges;
}

/** What the amount input of the Refund dialog starts with: all that is refundable, in major units. */
export function refundableInput(refundable: number, currency: string): string {
  return toAmountInput(refundable, currency);
}

/**
 * The Refund dialog's amount (major units, as typed) → minor units of the currency's exponent, or
 * why it cannot be refunded. A value the currency cannot represent (1.5 JPY, 12.345 USD) is refused,
 * never rounded; the gateway's own limits (e.g. whole units of HUF at gateway B) are the API's to say.
 */
export function parseRefundAmount(text: string, currency: string, refundable: number): { minor: number } | { error: string } {
  // A comma is refused, not dropped: "1,50" means 1.50 to half the world and 150 to the other half.
  const trimmed = text.trim();
  if (trimmed === '') return { error: 'Enter the amount to refund.' };
  const parsed = fromAmountInput(trimmed, currency);
  if ('error' in parsed) {
    if (/decimal places/.test(parsed.error)) return { error: `${currency.toUpperCase()} amounts cannot have that many decimals.` };
    if (/multiple of/.test(parsed.error)) return { error: `${parsed.error}.` };
    return { error: 'Enter an amount such as 12.50.' };
  }
  if (parsed.minor < 1) return { error: 'Enter an amount above zero.' };
  if (parsed.minor > refundable) return { error: `At most ${money(refundable, currency)} can be refunded.` };
  return parsed;
}

const DISPUTE_WORDS: Record<string, string> = {
  warning_needs_response: 'Inquiry opened: respond before it becomes a chargeback',
  warning_under_review: 'Inquiry under review',
  warning_closed: 'Inquiry closed',
  needs_response: 'Chargeback: your response is needed',
  under_review: 'Chargeback under review',
  won: 'Chargeback won: the money stays with you',
  lost: 'Chargeback lost: the money went back to the payer',
  prevented: 'Chargeback prevented',
};

/** A dispute's status in merchant words; an unknown status keeps the provider's word, made readable. */
export function disputeWords(status: string): string {
  return DISPUTE_WORDS[status] ?? `Dispute: ${status.replace(/_/g, ' ')}`;
}

/** Open disputes ask for something of the merchant; closed ones are history. */
export function isDisputeOpen(dispute: Dispute): boolean {
  return ['warning_needs_response', 'warning_under_review', 'needs_response', 'under_review'].includes(dispute.status);
}

/** The provider's reason for a failed payment, as one line a merchant reads: its message first, then its codes. */
export function failureWords(reason: FailureReason): string {
  const codes = [reason.code, reason.decline_code].filter(Boolean).map((code) => String(code).replace(/_/g, ' '));
  const detail = codes.length > 0 ? `(${codes.join(', ')})` : '';
  return [reason.message?.trim(), detail].filter(Boolean).join(' ');
}
