import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ArrayMaxSize, ArrayMinSize, ArrayUnique, IsArray, IsIn, IsInt, IsOptional, IsString, Max, MaxLength, Min, MinLength, ValidateIf } from 'class-validator';
import { PageQueryDto } from '../../common/http/index.js';
import { IsIsoInstant, ISO_INSTANT_SCHEMA, ToInteger } from '../../common/validation/index.js';
import { EVENT_SUBSCRIPTIONS } from './event-types.js';
import type { WebhookDeliveryStatus } from './webhook-delivery.entity.js';
import type { WebhookEndpointStatus } from './webhook-endpoint.entity.js';

const MAX_INT = 2_147_483_647;
export const ENDPOINT_STATUSES: readonly WebhookEndpointStatus[] = ['enabled', 'disabled'];
export const DELIVERY_STATUSES: readonly WebhookDeliveryStatus[] = ['pending', 'succeeded', 'failed'];

/** PATCH /administration/webhook-endpoints/{id}: the members given change. */
export class UpdateWebhookEndpointDto {
  @ApiPropertyOptional({ type: String, maxLength: 2048, description: 'The https URL events are POSTed to (an internal address is refused)', example: 'https://shop.example.com/checkout-events' })
  @IsOptional()
  @MaxLength(2048)
  @MinLength(1)
  @IsString()
  url?: string;

  @ApiPropertyOptional({ type: [String], enum: EVENT_SUBSCRIPTIONS, description: 'Event types sent to it; `*` (the default) is every type, present and future', example: ['payment.completed'] })
  @IsOptional()
  @IsIn(EVENT_SUBSCRIPTIONS, { each: true })
  @ArrayUnique()
  @ArrayMaxSize(EVENT_SUBSCRIPTIONS.length)
  @ArrayMinSize(1)
  @IsArray()
  events?: string[];

  @ApiPropertyOptional({ type: String, nullable: true, maxLength: 255, description: 'A note for you' })
  @IsOptional()
  @ValidateIf((_, value) => value !== null)
  @MaxLength(255)
  @IsString()
  description?: string | null;

  @ApiPropertyOptional({ enum: ENDPOINT_STATUSES, description: 'A disabled endpoint gets no new deliveries; its pending ones fail' })
  @IsOptional()
  @IsIn(ENDPOINT_STATUSES)
  status?: WebhookEndpointStatus;
}

/** POST /administration/webhook-endpoints */
export class CreateWebhookEndpointDto extends UpdateWebhookEndpointDto {
  @ApiProperty({ type: String, maxLength: 2048, description: 'The https URL events are POSTed to (an internal address is refused)', example: 'https://shop.example.com/checkout-events' })
  @MaxLength(2048)
  @MinLength(1)
  @IsString()
  declare url: string;
}

export class WebhookEndpointDto {
  @ApiProperty({ type: 'integer' })
  id: number;
  @ApiProperty()
  url: string;
  @ApiProperty({ type: [String], example: ['*'] })
  events: string[];
  @ApiProperty({ type: String, nullable: true })
  description: string | null;
  @ApiProperty({ enum: ENDPOINT_STATUSES })
  status: WebhookEndpointStatus;
  @ApiProperty({ type: String, nullable: true, format: 'date-time', description: 'Until then the secret before the last rotation also signs (its `v1=` follows the current one)' })
  previous_secret_expires_at: string | null;
  @ApiProperty({ format: 'date-time' })
  created_at: string;
  @ApiProperty({ format: 'date-time' })
  updated_at: string;
}

/** DELETE's answer, as the WordPress REST API answers a deletion. */
export class WebhookEndpointDeletedDto {
  @ApiProperty({ enum: [true] })
  deleted: true;
  @ApiProperty({ type: WebhookEndpointDto })
  previous: WebhookEndpointDto;
}

/** The answer of a creation or rotation: the only time the secret is shown. */
export class WebhookEndpointWithSecretDto extends WebhookEndpointDto {
  @ApiProperty({ description: 'The signing secret (HMAC-SHA256 key of `Checkout-Signature`). Shown once: store it now.', example: 'whsec_…' })
  secret: string;
}

export class WebhookDeliveryDto {
  @ApiProperty({ type: 'integer' })
  id: number;
  @ApiProperty({ type: 'integer', description: 'The event sent (its `id` in the body)' })
  event_id: number;
  @ApiProperty({ example: 'payment.completed' })
  event_type: string;
  @ApiProperty({ enum: DELIVERY_STATUSES })
  status: WebhookDeliveryStatus;
  @ApiProperty({ type: 'integer' })
  attempts: number;
  @ApiProperty({ type: String, nullable: true, format: 'date-time', description: 'Time of the last attempt' })
  last_attempt_at: string | null;
  @ApiProperty({ type: 'integer', nullable: true, description: 'HTTP status of the last answer; null when none came' })
  status_code: number | null;
  @ApiProperty({ type: 'integer', nullable: true })
  duration_ms: number | null;
  @ApiProperty({ type: String, nullable: true, description: 'The first 1 KB of the last answer' })
  response_excerpt: string | null;
  @ApiProperty({ type: String, nullable: true, description: 'Why the last attempt failed' })
  error: string | null;
  @ApiProperty({ format: 'date-time' })
  created_at: string;
}

export class ReplayEventsDto {
  @ApiProperty({ ...ISO_INSTANT_SCHEMA, description: 'Queue the events created at or after this instant (ISO 8601)', example: '2026-01-01T00:00:00Z' })
  @IsIsoInstant('since')
  since: string;
}

export class ReplayResultDto {
  @ApiProperty({ type: 'integer', description: 'Deliveries queued' })
  queued: number;
  @ApiProperty({ description: 'More events matched than one call queues (1000): call again with a later `since`' })
  truncated: boolean;
}

export class OutgoingEventsQueryDto {
  @ApiPropertyOptional({ type: 'integer', minimum: 0, maximum: MAX_INT, default: 0, description: 'Only events with a greater id (the last id you read)' })
  @IsOptional()
  @ToInteger()
  @Max(MAX_INT)
  @Min(0)
  @IsInt()
  since?: number;

  @ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: 100, default: 50 })
  @IsOptional()
  @ToInteger()
  @Max(100)
  @Min(1)
  @IsInt()
  limit?: number;
}

export class OutgoingEventDto {
  @ApiProperty({ type: 'integer', description: 'Stable across retries and resends' })
  id: number;
  @ApiProperty({ example: 'payment.completed' })
  type: string;
  @ApiProperty({ type: 'integer', description: 'Unix seconds' })
  created: number;
  @ApiProperty({ type: 'integer', description: "1, 2, 3… per payment in the order of its moves" })
  sequence: number;
  @ApiProperty({ type: 'object', additionalProperties: true, description: '`payment`: the payment as GET /administration/payments/{id} shows it, without its log' })
  data: Record<string, unknown>;
}

export class DeliveriesQueryDto extends PageQueryDto {}
