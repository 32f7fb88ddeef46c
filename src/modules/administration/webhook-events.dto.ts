import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional } from 'class-validator';
import { PageQueryDto } from '../../common/http/index.js';
import { CHECKOUT_GATEWAYS, type CheckoutGateway, GATEWAY_MODES, type GatewayMode } from '../gateways/index.js';
import { WEBHOOK_EVENT_OUTCOMES, type WebhookEventListOutcome } from '../webhooks/index.js';

/** GET /administration/webhook-events: paged like /payment/history (default 20 per page), with filters. */
export class WebhookEventsQueryDto extends PageQueryDto {
  /** Only this gateway's events */
  // Declared (not only inferred) so the ts-jest build of the swagger plugin documents it as the nest build does.
  @ApiPropertyOptional({ enum: CHECKOUT_GATEWAYS, description: "Only this gateway's events" })
  @IsOptional()
  @IsIn(CHECKOUT_GATEWAYS)
  gateway?: CheckoutGateway;

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
}

/** One received provider event: what it was, what it did, and why. No payload, no secret, no card data. */
export class WebhookEventDto {
  /** Local id of the stored event */
  id: number;

  /** The provider: a gateway, or `generic` for section B's signed `/webhook/receive` */
  @ApiProperty({ enum: [...CHECKOUT_GATEWAYS, 'generic'], example: 'gateway_a' })
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
