import { applyDecorators, Controller, HttpCode, Param, Post, Req } from '@nestjs/common';
import { ApiBody, ApiConsumes, ApiHeader, ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { SignedWebhookRoute } from '../../../common/auth/index.js';
import type { RawBodyRequest } from '../../../common/http/index.js';
import { ApiErrorResponses } from '../../../common/openapi/index.js';
import { GATEWAY_MODES, type GatewayMode } from '../../gateways/index.js';
import { WebhookIntakeService, WebhookModePipe, WebhookReceiptDto, webhookVerdictOf } from '../../webhooks/index.js';
import { ApiGatewayUnavailableResponse } from '../client/gateway-b-openapi.js';
import { GatewayBEventSource } from './gateway-b-event-source.js';
import { GatewayBEventEnvelopeDto } from './gateway-b-webhook.dto.js';

const TRANSMISSION_HEADERS: Array<[string, string]> = [
  ['PAYPAL-AUTH-ALGO', 'Signature algorithm, e.g. `SHA256withRSA`'],
  ['PAYPAL-CERT-URL', "URL of the provider's signing certificate"],
  ['PAYPAL-TRANSMISSION-ID', 'Id of this delivery'],
  ['PAYPAL-TRANSMISSION-SIG', 'Base64 signature'],
  ['PAYPAL-TRANSMISSION-TIME', 'When it was sent (date-time)'],
];

const ApiTransmissionHeaders = () => applyDecorators(...TRANSMISSION_HEADERS.map(([name, description]) => ApiHeader({ name, required: true, description })));

@ApiTags('Webhooks')
@Controller('webhook')
export class GatewayBWebhookController {
  constructor(
    private readonly intake: WebhookIntakeService,
    private readonly events: GatewayBEventSource,
  ) {}

  /** The body is read raw (no DTO, no validation pipe): PayPal verifies the exact bytes. */
  @Post('gateway-b-callback/:mode')
  @HttpCode(200)
  @SignedWebhookRoute('gateway_b')
  @ApiOperation({
    operationId: 'webhookGatewayBCallback',
    summary:
      "Gateway B's events for a mode: the five transmission headers are required and the delivery is verified by the provider's " +
      'verify-webhook-signature API with the mode’s Webhook ID; each event is stored once; PAYMENT.CAPTURE.COMPLETED completes the payment whose order it captured',
    description:
      'Decided before any provider call: 400 `checkout_invalid_signature` for a header missing or malformed, a `PAYPAL-TRANSMISSION-TIME` more than ' +
      'GATEWAY_B_WEBHOOK_TOLERANCE_SECONDS (default 300) from now either way, a body that is not an event, or no Webhook ID stored for the mode; ' +
      '200 `duplicate` for an event id already stored and finished; 429 `checkout_rate_limited` with Retry-After once the client has had ' +
      'RATE_LIMIT_WEBHOOK_VERIFY_FAILURES deliveries refused by the provider within the window (successes never count); a verdict is reused for the ' +
      'same five headers and raw body. Then the provider: FAILURE is 400. ' +
      '404: unknown mode. 503: the provider could not be asked, or every verification slot stayed busy (deliver again later).',
  })
  @ApiParam({ name: 'mode', enum: [...GATEWAY_MODES] })
  @ApiTransmissionHeaders()
  @ApiConsumes('application/json')
  @ApiBody({
    type: GatewayBEventEnvelopeDto,
    examples: {
      completed: {
        summary: 'A capture completed (gateway B signs and sends it)',
        value: {
          id: 'WH-58D329510W468432D-8HN650336L201105X',
          event_type: 'PAYMENT.CAPTURE.COMPLETED',
          resource_type: 'capture',
          event_version: '1.0',
          create_time: '2026-11-25T10:00:00.000Z',
          resource: {
            id: '3C679366HH908993F',
            status: 'COMPLETED',
            amount: { currency_code: 'USD', value: '10.00' },
            custom_id: '1',
            supplementary_data: { related_ids: { order_id: '5O190127TN364715T' } },
          },
        },
      },
    },
  })
  @ApiOkResponse({ type: WebhookReceiptDto, description: 'Processed, ignored, rejected (logged) or a duplicate: the provider must not retry' })
  @ApiErrorResponses(404, 413, 429)
  @ApiGatewayUnavailableResponse()
  receive(@Param('mode', WebhookModePipe) mode: GatewayMode, @Req() request: RawBodyRequest): Promise<WebhookReceiptDto> {
    return this.intake.receive(this.events, mode, request.rawBody, webhookVerdictOf(request));
  }
}
