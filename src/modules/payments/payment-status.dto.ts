import { ApiProperty } from '@nestjs/swagger';
import { IsNotEmpty, IsString, MaxLength } from 'class-validator';
import { PageQueryDto } from '../../common/http/index.js';
import { FastAccept } from '../../common/validation/index.js';
import { CHECKOUT_GATEWAYS, type CheckoutGateway, GATEWAY_MODES, type GatewayMode } from '../gateways/index.js';
import { PaymentReferenceDto } from './payment-reference.dto.js';
import { PAYMENT_STATUSES, type PaymentStatus } from './payment-status.js';

/** POST /payment/status: the signed reference only. */
@FastAccept()
export class PaymentStatusRequestDto extends PaymentReferenceDto {}

/** The local outcome of a payment attempt (no provider is asked). */
export class PaymentStatusResponseDto {
  payment_id: number;
  @ApiProperty({ enum: PAYMENT_STATUSES })
  status: PaymentStatus;
  /** Minor units */
  amount: number;
  currency: string;
  @ApiProperty({ enum: GATEWAY_MODES })
  mode: GatewayMode;
  @ApiProperty({ enum: CHECKOUT_GATEWAYS, type: 'string' })
  gateway: CheckoutGateway;
  /** ISO 8601 UTC */
  updated_at: string;
}

/** Section B: GET /payment/status */
export class TransactionStatusQueryDto {
  /** The provider's payment id, or the local payment id for a record that has none yet */
  @IsString()
  @IsNotEmpty()
  @MaxLength(255)
  transaction_id: string;
}

/** Section B payment status and history entry. */
export class TransactionStatusDto {
  transaction_id: string;
  @ApiProperty({ enum: PAYMENT_STATUSES })
  status: PaymentStatus;
  /** Major units, e.g. 19.99 */
  amount: number;
  currency: string;
  /** When the payment was created, ISO 8601 UTC */
  date: string;
}

/** Section B: GET /payment/history (default 10 per page) */
export class PaymentHistoryQueryDto extends PageQueryDto {}
