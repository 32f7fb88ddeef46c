import { ApiProperty, ApiPropertyOptional, IntersectionType } from '@nestjs/swagger';
import { IsIn, IsInt, IsOptional, IsString, Matches, Max, MaxLength, Min } from 'class-validator';
import { KeysetQueryDto, PageQueryDto } from '../../common/http/index.js';
import { JSON_VALUE_REF, type JsonValue } from '../../common/openapi/index.js';
import { IsIsoInstant, ISO_INSTANT_SCHEMA, ToInteger, Trim } from '../../common/validation/index.js';
import { CHECKOUT_GATEWAYS, type CheckoutGateway, GATEWAY_MODES, type GatewayMode } from '../gateways/index.js';
import { MAX_INT } from './checkout-choice.dto.js';
import type { PaymentLogLevel } from './payment-log.repository.js';
import { PAYMENT_STATUSES, type PaymentStatus } from './payment-status.js';
import { PaymentDisputeDto, RefundDto } from './refunds/refund.dto.js';

/** Longest payer search the admin list takes (an email address is at most 254; names at most 100). */
export const PAYMENT_SEARCH_MAX_LENGTH = 100;

/** How many lines of its log one payment's detail carries (the newest ones). */
export const PAYMENT_LOG_TAIL = 200;

/** The `refunded` filter's values: no succeeded refund; some, less than received; all of it; some or all. */
export const REFUNDED_FILTERS = ['none', 'partial', 'full', 'any'] as const;
export type RefundedFilter = (typeof REFUNDED_FILTERS)[number];

/** The filters of the admin payments list and of its CSV export (every one optional). */
export class AdminPaymentsFilterDto {
  @ApiPropertyOptional({ enum: PAYMENT_STATUSES, description: 'Only payments in this status' })
  @IsOptional()
  @IsIn(PAYMENT_STATUSES)
  status?: PaymentStatus;

  @ApiPropertyOptional({ enum: CHECKOUT_GATEWAYS, description: 'Only payments through this gateway', type: 'string' })
  @IsOptional()
  @IsIn(CHECKOUT_GATEWAYS)
  gateway?: CheckoutGateway;

  @ApiPropertyOptional({ enum: GATEWAY_MODES, description: 'Only test or only live payments' })
  @IsOptional()
  @IsIn(GATEWAY_MODES)
  mode?: GatewayMode;

  @ApiPropertyOptional({ type: String, pattern: '^[A-Z]{3}$', description: 'Only payments in this currency (ISO 4217 code, upper case)', example: 'USD' })
  @IsOptional()
  @IsString()
  @Matches(/^[A-Z]{3}$/, { message: 'currency must be an ISO 4217 code in upper case, such as USD' })
  currency?: string;

  @ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: MAX_INT, description: 'Only payments of this form' })
  @IsOptional()
  @ToInteger()
  @IsInt()
  @Min(1)
  @Max(MAX_INT)
  form_id?: number;

  @ApiPropertyOptional({ ...ISO_INSTANT_SCHEMA, description: 'Only payments created at or after this instant (ISO 8601; a date alone is midnight UTC)', example: '2026-01-01' })
  @IsOptional()
  @IsIsoInstant('created_from')
  created_from?: string;

  @ApiPropertyOptional({ ...ISO_INSTANT_SCHEMA, description: 'Only payments created before this instant, not at it (ISO 8601; a date alone is midnight UTC)', example: '2026-02-01' })
  @IsOptional()
  @IsIsoInstant('created_before')
  created_before?: string;

  @ApiPropertyOptional({
    type: String,
    maxLength: PAYMENT_SEARCH_MAX_LENGTH,
    description:
      "Finds payments by the start of what identifies them, ignoring case and accents: the payment id (the whole number), the provider's payment reference (`pi_…`, an order id) " +
      'or capture id, the payer\'s email address (whole or its beginning), or the beginning of any word of the payer\'s first or last name. Several words: each must match ' +
      '(`ada love` finds Ada Lovelace). Not a substring search: `lovelace` finds Lovelace, `ovelace` does not (empty: no search)',
    example: 'ada@example',
  })
  @IsOptional()
  @Trim()
  @IsString()
  @MaxLength(PAYMENT_SEARCH_MAX_LENGTH)
  search?: string;

  @ApiPropertyOptional({ enum: REFUNDED_FILTERS, description: 'Only payments with no succeeded refund, refunded in part, refunded in full, or refunded at all (in part or in full)' })
  @IsOptional()
  @IsIn(REFUNDED_FILTERS)
  refunded?: RefundedFilter;

  @ApiPropertyOptional({ enum: ['true', 'false'], description: 'Only payments with (true) or without (false) a dispute' })
  @IsOptional()
  @IsIn(['true', 'false'])
  disputed?: 'true' | 'false';
}

