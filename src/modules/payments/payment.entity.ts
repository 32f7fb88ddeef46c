import { Column, Entity, type ValueTransformer } from 'typeorm';
import { CreatedAtColumn, DatetimeColumn, IdColumn, IntegerColumn, JsonTextColumn, TextColumn, UpdatedAtColumn, VarcharColumn } from '../../database/index.js';

/** Why the provider declined or failed a payment, as it said so (e.g. gateway A's `card_declined` / `insufficient_funds`). */
export interface FailureReason {
  /** The provider's error code */
  code: string;
  /** The card issuer's decline code, when the provider gives one */
  decline_code: string | null;
  /** The provider's message, at most FAILURE_MESSAGE_MAX characters */
  message: string | null;
}

export const FAILURE_CODE_MAX = 100;
export const FAILURE_MESSAGE_MAX = 500;

/** What `failure_reason` stores (its column's one bound): codes cut to FAILURE_CODE_MAX, the message to FAILURE_MESSAGE_MAX characters, only the three keys. */
function boundFailureReason(reason: FailureReason): FailureReason {
  return {
    code: String(reason.code).slice(0, FAILURE_CODE_MAX),
    decline_code: reason.decline_code === null || reason.decline_code === undefined ? null : String(reason.decline_code).slice(0, FAILURE_CODE_MAX),
    message: reason.message === null || reason.message === undefined ? null : String(reason.message).slice(0, FAILURE_MESSAGE_MAX),
  };
}

/**
 * A dispute (chargeback) on a payment, in the card gateway's words (`warning_needs_response`,
 * `needs_response`, `under_review`, `won`, `lost`, …; gateway B's states mapped onto them). Several
 * disputes: the latest open one, else the latest.
 */
export interface PaymentDispute {
  status: string;
  /** Minor units of the payment's currency */
  amount: number;
  reason: string | null;
  /** ISO 8601 UTC, when the provider gives one */
  evidence_due_by: string | null;
  provider_dispute_id: string;
}

export const DISPUTE_FIELD_MAX = 255;

/** What `dispute` stores (its column's one bound): only the five keys, strings cut to DISPUTE_FIELD_MAX. */
function boundDispute(dispute: PaymentDispute): PaymentDispute {
  const text = (value: unknown) => (value === null || value === undefined ? null : String(value).slice(0, DISPUTE_FIELD_MAX));
  return {
    status: String(dispute.status).slice(0, DISPUTE_FIELD_MAX),
    amount: Number.isSafeInteger(dispute.amount) ? dispute.amount : 0,
    reason: text(dispute.reason),
    evidence_due_by: text(dispute.evidence_due_by),
    provider_dispute_id: String(dispute.provider_dispute_id).slice(0, DISPUTE_FIELD_MAX),
  };
}

/** A yes/no fact kept as 0/1 (one integer type on both databases). */
const flagColumn: ValueTransformer = {
  to: (value: boolean | null | undefined): number => (value ? 1 : 0),
  from: (value: number | string | boolean | null): boolean => value === true || Number(value) === 1,
};

/** A payment record (`{prefix}checkout_payments`, migration 1764115300000). Amounts in minor units. */
@Entity({ name: 'checkout_payments' })
export class PaymentEntity {
  @IdColumn()
  id: number;

  @IntegerColumn('form_id', { nullable: true })
  formId: number | null;

  /** The first payment of a subscription, for renewal rows. */
  @IntegerColumn('parent_payment_id', { nullable: true })
  parentPaymentId: number | null;

  @VarcharColumn('gateway', 20)
  gateway: string;

  @VarcharColumn('payment_method', 40)
  paymentMethod: string;

  @VarcharColumn('mode', 4)
  mode: string;

  @VarcharColumn('status', 20)
  status: string;

  @IntegerColumn('amount')
  amount: number;

  @VarcharColumn('currency', 3)
  currency: string;

  @IntegerColumn('application_fee_amount', { nullable: true })
  applicationFeeAmount: number | null;

  @IntegerColumn('amount_received', { nullable: true })
  amountReceived: number | null;

