import { ApiProperty } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsEmail, IsIn, IsInt, IsOptional, IsString, Max, MaxLength, Min, ValidateIf } from 'class-validator';
import { PAYER_LOCALES, type PayerLocale } from '../../common/i18n/index.js';
import { FastAccept, IsOmittable, IsPlainText, ToInteger, Trim } from '../../common/validation/index.js';
import { GATEWAY_MODES, type GatewayMode } from '../gateways/index.js';
import { CUSTOM_FIELDS_LIMITS, IsCustomFields } from './custom-fields.js';
import { CheckoutChoiceDto, MAX_INT } from './checkout-choice.dto.js';
import { PAYMENT_STATUSES, type PaymentStatus } from './payment-status.js';

/**
 * Creates (no `payment_id`) or updates a partial payment record. The amount is computed on the
 * server from the form's plan/price; `amount` is read only for a customer-entered price.
 */
@FastAccept()
export class SyncDetailsDto extends CheckoutChoiceDto {
  /** Record to update; omit to create a new one */
  @ValidateIf((body: SyncDetailsDto) => body.payment_id !== undefined || body.payment_secret !== undefined)
  @ToInteger()
  @IsInt()
  @Min(1)
  @Max(MAX_INT)
  payment_id?: number;

  /** Secret returned when the record was created; required for an update */
  @IsOmittable()
  @IsString()
  @MaxLength(128)
  payment_secret?: string;

  /** Index of the chosen plan in the form's `plans` (default 0) */
  @IsOmittable()
  @ToInteger()
  @IsInt()
  @Min(0)
  @Max(99)
  plan_index?: number;

  /** Index of the chosen price in the plan's `prices` (default 0) */
  @IsOmittable()
  @ToInteger()
  @IsInt()
  @Min(0)
  @Max(99)
  price_index?: number;

  /** Minor units; only read for a customer-entered price (within the price's bounds), ignored otherwise */
  @IsOmittable()
  @ToInteger()
  @IsInt()
  @Min(0)
  @Max(MAX_INT)
  amount?: number;

  /** Payer email; optional while the payer is still typing, an empty string clears it */
  @IsOptional()
  @Trim()
  @IsString()
  @ValidateIf((body: SyncDetailsDto) => body.email_address !== '')
  @MaxLength(254)
  @IsPlainText()
  @IsEmail({}, { message: 'email_address must be an email address' })
  email_address?: string;

  @IsOptional()
  @Trim()
  @IsString()
  @MaxLength(100)
  @IsPlainText()
  first_name?: string;

  @IsOptional()
  @Trim()
  @IsString()
  @MaxLength(100)
  @IsPlainText()
  last_name?: string;

  /** Values of the form's own fields, keyed by field name */
  @ApiProperty({
    required: false,
    type: Object,
    additionalProperties: { oneOf: [{ type: 'string', maxLength: CUSTOM_FIELDS_LIMITS.maxValueLength }, { type: 'number' }, { type: 'boolean' }] },
    maxProperties: CUSTOM_FIELDS_LIMITS.maxKeys,
  })
  // The raw object: class-transformer silently drops keys named like Object.prototype members; the validator must see them.
  @Transform(({ obj }: { obj: Record<string, unknown> }) => obj.custom_fields)
  @IsOmittable()
  @IsCustomFields()
  custom_fields?: Record<string, string | number | boolean>;

  /** The payer's language the page is shown in (the hosted page sends the one it chose); the payer's later emails use it */
  @IsOmittable()
  @ApiProperty({ enum: PAYER_LOCALES, type: 'string', required: false })
  @IsIn(PAYER_LOCALES)
  locale?: PayerLocale;
}

export class SyncDetailsResponseDto {
  payment_id: number;
  /** Keep it: it authorises later updates and status reads. Not stored by the server. */
  payment_secret: string;
  /** Signed, expiring statement of the payment's form, gateway, method, amount, currency and mode */
  checkout_token: string;
  /** When the checkout token expires (ISO 8601 UTC) */
  checkout_token_expires_at: string;
  /** Minor units, computed by the server; for a recurring price, what every period charges (the amount the checkout token binds) */
  amount: number;
  currency: string;
  /**
   * One-off setup fee of a recurring price, in minor units of `currency`, charged once on top of
   * `amount` with the first invoice (first charge = amount + setup_amount); null when the price has none
   */
  @ApiProperty({ type: 'integer', nullable: true, minimum: 1, example: 500 })
  setup_amount: number | null;
  @ApiProperty({ enum: GATEWAY_MODES })
  mode: GatewayMode;
  @ApiProperty({ enum: PAYMENT_STATUSES })
  status: PaymentStatus;
}