/** GET /administration/payments: the filters, paged like /payment/history (default 20 per page), or by keyset (`after`). */
export class AdminPaymentsQueryDto extends IntersectionType(PageQueryDto, KeysetQueryDto, AdminPaymentsFilterDto) {}

/** How many renewals one subscription payment's detail lists (the newest ones). */
export const PAYMENT_RENEWALS_TAIL = 100;

/** Why the provider failed a payment, in its own words (gateway A's `last_payment_error`; gateway B's issue). */
export class PaymentFailureReasonDto {
  @ApiProperty({ description: "The provider's error code (gateway A: `code`, else the error's `type`; gateway B: the capture's status or the issue)", example: 'card_declined' })
  code: string;

  @ApiProperty({ type: String, nullable: true, description: "The card issuer's decline code, when the provider gives one", example: 'insufficient_funds' })
  decline_code: string | null;

  @ApiProperty({ type: String, nullable: true, description: "The provider's message (at most 500 characters)", example: 'Your card has insufficient funds.' })
  message: string | null;
}

/** One payment in the admin list: who paid what, where and when. No secret, no client IP. */
export class AdminPaymentDto {
  @ApiProperty({ type: 'integer', example: 42 })
  id: number;

  @ApiProperty({ enum: PAYMENT_STATUSES, example: 'completed' })
  status: PaymentStatus;

  @ApiProperty({ type: 'integer', description: 'Minor units of `currency` (1999 = 19.99 USD)', example: 1999 })
  amount: number;

  @ApiProperty({ description: 'ISO 4217 code', example: 'USD' })
  currency: string;

  @ApiProperty({ enum: CHECKOUT_GATEWAYS, example: 'gateway_a', type: 'string' })
  gateway: CheckoutGateway;

  @ApiProperty({ description: "The gateway's payment method id", example: 'ccard' })
  payment_method: string;

  @ApiProperty({ enum: GATEWAY_MODES, example: 'test' })
  mode: GatewayMode;

  @ApiProperty({ type: String, nullable: true, example: 'ada@example.com' })
  email_address: string | null;

  @ApiProperty({ type: String, nullable: true, example: 'Ada' })
  first_name: string | null;

  @ApiProperty({ type: String, nullable: true, example: 'Lovelace' })
  last_name: string | null;

  @ApiProperty({ type: 'integer', nullable: true, example: 7 })
  form_id: number | null;

  @ApiProperty({ type: String, nullable: true, description: "The form's current title; null when the form was deleted", example: 'Donation' })
  form_title: string | null;

  @ApiProperty({ type: 'integer', nullable: true, description: 'For a subscription renewal: the first payment of the subscription' })
  parent_payment_id: number | null;

  @ApiProperty({ type: PaymentFailureReasonDto, nullable: true, description: 'Why the provider failed the payment (its last failure, kept after a retry); null when it never failed with a reason' })
  failure_reason: PaymentFailureReasonDto | null;

  @ApiProperty({ type: 'integer', description: 'Succeeded refunds, minor units of `currency`', example: 0 })
  amount_refunded: number;

  @ApiProperty({ description: 'True when the payment has a dispute (open or closed)', example: false })
  disputed: boolean;

  @ApiProperty({ format: 'date-time', description: 'ISO 8601 UTC' })
  created_at: string;

  @ApiProperty({ format: 'date-time', description: 'ISO 8601 UTC' })
  updated_at: string;
}

/** The provider's ids of the objects a payment holds (never a secret: ids only). */
export class PaymentProviderReferencesDto {
  @ApiProperty({ type: String, nullable: true, description: "The provider's payment object: gateway A's PaymentIntent (`pi_…`) or SetupIntent (`seti_…`), gateway B's order id", example: 'pi_3QvP5n2eZvKYlo2C' })
  payment: string | null;

  @ApiProperty({ type: String, nullable: true, description: "The provider's customer (gateway A `cus_…`)", example: 'cus_R4nd0m' })
  customer: string | null;

