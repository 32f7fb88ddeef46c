import { ApiProperty } from '@nestjs/swagger';
import { IsBoolean, IsOptional, IsString, Matches, MaxLength } from 'class-validator';
import { ToBoolean } from '../../../common/validation/index.js';
import { PAYMENT_STATUSES, type PaymentStatus, PaymentReferenceDto } from '../../payments/index.js';

export const INTENT_TYPES = ['payment_intent', 'setup_intent'] as const;
export type IntentType = (typeof INTENT_TYPES)[number];

/** POST /gateway-a/payment-intent-or-setup: the payment reference plus the saved-method choice. */
export class GatewayAIntentRequestDto extends PaymentReferenceDto {
  /**
   * Also save the payer's payment method for later charges: the one-time payment is charged and
   * the method saved in the same PaymentIntent (`setup_future_usage: off_session`). Recurring
   * prices always save the method.
   */
  @IsOptional()
  @ToBoolean()
  @IsBoolean()
  save_payment_method?: boolean;
}

/** The intent the browser confirms with the gateway's client library. */
export class GatewayAIntentResponseDto {
  @ApiProperty({ enum: INTENT_TYPES })
  intent_type: IntentType;

  /** The gateway's intent id (`pi_…` or `seti_…`) */
  intent_id: string;

  /** The intent's client secret, for the gateway's client library in the payer's browser */
  client_secret: string;

  /** True when the intent waits for the payer (e.g. 3-D Secure) */
  requires_action: boolean;
}

/** POST /gateway-a/checkout: the payment reference, optionally the intent the browser confirmed. */
export class GatewayACheckoutRequestDto extends PaymentReferenceDto {
  /** The confirmed intent (`pi_…` / `seti_…`); when given it must be the one stored for the payment */
  @IsOptional()
  @IsString()
  @MaxLength(255)
  @Matches(/^(pi|seti)_[A-Za-z0-9_]+$/, { message: 'intent_id must be a payment intent (pi_…) or setup intent (seti_…) id' })
  intent_id?: string;
}

export class GatewayACheckoutResponseDto {
  @ApiProperty({ enum: PAYMENT_STATUSES })
  status: PaymentStatus;

  payment_id: number;

  /** True when the payer still has to act (authenticate, or choose another payment method) */
  requires_action: boolean;
}