  /** One-off fee of a recurring price, charged with the first invoice; fixed at sync time. */
  @IntegerColumn('setup_amount', { nullable: true })
  setupAmount: number | null;

  @IntegerColumn('plan_index', { nullable: true })
  planIndex: number | null;

  @IntegerColumn('price_index', { nullable: true })
  priceIndex: number | null;

  @VarcharColumn('frequency', 10)
  frequency: string;

  @VarcharColumn('email_address', 254, { nullable: true })
  emailAddress: string | null;

  @VarcharColumn('first_name', 100, { nullable: true })
  firstName: string | null;

  @VarcharColumn('last_name', 100, { nullable: true })
  lastName: string | null;

  /** JSON object of the form's custom fields (string values). */
  @TextColumn('custom_fields', { nullable: true })
  customFields: string | null;

  /** Per-row random nonce; the payment secret is an HMAC over id + nonce and is never stored. */
  @VarcharColumn('secret_nonce', 43)
  secretNonce: string;

  @VarcharColumn('provider_payment_ref', 255, { nullable: true })
  providerPaymentRef: string | null;

  @VarcharColumn('provider_customer_ref', 255, { nullable: true })
  providerCustomerRef: string | null;

  @VarcharColumn('provider_subscription_ref', 255, { nullable: true })
  providerSubscriptionRef: string | null;

  @VarcharColumn('provider_capture_ref', 255, { nullable: true })
  providerCaptureRef: string | null;

  @VarcharColumn('subscription_status', 30, { nullable: true })
  subscriptionStatus: string | null;

  /** A first payment's subscription is set to cancel at the end of its current period (0/1 in the table). */
  @Column({ name: 'subscription_cancel_at_period_end', type: 'integer', default: 0, transformer: flagColumn })
  subscriptionCancelAtPeriodEnd: boolean;

  /** When a scheduled cancellation ends the subscription (the provider's `cancel_at`); null when none is scheduled. */
  @DatetimeColumn('subscription_cancels_at', { nullable: true })
  subscriptionCancelsAt: Date | null;

  @VarcharColumn('client_ip', 45, { nullable: true })
  clientIp: string | null;

  /** Set when the payment fails with the provider's reason (migration 1764116510000); null otherwise. */
  @JsonTextColumn('failure_reason', boundFailureReason)
  failureReason: FailureReason | null;

  /** Succeeded refunds, minor units (migration 1764116520000); never more than `amountReceived`. */
  @IntegerColumn('amount_refunded', { default: 0 })
  amountRefunded: number;

  /** Pending refunds' amounts, reserved by one conditional UPDATE before the provider call. */
  @IntegerColumn('refund_reserved', { default: 0 })
  refundReserved: number;

  @JsonTextColumn('dispute', boundDispute)
  dispute: PaymentDispute | null;

  /**
   * The provider object a refund goes to when it is not `providerPaymentRef` (gateway A: the
   * PaymentIntent of the invoice that paid a subscription's first payment or a renewal).
   */
  @VarcharColumn('provider_charge_ref', 255, { nullable: true })
  providerChargeRef: string | null;

  /**
   * The card that paid, as the provider's charge names it (migration 1764119000000): its brand in
   * the provider's words (`visa`, `mastercard`, …) and its last four digits; never more of the
   * number. Null for a wallet account, a bank debit, or a payment made before this was stored.
   */
  @VarcharColumn('card_brand', 32, { nullable: true })
  cardBrand: string | null;

  @VarcharColumn('card_last4', 4, { nullable: true })
  cardLast4: string | null;

  /**
   * The payer's language the payment's page was shown in (migration 1764310000000; a payer
   * language of common/i18n: `de`, `pt-BR`): later emails to the payer use it. Null for a payment
   * made before it was stored or through a client that sent none.
   */
  @VarcharColumn('locale', 10, { nullable: true })
  locale: string | null;

  @CreatedAtColumn()
  createdAt: Date;

  @UpdatedAtColumn()
  updatedAt: Date;
}
