import { Body, Controller, Delete, Get, HttpCode, Patch, Post, Query, Res } from '@nestjs/common';
import { ApiAcceptedResponse, ApiBody, ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { AdminRoute, Capability } from '../../common/auth/index.js';
import { PAGING_HEADERS, setPagingHeaders } from '../../common/http/index.js';
import { ApiErrorResponses } from '../../common/openapi/index.js';
import { IdParam } from '../../common/validation/index.js';
import {
  CreateWebhookEndpointDto,
  DeliveriesQueryDto,
  OutgoingEventDto,
  OutgoingEventsQueryDto,
  ReplayEventsDto,
  ReplayResultDto,
  UpdateWebhookEndpointDto,
  WebhookDeliveryDto,
  WebhookEndpointDeletedDto,
  WebhookEndpointDto,
  WebhookEndpointWithSecretDto,
} from './outgoing-webhooks.dto.js';
import { endpointEvents, OutgoingWebhooksService } from './outgoing-webhooks.service.js';
import type { WebhookDeliveryEntity } from './webhook-delivery.entity.js';
import type { WebhookEndpointEntity } from './webhook-endpoint.entity.js';

/**
 * An addition to the interface (issue 34, docs/outgoing-webhooks.md): the merchant's endpoints for
 * events this service sends, their delivery log, resend and replay, and the same events for polling.
 * Every route needs `checkout_settings` and `manage_checkout_settings` (administrators).
 */
@ApiTags('Webhooks')
@Controller('administration')
export class OutgoingWebhooksController {
  constructor(private readonly webhooks: OutgoingWebhooksService) {}

  @Post('webhook-endpoints')
  @AdminRoute(Capability.manageSettings)
  @ApiBody({
    type: CreateWebhookEndpointDto,
    examples: {
      every_event: { summary: 'Every event type, present and future', value: { url: 'https://shop.example.com/checkout-events', description: 'Order system' } },
      completed_only: { summary: 'Completed payments only', value: { url: 'https://crm.example.com/hooks/checkout', events: ['payment.completed'] } },
    },
  })
  @ApiOperation({
    operationId: 'administrationCreateWebhookEndpoint',
    summary: 'Add an endpoint for outgoing events; the answer shows its signing secret, once',
    description: 'The URL must be https and must not be or resolve to an internal address (400 `rest_invalid_param` naming `url`).',
  })
  @ApiCreatedResponse({ type: WebhookEndpointWithSecretDto })
  @ApiErrorResponses(400)
  async create(@Body() body: CreateWebhookEndpointDto): Promise<WebhookEndpointWithSecretDto> {
    const { endpoint, secret } = await this.webhooks.create(body);
    return { ...toDto(endpoint), secret };
  }

  @Get('webhook-endpoints')
  @AdminRoute(Capability.manageSettings)
  @ApiOperation({ operationId: 'administrationListWebhookEndpoints', summary: 'The endpoints for outgoing events (without secrets)', description: 'Every endpoint with its URL, subscribed event types, status and when the previous secret stops signing. Secrets are never shown here.' })
  @ApiOkResponse({ type: WebhookEndpointDto, isArray: true })
  async list(): Promise<WebhookEndpointDto[]> {
    return (await this.webhooks.list()).map(toDto);
  }

  @Patch('webhook-endpoints/:id')
  @ApiBody({
    type: UpdateWebhookEndpointDto,
    examples: {
      disable: { summary: 'Stop sending to it (its pending deliveries fail)', value: { status: 'disabled' } },
      events: { summary: 'Change the event types it receives', value: { events: ['payment.completed', 'payment.failed'] } },
    },
  })
  @AdminRoute(Capability.manageSettings)
  @ApiOperation({ operationId: 'administrationUpdateWebhookEndpoint', summary: "Change an endpoint's URL, events, description or status", description: 'Only the members given change. A new URL is checked as at creation (https, no internal address: 400 naming `url`).' })
  @ApiOkResponse({ type: WebhookEndpointDto })
  @ApiErrorResponses(400, 404)
  async update(@IdParam('id') id: number, @Body() body: UpdateWebhookEndpointDto): Promise<WebhookEndpointDto> {
    return toDto(await this.webhooks.update(id, body));
  }

  @Delete('webhook-endpoints/:id')
  @AdminRoute(Capability.manageSettings)
  @ApiOperation({ operationId: 'administrationDeleteWebhookEndpoint', summary: 'Delete an endpoint and its delivery log (deliveries not yet sent are dropped)', description: 'Answers the deleted endpoint as `previous`. Events stay listed by GET /administration/outgoing-events.' })
  @ApiOkResponse({ type: WebhookEndpointDeletedDto })
  @ApiErrorResponses(400, 404)
  async remove(@IdParam('id') id: number): Promise<WebhookEndpointDeletedDto> {
    return { deleted: true, previous: toDto(await this.webhooks.remove(id)) };
  }

  @Post('webhook-endpoints/:id/rotate-secret')
  @AdminRoute(Capability.manageSettings)
  @HttpCode(200)
  @ApiOperation({
    operationId: 'administrationRotateWebhookEndpointSecret',
    summary: 'Make a new signing secret (shown once); the old one keeps signing for 24 hours',
    description: 'Until `previous_secret_expires_at` the header carries the new secret\'s `v1=` first, then the old one\'s.',
  })
  @ApiOkResponse({ type: WebhookEndpointWithSecretDto })
  @ApiErrorResponses(400, 404)
  async rotate(@IdParam('id') id: number): Promise<WebhookEndpointWithSecretDto> {
    const { endpoint, secret } = await this.webhooks.rotateSecret(id);
    return { ...toDto(endpoint), secret };
  }

  @Get('webhook-endpoints/:id/deliveries')
  @AdminRoute(Capability.manageSettings)
  @ApiOperation({ operationId: 'administrationListWebhookDeliveries', summary: "An endpoint's delivery log, newest first (paged; X-WP-Total, X-WP-TotalPages)", description: 'Each delivery with its status, attempts and its last attempt: time, HTTP status code, duration, the first 1 KB of the answer and the error.' })
  @ApiOkResponse({ type: WebhookDeliveryDto, isArray: true, headers: PAGING_HEADERS })
  @ApiErrorResponses(400, 404)
  async deliveries(@IdParam('id') id: number, @Query() query: DeliveriesQueryDto, @Res({ passthrough: true }) response: Response): Promise<WebhookDeliveryDto[]> {
    const perPage = query.per_page ?? 20;
    const { deliveries, total } = await this.webhooks.deliveryPage(id, ((query.page ?? 1) - 1) * perPage, perPage);
    setPagingHeaders(response, total, perPage);
    return deliveries.map(toDeliveryDto);
  }

  @Post('webhook-endpoints/:id/deliveries/:delivery_id/resend')
  @AdminRoute(Capability.manageSettings)
  @HttpCode(202)
  @ApiOperation({ operationId: 'administrationResendWebhookDelivery', summary: "Send one delivery's event again (a new delivery; the event keeps its id)", description: 'Queues the event of that delivery for this endpoint once more, signed with the current secrets; the answer is the new delivery.' })
  @ApiAcceptedResponse({ type: WebhookDeliveryDto })
  @ApiErrorResponses(400, 404)
  async resend(@IdParam('id') id: number, @IdParam('delivery_id') deliveryId: number): Promise<WebhookDeliveryDto> {
    return toDeliveryDto(await this.webhooks.resend(id, deliveryId));
  }

  @Post('webhook-endpoints/:id/replay')
  @ApiBody({ type: ReplayEventsDto, examples: { since: { summary: 'The events since an instant (e.g. when the receiver went down)', value: { since: '2026-01-01T00:00:00Z' } } } })
  @AdminRoute(Capability.manageSettings)
  @HttpCode(202)
  @ApiOperation({ operationId: 'administrationReplayWebhookEvents', summary: 'Send an endpoint the events it subscribes to created since an instant (e.g. after it was down)', description: 'Queues one new delivery per event created at or after `since` (1000 at most per call; `truncated` says when more matched).' })
  @ApiAcceptedResponse({ type: ReplayResultDto })
  @ApiErrorResponses(400, 404)
  replay(@IdParam('id') id: number, @Body() body: ReplayEventsDto): Promise<ReplayResultDto> {
    return this.webhooks.replaySince(id, new Date(body.since));
  }

  @Get('outgoing-events')
  @AdminRoute(Capability.manageSettings)
  @ApiOperation({ operationId: 'administrationListOutgoingEvents', summary: 'The outgoing events after an id, oldest first (for receivers that poll)', description: 'The same bodies the endpoints receive. Pass the last id you read as `since` (0 for the first call); `limit` is 50 by default, 100 at most.' })
  @ApiOkResponse({ type: OutgoingEventDto, isArray: true })
  @ApiErrorResponses(400)
  events(@Query() query: OutgoingEventsQueryDto): Promise<OutgoingEventDto[]> {
    return this.webhooks.eventsAfter(query.since ?? 0, query.limit ?? 50);
  }
}

function toDto(endpoint: WebhookEndpointEntity): WebhookEndpointDto {
  return {
    id: endpoint.id,
    url: endpoint.url,
    events: endpointEvents(endpoint),
    description: endpoint.description,
    status: endpoint.status,
    previous_secret_expires_at: endpoint.previousSecretExpiresAt?.toISOString() ?? null,
    created_at: endpoint.createdAt.toISOString(),
    updated_at: endpoint.updatedAt.toISOString(),
  };
}

function toDeliveryDto(row: WebhookDeliveryEntity): WebhookDeliveryDto {
  return {
    id: row.id,
    event_id: row.eventId,
    event_type: row.eventType,
    status: row.status,
    attempts: row.attempts,
    last_attempt_at: row.lastAttemptAt?.toISOString() ?? null,
    status_code: row.statusCode,
    duration_ms: row.durationMs,
    response_excerpt: row.responseExcerpt,
    error: row.error,
    created_at: row.createdAt.toISOString(),
  };
}
