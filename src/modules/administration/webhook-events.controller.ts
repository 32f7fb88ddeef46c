import { Controller, Get, Query, Res } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { AdminRoute, Capability } from '../../common/auth/index.js';
import { decodeKeysetCursor, KEYSET_PAGING_HEADERS, PAGING_HEADERS, setKeysetHeaders, setPagingHeaders } from '../../common/http/index.js';
import { InvalidParamsError } from '../../common/errors/index.js';
import { ApiErrorResponses } from '../../common/openapi/index.js';
import { type WebhookEventFilter, WebhookEventQueries, type WebhookEventView } from '../webhooks/index.js';
import { WebhookEventDto, WebhookEventsQueryDto } from './webhook-events.dto.js';

/**
 * An addition to the interface (docs/interface.md): the provider events this service received, with what each did, so a
 * merchant can see why a payment did not complete without opening the provider's dashboard.
 */
@ApiTags('Webhooks')
@Controller('administration')
export class WebhookEventsController {
  constructor(private readonly events: WebhookEventQueries) {}

  @Get('webhook-events')
  @AdminRoute(Capability.readPayments)
  @ApiOperation({
    operationId: 'administrationListWebhookEvents',
    summary: 'Received provider events with their outcome, newest first (paged; X-WP-Total, X-WP-TotalPages)',
    description:
      'An addition to the interface. Filters (combined with AND): `gateway` (a gateway or `generic`), `mode`, `outcome` (processed, ignored, rejected, failed, pending), ' +
      '`event_type` (exact), `payment_id`, `received_from` (inclusive) and `received_before` (exclusive). ' +
      'Each entry names the payment it touched and, for an ignored, rejected or failed event, the reason. Payloads are not stored. ' +
      'Paged by `page` or by keyset: `after` set to the previous answer\'s `X-Checkout-Next-Cursor` (a forged or damaged cursor: 400 `rest_invalid_param`); ' +
      'totals are exact up to 10,000 matching events, estimated past that (`X-Checkout-Total-Estimated: true`).',
  })
  @ApiOkResponse({ type: WebhookEventDto, isArray: true, headers: { ...PAGING_HEADERS, ...KEYSET_PAGING_HEADERS } })
  @ApiErrorResponses(400)
  async list(@Query() query: WebhookEventsQueryDto, @Res({ passthrough: true }) response: Response): Promise<WebhookEventDto[]> {
    const perPage = query.per_page ?? 20;
    const page = query.page ?? 1;
    if (query.after !== undefined && page > 1) throw new InvalidParamsError({ page: 'page cannot be combined with after (the cursor names the page)' });
    const after = query.after === undefined ? null : decodeKeysetCursor(query.after);
    const filter = filterOf(query);
    const { events, total, estimated, next } = await this.events.page(filter, { offset: (page - 1) * perPage, after }, perPage);
    setPagingHeaders(response, total, perPage);
    setKeysetHeaders(response, next, estimated);
    return events.map(toDto);
  }
}

function filterOf(query: WebhookEventsQueryDto): WebhookEventFilter {
  const receivedFrom = query.received_from === undefined ? undefined : new Date(query.received_from);
  const receivedBefore = query.received_before === undefined ? undefined : new Date(query.received_before);
  if (receivedFrom && receivedBefore && receivedFrom >= receivedBefore) throw new InvalidParamsError({ received_before: 'received_before must be later than received_from' });
  return { provider: query.gateway, mode: query.mode, outcome: query.outcome, eventType: query.event_type || undefined, paymentId: query.payment_id, receivedFrom, receivedBefore };
}

function toDto(row: WebhookEventView): WebhookEventDto {
  return {
    id: row.id,
    gateway: row.provider,
    event_id: row.eventId,
    event_type: row.eventType,
    mode: row.mode,
    outcome: row.outcome,
    reason: row.reason,
    payment_id: row.paymentId,
    received_at: row.receivedAt.toISOString(),
    processed_at: row.processedAt?.toISOString() ?? null,
  };
}
