import { Column, Entity, PrimaryGeneratedColumn, type ValueTransformer } from 'typeorm';

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

/**
 * `failure_reason` is JSON text; every write goes through `to`, the one place that bounds it (codes
 * to FAILURE_CODE_MAX, the message to FAILURE_MESSAGE_MAX characters, only the three keys).
 */
const failureReasonColumn: ValueTransformer = {
  to: (reason: FailureReason | null | undefined): string | null | undefined => {
    if (reason === undefined || reason === null) return reason;
    const bounded: FailureReason = {
      code: String(reason.code).slice(0, FAILURE_CODE_MAX),
      decline_code: reason.decline_code === null || reason.decline_code === undefined ? null : String(reason.decline_code).slice(0, FAILURE_CODE_MAX),
      message: reason.message === null || reason.message === undefined ? null : String(reason.message).slice(0, FAILURE_MESSAGE_MAX),
    };
    return JSON.stringify(bounded);
  },
  from: (text: string | null): FailureReason | null => (text === null || text === undefined ? null : (JSON.parse(text) as FailureReason)),
};

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

/** `dispute` is JSON text; `to` is the one place that bounds it (only the five keys, strings cut to DISPUTE_FIELD_MAX). */
const disputeColumn: ValueTransformer = {
  to: (dispute: PaymentDispute | null | undefined): string | null | undefined => {
    if (dispute === undefined || dispute === null) return dispute;
    const text = (value: unknown) => (value === null || value === undefined ? null : String(value).slice(0, DISPUTE_FIELD_MAX));
    const bounded: PaymentDispute = {
      status: String(dispute.status).slice(0, DISPUTE_FIELD_MAX),
      amount: Number.isSafeInteger(dispute.amount) ? dispute.amount : 0,
      reason: text(dispute.reason),
      evidence_due_by: text(dispute.evidence_due_by),
      provider_dispute_id: String(dispute.provider_dispute_id).slice(0, DISPUTE_FIELD_MAX),
    };
    return JSON.stringify(bounded);
  },
  from: (text: string | null): PaymentDispute | null => (text === null || text === undefined ? null : (JSON.parse(text) as PaymentDispute)),
};

/** A yes/no fact kept as 0/1 (one integer type on both databases). */
const flagColumn: ValueTransformer = {
  to: (value: boolean | null | undefined): number => (value ? 1 : 0),
  from: (value: number | string | boolean | null): boolean => value === true || Number(value) === 1,
};

/** A payment record (`{prefix}checkout_payments`, migration 1764115300000). Amounts in minor units. */
@Entity({ name: 'checkout_payments' })
export class PaymentEntity {
  @PrimaryGeneratedColumn({ name: 'id' })
  id: number;

  @Column({ name: 'form_id', type: 'integer', nullable: true })
  formId: number | null;

  /** The first payment of a subscription, for renewal rows. */
  @Column({ name: 'parent_payment_id', type: 'integer', nullable: true })
  parentPaymentId: number | null;

  @Column({ name: 'gateway', type: 'varchar', length: 20 })
  gateway: string;

  @Column({ name: 'payment_method', type: 'varchar', length: 40 })
  paymentMethod: string;

  @Column({ name: 'mode', type: 'varchar', length: 4 })
  mode: string;

  @Column({ name: 'status', type: 'varchar', length: 20 })
  status: string;

  @Column({ name: 'amount', type: 'integer' })
  amount: number;

  @Column({ name: 'currency', type: 'varchar', length: 3 })
  currency: string;

  @Column({ name: 'application_fee_amount', type: 'integer', nullable: true })
  applicationFeeAmount: number | null;

  @Column({ name: 'amount_received', type: 'integer', nullable: true })
  amountReceived: number | null;

  /** One-off fee of a recurring price, charged with the first invoice; fixed at sync time. */
  @Column({ name: 'setup_amount', type: 'integer', nullable: true })
  setupAmount: number | null;

  @Column({ name: 'plan_index', type: 'integer', nullable: true })
  planIndex: number | null;

  @Column({ name: 'price_index', type: 'integer', nullable: true })
  priceIndex: number | null;

  @Column({ name: 'frequency', type: 'varchar', length: 10 })
  frequency: string;

  @Column({ name: 'email_address', type: 'varchar', length: 254, nullable: true })
  emailAddress: string | null;

  @Column({ name: 'first_name', type: 'varchar', length: 100, nullable: true })
  firstName: string | null;

  @Column({ name: 'last_name', type: 'varchar', length: 100, nullable: true })
  lastName: string | null;

  /** JSON object of the form's custom fields (string values). */
  @Column({ name: 'custom_fields', type: 'text', nullable: true })
  customFields: string | null;

  /** Per-row random nonce; the payment secret is an HMAC over id + nonce and is never stored. */
  @Column({ name: 'secret_nonce', type: 'varchar', length: 43 })
  secretNonce: string;

  @Column({ name: 'provider_payment_ref', type: 'varchar', length: 255, nullable: true })
  providerPaymentRef: string | null;

  @Column({ name: 'provider_customer_ref', type: 'varchar', length: 255, nullable: true })
  providerCustomerRef: string | null;

  @Column({ name: 'provider_subscription_ref', type: 'varchar', length: 255, nullable: true })
  providerSubscriptionRef: string | null;

  @Column({ name: 'provider_capture_ref', type: 'varchar', length: 255, nullable: true })
  providerCaptureRef: string | null;

  @Column({ name: 'subscription_status', type: 'varchar', length: 30, nullable: true })
  subscriptionStatus: string | null;

  /** A first payment's subscription is set to cancel at the end of its current period (0/1 in the table). */
  @Column({ name: 'subscription_cancel_at_period_end', type: 'integer', default: 0, transformer: flagColumn })
  subscriptionCancelAtPeriodEnd: boolean;

  /** When a scheduled cancellation ends the subscription (the provider's `cancel_at`); null when none is scheduled. */
  @Column({ name: 'subscription_cancels_at', type: 'datetime', precision: 3, nullable: true })
  subscriptionCancelsAt: Date | null;

  @Column({ name: 'client_ip', type: 'varchar', length: 45, nullable: true })
  clientIp: string | null;

  /** Set when the payment fails with the provider's reason (migration 1764116510000); null otherwise. */
  @Column({ name: 'failure_reason', type: 'text', nullable: true, transformer: failureReasonColumn })
  failureReason: FailureReason | null;

  /** Succeeded refunds, minor units (migration 1764116520000); never more than `amountReceived`. */
  @Column({ name: 'amount_refunded', type: 'integer', default: 0 })
  amountRefunded: number;

  /** Pending refunds' amounts, reserved by one conditional UPDATE before the provider call. */
  @Column({ name: 'refund_reserved', type: 'integer', default: 0 })
  refundReserved: number;

  @Column({ name: 'dispute', type: 'text', nullable: true, transformer: disputeColumn })
  dispute: PaymentDispute | null;

  /**
   * The provider object a refund goes to when it is not `providerPaymentRef` (gateway A: the
   * PaymentIntent of the invoice that paid a subscription's first payment or a renewal).
   */
  @Column({ name: 'provider_charge_ref', type: 'varchar', length: 255, nullable: true })
  providerChargeRef: string | null;

  @Column({ name: 'created_at', type: 'datetime', precision: 3 })
  createdAt: Date;

  @Column({ name: 'updated_at', type: 'datetime', precision: 3 })
  updatedAt: Date;
}
