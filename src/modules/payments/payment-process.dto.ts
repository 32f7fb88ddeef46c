import { ApiProperty } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsIn, IsNotEmpty, IsOptional, IsString, Matches, MaxLength, ValidateBy } from 'class-validator';
import { CURRENCY_CODES } from '../../common/money/index.js';
import { Trim } from '../../common/validation/index.js';

const DECIMAL_AMOUNT = /^\d{1,15}(\.\d{1,6})?$/;

/** A positive amount in major units: a JSON number (19.99) or a decimal string ("19.99"); converted exactly later. */
export function IsDecimalAmount(): PropertyDecorator {
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

/** What every section B admin charge takes besides its payment method. */
export class AdminChargeFieldsDto {
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

/** Section B `POST /payment/process`: the virtual terminal. */
export class PaymentProcessRequestDto extends AdminChargeFieldsDto {
  /** A payment-method token of a gateway that takes admin charges (gateway A: a payment method id, `pm_…`); it picks the gateway */
  @Trim()
  @IsString()
  @IsNotEmpty()
  @MaxLength(255)
  @Matches(/^[\x21-\x7e]+$/, { message: 'payment_method must be a payment-method token' })
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
