import { ApiProperty, ApiPropertyOptional, IntersectionType } from '@nestjs/swagger';
import { IsIn, IsInt, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';
import { KeysetQueryDto, PageQueryDto } from '../../common/http/index.js';
import { IsIsoInstant, ISO_INSTANT_SCHEMA, ToInteger, Trim } from '../../common/validation/index.js';
import { GATEWAY_MODES, type GatewayMode, gatewayCatalog } from '../gateways/index.js';
import { MAX_INT } from '../payments/index.js';
import { WEBHOOK_EVENT_OUTCOMES, WEBHOOK_EVENT_TYPE_MAX_LENGTH, type WebhookEventListOutcome } from '../webhooks/index.js';

/** Who sends provider events: a gateway, or `generic` (section B's signed `/webhook/receive`). */
export const WEBHOOK_EVENT_PROVIDERS: readonly string[] = gatewayCatalog.liveList((catalog) => [...catalog.ids, 'generic']);
export type WebhookEventProvider = string;

/** GET /administration/webhook-events: paged like /payment/history (default 20 per page), with filters. */
export class WebhookEventsQueryDto extends IntersectionType(PageQueryDto, KeysetQueryDto) {
  // Declared (not only inferred) so the ts-jest build of the swagger plugin documents each as the nest build does.
  @ApiPropertyOptional({ enum: WEBHOOK_EVENT_PROVIDERS, description: "Only this provider's events: a gateway, or `generic` for section B's `/webhook/receive`", type: 'string' })
  @IsOptional()
  @IsIn(WEBHOOK_EVENT_PROVIDERS)
  gateway?: WebhookEventProvider;

  /** Only events delivered to this mode's endpoint */
  @ApiPropertyOptional({ enum: GATEWAY_MODES, description: "Only events delivered to this mode's endpoint" })
  @IsOptional()
  @IsIn(GATEWAY_MODES)
  mode?: GatewayMode;

  /** Only events with this outcome */
  @ApiPropertyOptional({ enum: WEBHOOK_EVENT_OUTCOMES, description: 'Only events with this outcome' })
  @IsOptional()
  @IsIn(WEBHOOK_EVENT_OUTCOMES)
  outcome?: WebhookEventListOutcome;

  @ApiPropertyOptional({ type: String, maxLength: WEBHOOK_EVENT_TYPE_MAX_LENGTH, description: 'Only events of this type, exactly as the provider names it (empty: any type)', example: 'payment_intent.succeeded' })
  @IsOptional()
  @Trim()
  @MaxLength(WEBHOOK_EVENT_TYPE_MAX_LENGTH)
  @IsString()
  event_type?: string;

  @ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: MAX_INT, description: 'Only events that touched or named this payment' })
  @IsOptional()
  @ToInteger()
  @Max(MAX_INT)
  @Min(1)
  @IsInt()
  payment_id?: number;

  @ApiPropertyOptional({ ...ISO_INSTANT_SCHEMA, description: 'Only events first received at or after this instant (ISO 8601; a date alone is midnight UTC)', example: '2026-01-01' })
  @IsOptional()
  @IsIsoInstant('received_from')
  received_from?: string;

  @ApiPropertyOptional({ ...ISO_INSTANT_SCHEMA, description: 'Only events first received before this instant, not at it (ISO 8601; a date alone is midnight UTC)', example: '2026-02-01' })
  @IsOptional()
  @IsIsoInstant('received_before')
  received_before?: string;
}

/** One received provider event: what it was, what it did, and why. No payload, no secret, no card data. */
export class WebhookEventDto {
  /** Local id of the stored event */
  id: number;

  /** The provider: a gateway, or `generic` for section B's signed `/webhook/receive` */
  @ApiProperty({ enum: WEBHOOK_EVENT_PROVIDERS, example: 'gateway_a', type: 'string' })
  gateway: string;

  /** The provider's event id */
  @ApiProperty({ example: 'evt_1QvP5n2eZvKYlo2C' })
  event_id: string;

  @ApiProperty({ example: 'payment_intent.succeeded' })
  event_type: string;

  /** The mode of the endpoint it was delivered to; null for section B's `/webhook/receive`, which has none */
  @ApiProperty({ enum: GATEWAY_MODES, nullable: true })
  mode: string | null;

  /**
   * processed: applied (or already so); ignored: nothing to do (outside the contract, not this
   * installation's object, unknown payment, a late event); rejected: it disagrees with the payment
   * it names (see `reason`); failed: the last attempt failed and the provider's redelivery will
   * apply it (see `reason`); pending: being applied, or not yet
   */
  @ApiProperty({ enum: WEBHOOK_EVENT_OUTCOMES, example: 'rejected' })
  outcome: WebhookEventListOutcome;

  /** Why it was ignored or rejected, or why the last attempt failed */
  @ApiProperty({ type: String, nullable: true, example: 'amount or currency differs from the record' })
  reason: string | null;

  /** The payment it touched or named, when one was found */
  @ApiProperty({ type: 'integer', nullable: true, example: 42 })
  payment_id: number | null;

  /** First delivery (ISO 8601 UTC) */
  received_at: string;

  /** When its outcome was stored (ISO 8601 UTC), null while unfinished */
  @ApiProperty({ type: String, nullable: true })
  processed_at: string | null;
}
