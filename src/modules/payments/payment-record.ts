import type { CheckoutGateway, GatewayMode } from '../gateways/index.js';
import type { CustomFields } from './custom-fields.js';
import type { FailureReason, PaymentDispute, PaymentEntity } from './payment.entity.js';
import type { PaymentStatus } from './payment-status.js';

/** A payment record as other modules see it (never the secret nonce or the client IP). */
export interface PaymentRecord {
  id: number;
  form_id: number | null;
  parent_payment_id: number | null;
  gateway: CheckoutGateway;
  payment_method: string;
  mode: GatewayMode;
  status: PaymentStatus;
  /** Minor units of `currency` */
  amount: number;
  currency: string;
  application_fee_amount: number | null;
  amount_received: number | null;
  /** Setup fee of a recurring price (minor units), charged once with the first invoice */
  setup_amount: number | null;
  plan_index: number | null;
  price_index: number | null;
  frequency: string;
  email_address: string | null;
  first_name: string | null;
  last_name: string | null;
  custom_fields: CustomFields;
  provider_payment_ref: string | null;
  provider_customer_ref: string | null;
  provider_subscription_ref: string | null;
  provider_capture_ref: string | null;
  subscription_status: string | null;
  /** The subscription is set to cancel at the end of its current period (first payments) */
  subscription_cancel_at_period_end: boolean;
  /** ISO 8601 UTC: when a scheduled cancellation ends the subscription; null when none is */
  subscription_cancels_at: string | null;
  /** The provider's reason for the last failure, kept once the payment moves on (a retry, a late success) */
  failure_reason: FailureReason | null;
  /** Succeeded refunds (minor units) */
  amount_refunded: number;
  /** Pending refunds (minor units), reserved before the provider call */
  refund_reserved: number;
  dispute: PaymentDispute | null;
  /** The provider object refunds go to when it is not `provider_payment_ref` (a subscription invoice's payment) */
  provider_charge_ref: string | null;
  /** The card that paid, as the provider names it (`visa`, `mastercard`, …); null when unknown or not a card */
  card_brand: string | null;
  /** Its last four digits; never more of the number */
  card_last4: string | null;
  /** The payer's language the payment's page was shown in (`de`, `pt-BR`); null when none was sent */
  locale: string | null;
  /** ISO 8601 UTC */
  created_at: string;
  updated_at: string;
}

/** The columns a gateway or webhook may record on a payment through the ledger (PaymentPatch). */
export const PATCHABLE_FIELDS = [
  'amountReceived',
  'applicationFeeAmount',
  'providerPaymentRef',
  'providerCustomerRef',
  'providerSubscriptionRef',
  'providerCaptureRef',
  'subscriptionStatus',
  'subscriptionCancelAtPeriodEnd',
  'subscriptionCancelsAt',
  'failureReason',
  'providerChargeRef',
  'cardBrand',
  'cardLast4',
] as const satisfies ReadonlyArray<keyof PaymentEntity>;

/**
 * Provider-side facts a gateway or webhook records on a payment: the write type, in the entity's
 * (camelCase) names and types; undefined leaves a column as it is.
 */
export type PaymentPatch = Partial<Pick<PaymentEntity, (typeof PATCHABLE_FIELDS)[number]>>;

/** The payer's custom fields as stored (JSON text), `{}` when none were. */
export function customFieldsOf(row: Pick<PaymentEntity, 'customFields'>): CustomFields {
  return row.customFields ? (JSON.parse(row.customFields) as CustomFields) : {};
}

export function toPaymentRecord(row: PaymentEntity): PaymentRecord {
  return {
    id: row.id,
    form_id: row.formId,
    parent_payment_id: row.parentPaymentId,
    gateway: row.gateway as CheckoutGateway,
    payment_method: row.paymentMethod,
    mode: row.mode as GatewayMode,
    status: row.status as PaymentStatus,
    amount: row.amount,
    currency: row.currency,
    application_fee_amount: row.applicationFeeAmount,
    amount_received: row.amountReceived,
    setup_amount: row.setupAmount,
    plan_index: row.planIndex,
    price_index: row.priceIndex,
    frequency: row.frequency,
    email_address: row.emailAddress,
    first_name: row.firstName,
    last_name: row.lastName,
    custom_fields: customFieldsOf(row),
    provider_payment_ref: row.providerPaymentRef,
    provider_customer_ref: row.providerCustomerRef,
    provider_subscription_ref: row.providerSubscriptionRef,
    provider_capture_ref: row.providerCaptureRef,
    subscription_status: row.subscriptionStatus,
    subscription_cancel_at_period_end: row.subscriptionCancelAtPeriodEnd,
    subscription_cancels_at: row.subscriptionCancelsAt?.toISOString() ?? null,
    failure_reason: row.failureReason,
    amount_refunded: row.amountRefunded,
    refund_reserved: row.refundReserved,
    dispute: row.dispute,
    provider_charge_ref: row.providerChargeRef,
    card_brand: row.cardBrand,
    card_last4: row.cardLast4,
    locale: row.locale,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}