  @ApiProperty({ type: String, nullable: true, description: "The provider's subscription (gateway A `sub_…`)", example: null })
  subscription: string | null;

  @ApiProperty({ type: String, nullable: true, description: "The provider's capture (gateway B's capture id)", example: null })
  capture: string | null;

  @ApiProperty({ type: String, nullable: true, description: "The subscription's status in the provider's own word (e.g. `active`)", example: null })
  subscription_status: string | null;
}

/** The card that paid, as the provider's charge names it: never more of the number than its last four digits. */
export class PaymentCardDto {
  @ApiProperty({ description: "The card's brand in the provider's word (`visa`, `mastercard`, `amex`, …)", example: 'visa', maxLength: 32 })
  brand: string;

  @ApiProperty({ description: 'The last four digits of the card number', example: '4242', pattern: '^[0-9]{4}$' })
  last4: string;
}

/** One line of a payment's log: status moves, refusals, provider events, emails. */
export class PaymentLogEntryDto {
  @ApiProperty({ type: 'integer' })
  id: number;

  @ApiProperty({ enum: ['debug', 'info', 'warning', 'error'], example: 'info' })
  level: PaymentLogLevel;

  @ApiProperty({ description: 'Stable machine name of what happened', example: 'status_changed' })
  event: string;

  @ApiProperty({ example: 'Status changed from pending to completed by webhook:gateway_a.' })
  message: string;

  @ApiProperty({
    type: 'object',
    nullable: true,
    additionalProperties: JSON_VALUE_REF,
    description: 'Details written with the line (ids, sources, changed fields); never a secret, token or card data',
    example: { source: 'webhook:gateway_a', event_id: 'evt_1QvP5n2eZvKYlo2C' },
  })
  context: { [key: string]: JsonValue } | null;

  @ApiProperty({ format: 'date-time', description: 'ISO 8601 UTC' })
  created_at: string;
}

/** The subscription a payment belongs to, as its first payment holds it. */
export class PaymentSubscriptionDto {
  @ApiProperty({ type: String, nullable: true, description: "The provider's subscription status (`active`, `trialing`, `canceled`, …)", example: 'active' })
  status: string | null;

  @ApiProperty({ description: 'A cancellation at the end of the current period is scheduled (the subscription stays `active` until then)', example: false })
  cancel_at_period_end: boolean;

  @ApiProperty({ type: String, nullable: true, format: 'date-time', description: 'When a scheduled cancellation ends the subscription (ISO 8601 UTC); null when none is scheduled', example: null })
  cancels_at: string | null;
}

/** One payment with everything the record holds but its secrets: fees, plan and price, custom fields, provider ids, its log. */
export class AdminPaymentDetailDto extends AdminPaymentDto {
  @ApiProperty({ type: 'integer', nullable: true, description: 'What the provider says it received (minor units), once known' })
  amount_received: number | null;

  @ApiProperty({ type: 'integer', nullable: true, description: 'The platform fee of the free plan (minor units), null when none' })
  application_fee_amount: number | null;

  @ApiProperty({ type: 'integer', nullable: true, description: 'One-off setup fee of a recurring price (minor units), charged with the first invoice' })
  setup_amount: number | null;

  @ApiProperty({ type: 'integer', nullable: true, description: "Index of the chosen plan in the form's plans" })
  plan_index: number | null;

  @ApiProperty({ type: 'integer', nullable: true, description: "Index of the chosen price in the plan's prices" })
  price_index: number | null;

  @ApiProperty({ type: String, nullable: true, description: "The plan's title in the form as it is now; null when the form or plan is gone", example: 'Monthly' })
  plan_title: string | null;

  @ApiProperty({ description: '`one-time` or the recurring interval of the price (`m_1`, `y_1`, …)', example: 'one-time' })
  frequency: string;

  @ApiProperty({ type: 'object', additionalProperties: { type: 'string' }, description: "The form's custom fields as the payer filled them", example: { company: 'Analytical Engines Ltd' } })
  custom_fields: Record<string, string>;

  @ApiProperty({ type: PaymentProviderReferencesDto })
  provider_references: PaymentProviderReferencesDto;

  @ApiProperty({ type: PaymentCardDto, nullable: true, description: "The card that paid (brand and last four digits), read from the provider's charge when the payment succeeded; null for a wallet account or bank debit, before the payment succeeded, or when the provider did not say" })
  card: PaymentCardDto | null;

