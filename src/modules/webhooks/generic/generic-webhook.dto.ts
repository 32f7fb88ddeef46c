import { ApiProperty } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsIn, IsNotEmpty, IsObject, IsOptional, IsString, Matches, MaxLength, ValidateNested } from 'class-validator';
import { CURRENCY_CODES } from '../../../common/money/index.js';
import { IsDecimalAmount } from '../../payments/index.js';
import { WEBHOOK_OUTCOMES, type WebhookOutcome } from '../webhook-receipt.dto.js';

export const GENERIC_EVENT_ID = /^[\x21-\x7e]{1,191}$/;

/** `data` of a section B webhook envelope: the local payment it is about and what was paid. */
export class GenericWebhookDataDto {
  /** The provider's payment id of the payment (its `transaction_id` in GET /payment/status), or the local id while it has none */
  @IsString()
  @IsNotEmpty()
  @MaxLength(255)
  transaction_id: string;

  /** Amount in major units (19.99), converted exactly */
  @ApiProperty({ type: Number, example: 19.99 })
  @IsDecimalAmount()
  amount: number | string;

  /** ISO 4217 currency code */
  @IsString()
  @IsIn(CURRENCY_CODES, { message: 'currency must be an ISO 4217 currency code (upper case)' })
  currency: string;
}

/**
 * Section B's generic webhook envelope. Signed with `Checkout-Signature` over the exact bytes; the
 * event is read from those bytes (this class validates and documents them).
 */
export class GenericWebhookEnvelopeDto {
  /** The sender's event id (visible ASCII, at most 191): redeliveries with the same id are duplicates. Without it the event is identified by the SHA-256 of the body */
  @IsOptional()
  @IsString()
  @Matches(GENERIC_EVENT_ID, { message: 'id must be 1-191 visible ASCII characters' })
  id?: string;

  /** Event name; `payment_intent.succeeded` is applied, any other is stored and ignored */
  @ApiProperty({ example: 'payment_intent.succeeded' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(100)
  event: string;

  @IsObject()
  @ValidateNested()
  @Type(() => GenericWebhookDataDto)
  data: GenericWebhookDataDto;
}

/** Section B acknowledgement of a received webhook, with what it did. */
export class GenericWebhookReceiptDto {
  @ApiProperty({ example: true })
  success: boolean;

  @ApiProperty({ example: 'Webhook processed.' })
  message: string;

  /** processed: the payment completed (or already was); ignored: another event, unknown or finished payment; rejected: amount or currency differ (logged); duplicate: received before */
  @ApiProperty({ enum: WEBHOOK_OUTCOMES })
  outcome: WebhookOutcome;
}

/** GET /webhook/status */
export class WebhookStatusDto {
  /** Where senders deliver section B webhooks: POST, signed with `Checkout-Signature` */
  webhook_url: string;

  @ApiProperty({ enum: ['active'] })
  status: 'active';

  /** Mask of the site's generic webhook secret, e.g. `whsec_…a1b2` */
  secret: string;
}

/** POST /webhook/rotate-secret: the new secret, shown this once. */
export class RotatedWebhookSecretDto {
  webhook_url: string;

  @ApiProperty({ enum: ['active'] })
  status: 'active';

  /** The new secret, whole: store it with the sender now; it is only ever shown masked again */
  secret: string;

  @ApiProperty({ example: 'A new webhook secret is active; deliveries signed with the old one are refused.' })
  message: string;
}
