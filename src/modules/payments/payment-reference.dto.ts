import { Transform } from 'class-transformer';
import { IsInt, IsNotEmpty, IsString, Matches, Max, MaxLength, Min } from 'class-validator';
import { FastAccept, ToInteger } from '../../common/validation/index.js';
import { CheckoutChoiceDto, MAX_INT } from './checkout-choice.dto.js';
import { MAX_TOKEN_LENGTH } from './payment-tokens.js';

/**
 * The signed payment reference every public payment route takes (docs/decisions.md §12). Route DTOs
 * extend it with their own fields; the PaymentReferenceGuard checks it before the handler runs.
 */
@FastAccept()
export class PaymentReferenceDto extends CheckoutChoiceDto {
  /** Id of the payment record, from payment/sync-details */
  @ToInteger()
  @IsInt()
  @Min(1)
  @Max(MAX_INT)
  payment_id: number;

  /** The payment secret returned by payment/sync-details */
  @IsString()
  @IsNotEmpty()
  @MaxLength(128)
  payment_secret: string;

  /** The checkout token returned by the latest payment/sync-details */
  @IsString()
  @IsNotEmpty()
  @MaxLength(MAX_TOKEN_LENGTH)
  checkout_token: string;

  /** Amount in minor units, as returned by payment/sync-details */
  @ToInteger()
  @IsInt()
  @Min(0)
  @Max(MAX_INT)
  amount: number;

  /** ISO 4217 currency code, as returned by payment/sync-details */
  @Transform(({ value }: { value: unknown }) => (typeof value === 'string' ? value.toUpperCase() : value))
  @IsString()
  @Matches(/^[A-Z]{3}$/, { message: 'currency must be a three-letter ISO 4217 code' })
  currency: string;
}

/**
 * A payment reference as Swagger UI pre-fills it in the bodies of the public payment routes: it
 * passes validation, and the values to replace come from a `payment/sync-details` answer.
 */
export const PAYMENT_REFERENCE_EXAMPLE = {
  payment_id: 1,
  payment_secret: 'payment-secret-from-sync-details',
  checkout_token: 'checkout-token-from-sync-details',
  amount: 1000,
  currency: 'USD',
  form_id: 1,
  payment_gateway: 'gateway_a',
  payment_method: 'ccard',
} as const;
