import { Controller, HttpCode, Param, Post, Req } from '@nestjs/common';
import { ApiBody, ApiConsumes, ApiHeader, ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { SignedWebhookRoute } from '../../../common/auth/index.js';
import type { RawBodyRequest } from '../../../common/http/index.js';
import { ApiErrorResponses } from '../../../common/openapi/index.js';
import { GATEWAY_MODES, type GatewayMode } from '../../gateways/index.js';
import { WebhookIntakeService, WebhookModePipe, WebhookReceiptDto, webhookVerdictOf } from '../../webhooks/index.js';
import { GatewayAEventSource } from './gateway-a-event-source.js';
import { GatewayAEventEnvelopeDto } from './gateway-a-webhook.dto.js';

@ApiTags('Webhooks')
@Controller('webhook')
export class GatewayAWebhookController {
  constructor(
    private readonly intake: WebhookIntakeService,
    private readonly events: GatewayAEventSource,
  ) {}

  /** The body is read raw (no DTO, no validation pipe): the signature, checked by the guard, covers the exact bytes. */
  @Post('gateway-a-callback/:mode')
  @HttpCode(200)
  @SignedWebhookRoute('gateway_a')
  @ApiOperation({
    operationId: 'webhookGatewayACallback', description: 'Called by gateway A, not by you. The signature header is checked on the raw body (300 s tolerance), the event\'s livemode must match the mode, and each event is stored once and applied to its payment. A redelivery or an event outside the contract answers 200 and changes nothing; 503 makes the provider retry.',
    summary:
      "Gateway A's events for a mode: signature checked on the raw body (300 s tolerance), livemode must match the mode, " +
      'each event stored once and applied to its payment (never backwards)',
  })
  @ApiParam({ name: 'mode', enum: [...GATEWAY_MODES] })
  @ApiHeader({ name: 'Gateway-A-Signature', required: false, description: '`t=<unix seconds>,v1=<hex HMAC-SHA256 of "t.raw-body">`; required unless Stripe-Signature is sent' })
  @ApiHeader({ name: 'Stripe-Signature', required: false, description: "The gateway's own name for the same header" })
  @ApiConsumes('application/json')
  @ApiBody({
    type: GatewayAEventEnvelopeDto,
    examples: {
      succeeded: {
        summary: 'A test-mode payment succeeded (the gateway signs and sends it)',
        value: {
          id: 'evt_1QvP5n2eZvKYlo2C',
          object: 'event',
          type: 'payment_intent.succeeded',
          created: 1764115200,
          livemode: false,
          api_version: '2026-10-28.endive',
          data: { object: { id: 'pi_3QvP5n2eZvKYlo2C', object: 'payment_intent', amount: 1000, currency: 'usd', status: 'succeeded', metadata: { checkout_payment_id: '1' } } },
        },
      },
    },
  })
  @ApiOkResponse({ type: WebhookReceiptDto, description: 'Processed, ignored, rejected (logged) or a duplicate: the provider must not retry' })
  @ApiErrorResponses(404, 413, 503)
  receive(@Param('mode', WebhookModePipe) mode: GatewayMode, @Req() request: RawBodyRequest): Promise<WebhookReceiptDto> {
    return this.intake.receive(this.events, mode, request.rawBody, webhookVerdictOf(request));
  }
}
