import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsInt, IsString, Max, MaxLength, Min } from 'class-validator';
import { IsOmittable } from '../../../common/validation/index.js';
import { MAX_INT } from '../checkout-choice.dto.js';
import { REFUND_NOTE_MAX, REFUND_REASONS, REFUND_SOURCES, REFUND_STATUSES, type RefundEntity, type RefundReason, type RefundSource, type RefundStatus } from './refund.entity.js';

/** POST /administration/payments/{id}/refunds */
export class CreateRefundDto {
  @ApiPropertyOptional({
    type: 'integer',
    minimum: 1,
    maximum: MAX_INT,
    description:
      "What to refund, a JSON integer in the currency's minor units (1999 = 19.99 USD), at most the payment's `refundable_amount` and representable at its gateway " +
      '(e.g. whole units of HUF, JPY and TWD at gateway B). Default: all that is refundable.',
    example: 500,
  })
  @IsOmittable()
  @IsInt({ message: 'amount must be a JSON integer of minor units' })
  @Min(1, { message: 'amount must be at least 1' })
  @Max(MAX_INT)
  amount?: number;

  @ApiPropertyOptional({ enum: REFUND_REASONS, description: 'Why; `other` is kept here and not sent to the provider', example: 'requested_by_customer' })
  @IsOmittable()
  @IsIn(REFUND_REASONS)
  reason?: RefundReason;

  @ApiPropertyOptional({ type: String, maxLength: REFUND_NOTE_MAX, description: 'Internal note, never sent to the payer or the provider', example: 'Asked by phone' })
  @IsOmittable()
  @IsString()
  @MaxLength(REFUND_NOTE_MAX)
  note?: string;
}

/** One refund of a payment. */
export class RefundDto {
  @ApiProperty({ type: 'integer', example: 12 })
  id: number;

  @ApiProperty({ type: 'integer', description: 'Minor units of `currency`', example: 500 })
  amount: number;

  @ApiProperty({ description: 'ISO 4217 code', example: 'USD' })
  currency: string;

  @ApiProperty({ enum: REFUND_STATUSES, description: '`pending` holds its amount out of what is refundable until the provider settles it', example: 'succeeded' })
  status: RefundStatus;

  @ApiProperty({ enum: REFUND_REASONS, nullable: true, example: 'requested_by_customer' })
  reason: RefundReason | null;

  @ApiProperty({ type: String, nullable: true, description: 'Internal note', example: null })
  note: string | null;

  @ApiProperty({ enum: REFUND_SOURCES, description: 'Where it was made: the console, an API client, or at the provider (read back)', example: 'console' })
  source: RefundSource;

  @ApiProperty({ type: String, nullable: true, description: "The provider's refund id (gateway A `re_…`, gateway B's refund id), once it answered", example: 're_3QvP5n2eZvKYlo2C' })
  provider_refund_id: string | null;

  @ApiProperty({ type: 'integer', nullable: true, description: 'The platform fee given back with it (free plan), minor units', example: null })
  application_fee_refunded: number | null;

  @ApiProperty({ type: String, nullable: true, description: "Our code for why it failed (the provider's code), for a failed refund", example: null })
  failure_code: string | null;

  @ApiProperty({ type: 'integer', nullable: true, description: 'The user who asked for it; null for one made at the provider', example: 1 })
  created_by: number | null;

  @ApiProperty({ format: 'date-time', description: 'ISO 8601 UTC' })
  created_at: string;

  @ApiProperty({ format: 'date-time', description: 'ISO 8601 UTC' })
  updated_at: string;
}

/** A dispute (chargeback) on a payment, in the card gateway's words. */
export class PaymentDisputeDto {
  @ApiProperty({ description: '`warning_needs_response`, `needs_response`, `under_review`, `won`, `lost`, … (gateway B mapped onto them)', example: 'needs_response' })
  status: string;

  @ApiProperty({ type: 'integer', description: 'Minor units of the payment currency', example: 1999 })
  amount: number;

  @ApiProperty({ type: String, nullable: true, example: 'fraudulent' })
  reason: string | null;

  @ApiProperty({ type: String, nullable: true, format: 'date-time', description: 'When evidence is due (ISO 8601 UTC)', example: null })
  evidence_due_by: string | null;

  @ApiProperty({ description: "The provider's dispute id", example: 'dp_1Qv' })
  provider_dispute_id: string;

  @ApiProperty({ type: String, nullable: true, description: "The provider's page for the dispute (its dashboard, in the payment's mode: where evidence is submitted); null when the gateway gives none", example: 'https://dashboard.stripe.com/test/disputes/dp_1Qv' })
  provider_url: string | null;
}

export function toRefundDto(row: RefundEntity): RefundDto {
  return {
    id: row.id,
    amount: row.amount,
    currency: row.currency,
    status: row.status,
    reason: row.reason,
    note: row.note,
    source: row.source,
    provider_refund_id: row.providerRefundId,
    application_fee_refunded: row.applicationFeeRefunded,
    failure_code: row.failureCode,
    created_by: row.createdBy,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}
