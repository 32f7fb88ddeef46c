import { ApiProperty } from '@nestjs/swagger';
import { IsString, Matches } from 'class-validator';
import { Trim } from '../../../common/validation/index.js';
import { AdminChargeFieldsDto } from '../../payments/index.js';

/** A gateway-A payment method id, the token its admin charges take. */
export const PAYMENT_METHOD_ID = /^pm_[A-Za-z0-9_]{1,250}$/;

/** Section B `POST /gateway-a/payment`: an admin charge of a gateway-A payment method. */
export class GatewayAPaymentRequestDto extends AdminChargeFieldsDto {
  /** The payment source: a gateway A payment method id (`pm_…`) */
  @Trim()
  @IsString()
  @Matches(PAYMENT_METHOD_ID, { message: 'source must be a gateway A payment method id (pm_…)' })
  source: string;
}

/** Section B `GET /gateway-a/config`: what a client-side integration needs, never a secret. */
export class GatewayAConfigDto {
  /** The publishable key of the current mode (`pk_…`), or null while gateway A is not connected */
  @ApiProperty({ type: String, nullable: true, example: 'pk_test_…' })
  api_key: string | null;

  /** Where the gateway sends the current mode's webhooks */
  webhook_url: string;
}
