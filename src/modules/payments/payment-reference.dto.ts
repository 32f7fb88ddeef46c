import { Transform } from 'class-transformer';
import { IsIn, IsInt, IsNotEmpty, IsString, Matches, Max, MaxLength, Min } from 'class-validator';
import { ToInteger } from '../../common/validation/index.js';
import { CHECKOUT_GATEWAYS, type CheckoutGateway } from '../forms/index.js';
import { MAX_TOKEN_LENGTH } from './payment-tokens.js';

/** Largest id / amount the INTEGER columns hold on every supported database. */
export const MAX_INT = 2_147_483_647;

/**
 * The signed payment reference every public payment route takes (decisions §12). Route DTOs
 * extend it with their own fields; the PaymentReferenceGuard checks it before the handler runs.
 */
export class PaymentReferenceDto {
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

  /** The payment form */
  @ToInteger()
  @IsInt()
  @Min(1)
  @Max(MAX_INT)
  form_id: number;

  /** Gateway of the payment */
  @IsIn(CHECKOUT_GATEWAYS)
  payment_gateway: CheckoutGateway;

  /** Payment method of the gateway, e.g. `ccard` */
  @IsString()
  @IsNotEmpty()
  @MaxLength(40)
  payment_method: string;

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
