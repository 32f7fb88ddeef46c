import { ApiProperty } from '@nestjs/swagger';
import { IsString, Matches } from 'class-validator';
import { PAYMENT_STATUSES, type PaymentStatus, PaymentReferenceDto } from '../../../src/modules/payments/index.js';

/** One-use tokens as gateway X's browser library makes them (checked before one reaches the provider). */
export const GATEWAY_X_TOKEN = /^xtok_[A-Za-z0-9]{8,48}$/;

/** POST /gateway-x/charge: the signed payment reference and the token of the payer's card. */
export class GatewayXChargeRequestDto extends PaymentReferenceDto {
  /** The token gateway X's library made of the payer's card */
  @IsString()
  @Matches(GATEWAY_X_TOKEN, { message: 'token must be a gateway X card token' })
  token: string;
}

export class GatewayXChargeResponseDto {
  payment_id: number;

  /** processing: charged, gateway X settles it later (its webhook completes it); failed: declined */
  @ApiProperty({ enum: PAYMENT_STATUSES })
  status: PaymentStatus;

  /** Gateway X's charge id; null when the card was declined */
  @ApiProperty({ type: String, nullable: true })
  charge_id: string | null;
}
