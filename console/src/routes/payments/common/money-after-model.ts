import type { components } from '../../../../../clients/typescript/index';
import { fromAmountInput, money, toAmountInput } from '../../../format';
import type { Translate } from '../../../i18n/use-t';

/**
 * Pure logic of what happens to a payment after it took the money (refunds, disputes, failure
 * reasons), shared by the payments list and the payment detail. No DOM, no React:
 * unit-tested in money-after-model.spec.ts.
 */

type Refund = components['schemas']['RefundDto'];
type Dispute = components['schemas']['PaymentDisputeDto'];
type FailureReason = components['schemas']['PaymentFailureReasonDto'];
export type RefundReason = NonNullable<components['schemas']['CreateRefundDto']['reason']>;

/** The refund reasons the API takes (`other` stays with us, the provider is not told); their words are `payments.refund.reason.*`. */
export const REFUND_REASONS: ReadonlyArray<RefundReason> = ['requested_by_customer', 'duplicate', 'fraudulent', 'other'];

/** A refund's reason in merchant words ("The customer asked for it"); "—" for none. */
export function refundReasonWords(reason: Refund['reason'], t: Translate): string {
  return reason && REFUND_REASONS.includes(reason) ? t(`payments.refund.reason.${reason}`) : '—';
}

const REFUND_STATUSES: ReadonlyArray<Refund['status']> = ['pending', 'succeeded', 'failed', 'canceled'];

/** "On its way", "Refunded"…; a status the console does not know is shown as the API says it. */
export function refundStatusWords(status: Refund['status'], t: Translate): string {
  return REFUND_STATUSES.includes(status) ? t(`payments.refund.status.${status}`) : status;
}

const REFUND_SOURCES: ReadonlyArray<Refund['source']> = ['console', 'api', 'provider'];

/** Where a refund was made: "This console", "An API client", "The provider's dashboard". */
export function refundSourceWords(source: Refund['source'], t: Translate): string {
  return REFUND_SOURCES.includes(source) ? t(`payments.refund.source.${source}`) : source;
}

/** The badges a payment row or detail shows beside its status (their words: `payments.badge.<kind>`). */
export type MoneyBadge = { kind: 'refunded' | 'partially-refunded' | 'disputed' };

/** Refunded in full, in part, or not at all (from what was received, else the amount), and disputed. */
export function moneyBadges(payment: { amount: number; amount_refunded: number; disputed: boolean; amount_received?: number | null }): MoneyBadge[] {
  const badges: MoneyBadge[] = [];
  const paid = payment.amount_received ?? payment.amount;
  if (payment.amount_refunded > 0) {
    badges.push({ kind: payment.amount_refunded >= paid ? 'refunded' : 'partially-refunded' });
  }
  if (payment.disputed) badges.push({ kind: 'disputed' });
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
export function parseRefundAmount(text: string, currency: string, refundable: number, t: Translate): { minor: number } | { error: string } {
  // A comma is refused, not dropped: "1,50" means 1.50 to half the world and 150 to the other half.
  const trimmed = text.trim();
  if (trimmed === '') return { error: t('payments.refund.amount.empty') };
  const parsed = fromAmountInput(trimmed, currency);
  if ('error' in parsed) {
    if (/decimal places/.test(parsed.error)) return { error: t('payments.refund.amount.decimals', { currency: currency.toUpperCase() }) };
    const step = /multiple of ([\d.]+)/.exec(parsed.error);
    if (step) return { error: t('payments.refund.amount.step', { currency: currency.toUpperCase(), step: step[1] }) };
    return { error: t('payments.refund.amount.invalid') };
  }
  if (parsed.minor < 1) return { error: t('payments.refund.amount.zero') };
  if (parsed.minor > refundable) return { error: t('payments.refund.amount.tooMuch', { amount: money(refundable, currency) }) };
  return parsed;
}

const DISPUTE_STATUSES = ['warning_needs_response', 'warning_under_review', 'warning_closed', 'needs_response', 'under_review', 'won', 'lost', 'prevented'];

/** A dispute's status in merchant words; an unknown status keeps the provider's word, made readable. */
export function disputeWords(status: string, t: Translate): string {
  return DISPUTE_STATUSES.includes(status) ? t(`payments.dispute.status.${status}`) : t('payments.dispute.status.other', { status: status.replace(/_/g, ' ') });
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