  @ApiProperty({ type: [PaymentLogEntryDto], description: `The payment's log, oldest first: its newest ${PAYMENT_LOG_TAIL} lines at most (see log_total)` })
  log: PaymentLogEntryDto[];

  @ApiProperty({ type: 'integer', description: 'What is left to refund: `amount_received` less succeeded and pending refunds (minor units)', example: 1999 })
  refundable_amount: number;

  @ApiProperty({ type: PaymentDisputeDto, nullable: true, description: 'The latest open dispute, else the latest; null when none' })
  dispute: PaymentDisputeDto | null;

  @ApiProperty({ type: PaymentSubscriptionDto, nullable: true, description: "The subscription's state and scheduled end (a renewal shows its subscription's); null for a one-time payment or one holding no subscription" })
  subscription: PaymentSubscriptionDto | null;

  @ApiProperty({ type: [RefundDto], description: "The payment's refunds, newest first" })
  refunds: RefundDto[];

  @ApiProperty({ type: 'integer', description: 'How many lines the payment log has in all' })
  log_total: number;

  @ApiProperty({
    type: 'object',
    additionalProperties: { type: 'string' },
    description: "Display names of the users its refunds (`created_by`) and log lines (`context.user_id`) name, by user id: a console says who did what. A removed user is absent",
    example: { '1': 'Ada Lovelace' },
  })
  user_names: Record<string, string>;

  @ApiProperty({
    type: [AdminPaymentDto],
    description: `A subscription's first payment: its renewals (one per later invoice), newest first, at most ${PAYMENT_RENEWALS_TAIL} (see renewals_total); empty for any other payment`,
  })
  renewals: AdminPaymentDto[];

  @ApiProperty({ type: 'integer', description: 'How many renewals the subscription has in all (0 for any payment but a subscription\'s first)' })
  renewals_total: number;
}

/** 201 of POST /administration/payments/{id}/refunds: the refund and the payment after it. */
export class RefundResultDto {
  @ApiProperty({ type: RefundDto })
  refund: RefundDto;

  @ApiProperty({ type: AdminPaymentDetailDto })
  payment: AdminPaymentDetailDto;
}

/**
 * What the filtered payments of one mode and currency add up to, in minor units of `currency`.
 * The money counts only payments that received something (`amount_received` set): their `net` is
 * the CSV export's, summed (docs/payments.md, "What counts as net").
 */
export class PaymentTotalsDto {
  @ApiProperty({ enum: GATEWAY_MODES, example: 'live' })
  mode: GatewayMode;

  @ApiProperty({ description: 'ISO 4217 code', example: 'USD' })
  currency: string;

  @ApiProperty({ type: 'integer', description: 'Payments that matched the filters, in any status', example: 14 })
  payments: number;

  @ApiProperty({ type: 'integer', description: 'Of them, those that received money (the ones the amounts below add up)', example: 12 })
  paid: number;

  @ApiProperty({ type: 'integer', description: 'Of them, those whose status is `failed`', example: 2 })
  failed: number;

  @ApiProperty({ type: 'integer', description: 'Gross: what was received (`amount_received`)', example: 12000 })
  gross: number;

  @ApiProperty({ type: 'integer', description: 'Succeeded refunds (pending ones are not counted)', example: 1500 })
  refunded: number;

  @ApiProperty({ type: 'integer', description: 'The application fee kept: the free plan\'s fee less what succeeded refunds gave back of it', example: 210 })
  application_fees: number;

  @ApiProperty({ type: 'integer', description: 'What lost disputes took back', example: 1000 })
  lost_disputes: number;

  @ApiProperty({ type: 'integer', description: 'Net: gross − refunded − application fees − lost disputes (may be negative)', example: 9290 })
  net: number;
}

/** GET /administration/payments/totals: the totals of what the list's filters select, per mode and currency. */
export class PaymentTotalsAnswerDto {
  @ApiProperty({ type: PaymentTotalsDto, isArray: true, description: 'One entry per mode and currency present, live before test, then by currency code; empty when nothing matched' })
  totals: PaymentTotalsDto[];
}

/** The totals of one UTC day, mode and currency. */
export class DailyPaymentTotalsDto extends PaymentTotalsDto {
  @ApiProperty({ format: 'date', description: 'The UTC day (payments created from its midnight UTC to the next)', example: '2026-11-27' })
  day: string;
}
