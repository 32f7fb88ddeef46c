import { ApiProperty } from '@nestjs/swagger';
import { IsString, Matches } from 'class-validator';
import { PAYMENT_STATUSES, type PaymentStatus, PaymentReferenceDto } from '../../payments/index.js';

/** Order ids as PayPal issues them (checked before the id becomes part of a provider URL). */
export const GATEWAY_B_ORDER_ID = /^[A-Za-z0-9_-]{1,64}$/;

export const GATEWAY_B_ORDER_STATUSES = ['CREATED', 'PAYER_ACTION_REQUIRED', 'APPROVED'] as const;

/** POST /gateway-b/order: the signed payment reference only; amount and currency come from the record. */
export class GatewayBOrderRequestDto extends PaymentReferenceDto {}

/** The order the payer approves with the gateway's button (or at `approve_url`). */
export class GatewayBOrderResponseDto {
  payment_id: number;

  /** The gateway's order id, for the button's `createOrder` callback and for the capture */
  order_id: string;

  /** CREATED (or PAYER_ACTION_REQUIRED): waiting for the payer; APPROVED: approved and waiting for the capture */
  @ApiProperty({ enum: GATEWAY_B_ORDER_STATUSES })
  order_status: string;

  /** Where the payer approves the order without the gateway's button; null once approved */
  @ApiProperty({ type: String, nullable: true })
  approve_url: string | null;
}

/** POST /gateway-b/order/capture: the payment reference and the order the payer approved. */
export class GatewayBCaptureRequestDto extends PaymentReferenceDto {
  /** The order from gateway-b/order; it must be the one the payment holds */
  @IsString()
  @Matches(GATEWAY_B_ORDER_ID, { message: 'order_id must be a gateway B order id' })
  order_id: string;
}

export class GatewayBCaptureResponseDto {
  payment_id: number;

  /** completed: paid; processing: captured, the provider holds the funds for review (completes with its webhook); failed: the capture was declined */
  @ApiProperty({ enum: PAYMENT_STATUSES })
  status: PaymentStatus;

  order_id: string;

  /** The gateway's capture id, once captured */
  @ApiProperty({ type: String, nullable: true })
  capture_id: string | null;
}
