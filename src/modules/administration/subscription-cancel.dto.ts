import { ApiProperty } from '@nestjs/swagger';
import { IsBoolean } from 'class-validator';
import { AdminPaymentDetailDto } from '../payments/index.js';

/** POST /administration/payments/{id}/subscription/cancel */
export class CancelSubscriptionDto {
  /** true: the subscription runs until the end of the period already paid, then ends; false: it ends now (no further invoice) */
  @IsBoolean()
  at_period_end: boolean;
}

/** The payment after the change, as GET /administration/payments/{id} answers it. */
export class AdminPaymentAnswerDto {
  @ApiProperty({ type: AdminPaymentDetailDto })
  payment: AdminPaymentDetailDto;
}
