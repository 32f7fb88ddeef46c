import { IsIn, IsInt, IsNotEmpty, IsString, Max, MaxLength, Min } from 'class-validator';
import { ToInteger } from '../../common/validation/index.js';
import { CHECKOUT_GATEWAYS, type CheckoutGateway } from '../gateways/index.js';

/** Largest id / amount the INTEGER columns hold on every supported database. */
export const MAX_INT = 2_147_483_647;

/** What a payment is for: the form, gateway and method. Sync-details and every reference carry it. */
export class CheckoutChoiceDto {
  /** The payment form */
  @ToInteger()
  @IsInt()
  @Min(1)
  @Max(MAX_INT)
  form_id: number;

  /** Gateway of the payment, chosen by the payer */
  @IsIn(CHECKOUT_GATEWAYS)
  payment_gateway: CheckoutGateway;

  /** Payment method of the gateway, e.g. `ccard` or `standard_checkout` */
  @IsString()
  @IsNotEmpty()
  @MaxLength(40)
  payment_method: string;
}
