import { ApiProperty } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsIn, IsOptional, IsString, Matches, MaxLength, ValidateBy } from 'class-validator';
import { CURRENCY_CODES } from '../../common/money/index.js';
import { Trim } from '../../common/validation/index.js';

const DECIMAL_AMOUNT = /^\d{1,15}(\.\d{1,6})?$/;
const PAYMENT_METHOD_ID = /^pm_[A-Za-z0-9_]{1,250}$/;

/** A positive amount in major units: a JSON number (19.99) or a decimal string ("19.99"); converted exactly later. */
function IsDecimalAmount(): PropertyDecorator {
  return ValidateBy({
    name: 'isDecimalAmount',
    validator: {
      validate: (value: unknown) =>
        (typeof value === 'number' && Number.isFinite(value) && value > 0 && DECIMAL_AMOUNT.test(String(value))) ||
        (typeof value === 'string' && DECIMAL_AMOUNT.test(value) && Number(value) > 0),
      defaultMessage: () => 'amount must be a positive decimal number in major units, such as 19.99',
    },
  });
}

const upperCase = Transform(({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim().toUpperCase() : value));

class AdminChargeFieldsDto {
  /** Amount in major units of `currency` (19.99 USD, 500 JPY, 1.5 KWD), converted exactly to minor units */
  @ApiProperty({ type: Number, example: 19.99 })
  @IsDecimalAmount()
  amount: number | string;

  /** ISO 4217 currency code */
  @upperCase
  @IsIn(CURRENCY_CODES, { message: 'currency must be an ISO 4217 currency code' })
  currency: string;

  /** Shown on the gateway's payment and the payer's statement details */
  @IsOptional()
  @Trim()
  @IsString()
  @MaxLength(500)
  description?: string;
}

/** Section B `POST /gateway-a/payment`: an admin charge of a gateway-A payment method. */
export class GatewayAPaymentRequestDto extends AdminChargeFieldsDto {
  /** The payment source: a gateway A payment method id (`pm_…`) */
  @Trim()
  @IsString()
  @Matches(PAYMENT_METHOD_ID, { message: 'source must be a gateway A payment method id (pm_…)' })
  source: string;
}

/** Section B `POST /payment/process`: the virtual terminal (gateway A only). */
export class PaymentProcessRequestDto extends AdminChargeFieldsDto {
  /** A gateway A payment method id (`pm_…`); the virtual terminal charges through gateway A only */
  @Trim()
  @IsString()
  @Matches(PAYMENT_METHOD_ID, { message: 'payment_method must be a gateway A payment method id (pm_…): the virtual terminal charges through gateway A only' })
  payment_method: string;
}

/** Section B payment result. */
export class PaymentResultDto {
  /** The gateway's payment id (`pi_…`) */
  transaction_id: string;

  /** `success` when the payment succeeded, otherwise the gateway's status (`processing`, `requires_action`, `requires_payment_method`, …) */
  @ApiProperty({ example: 'success' })
  status: string;

  message: string;
}

/** Section B `GET /gateway-a/config`: what a client-side integration needs, never a secret. */
export class GatewayAConfigDto {
  /** The publishable key of the current mode (`pk_…`), or null while gateway A is not connected */
  @ApiProperty({ type: String, nullable: true, example: 'pk_test_…' })
  api_key: string | null;

  /** Where the gateway sends the current mode's webhooks */
  webhook_url: string;
}
