import { Controller, HttpCode, Param, Post, Req } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { SignedWebhookRoute } from '../../../src/common/auth/index.js';
import type { RawBodyRequest } from '../../../src/common/http/index.js';
import type { GatewayMode } from '../../../src/modules/gateways/index.js';
import { WebhookIntakeService, WebhookModePipe, WebhookReceiptDto, webhookVerdictOf } from '../../../src/modules/webhooks/index.js';
import { GATEWAY_X } from '../gateway-x.slice.js';
import { GatewayXEventSource } from './gateway-x-event-source.js';

@ApiTags('Webhooks')
@Controller('webhook')
export class GatewayXWebhookController {
  constructor(
    private readonly intake: WebhookIntakeService,
    private readonly events: GatewayXEventSource,
  ) {}

  /** The body is read raw (no DTO): the signature covers the exact bytes. */
  @Post('gateway-x-callback/:mode')
  @HttpCode(200)
  @SignedWebhookRoute(GATEWAY_X)
  @ApiOperation({ operationId: 'webhookGatewayXCallback', summary: "The test-only gateway X's signed events for a mode" })
  @ApiOkResponse({ type: WebhookReceiptDto })
  receive(@Param('mode', WebhookModePipe) mode: GatewayMode, @Req() request: RawBodyRequest): Promise<WebhookReceiptDto> {
    return this.intake.receive(this.events, mode, request.rawBody, webhookVerdictOf(request));
  }
}
