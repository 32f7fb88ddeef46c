import { Body, Controller, Delete, Get, HttpCode, Param, Post } from '@nestjs/common';
import { ApiBody, ApiOkResponse, ApiOperation, ApiParam, ApiResponse, ApiTags, getSchemaPath } from '@nestjs/swagger';
import { AdminRoute, Capability } from '../../common/auth/index.js';
import { AcknowledgementDto, ApiErrorResponses, WpErrorDto } from '../../common/openapi/index.js';
import { SECTION_B_GATEWAY_IDS } from '../../common/gateway-catalog/index.js';
import { GatewayConfigureDto, GatewayListEntryDto } from './gateway-list.dto.js';
import { GatewayListService } from './gateway-list.service.js';

/** Section B's gateway routes (docs/decisions.md §10), reaching each gateway through its adapter. */
@ApiTags('Gateways')
@Controller('gateway')
export class GatewayListController {
  constructor(private readonly gateways: GatewayListService) {}

  @Get('list')
  @AdminRoute(Capability.manageSettings)
  @ApiOperation({
    operationId: 'gatewayList',
    summary: 'The gateways and whether each is enabled',
    description:
      '`gateway_a` (card) and `gateway_b` (wallet): enabled when connected in their current mode. `gateway_c` (bank debit): enabled on the Pro plan when ' +
      '`gateway_a` is connected and its `sepa` method is active.',
  })
  @ApiOkResponse({ type: GatewayListEntryDto, isArray: true })
  list(): Promise<GatewayListEntryDto[]> {
    return this.gateways.list();
  }

  @Post('configure')
  @ApiBody({
    type: GatewayConfigureDto,
    examples: { gateway_b: { summary: "Gateway B's credentials as `<client id>:<secret>`", value: { gateway: 'gateway_b', api_key: 'AbCdEf0123456789-client:EfGh0123456789-secret' } } },
  })
  @HttpCode(200)
  @AdminRoute(Capability.manageSettings)
  @ApiOperation({
    operationId: 'gatewayConfigure',
    summary: "Save a gateway's API credentials for its current mode, checked with the provider",
    description:
      '`gateway_b`: `api_key` = `<client id>:<secret>` of a PayPal REST app, checked by asking for an access token (refused 502 `checkout_gateway_error`, ' +
      'unreachable 503 `checkout_gateway_unavailable`, nothing stored then); the stored email is kept. `gateway_a` is connected through its OAuth flow ' +
      'and `gateway_c` is gateway A’s bank-debit method: both 400. `webhook_url`, when given, must be this service’s callback URL of the gateway ' +
      'for its current mode (400 otherwise): the service never stores a URL chosen by the caller.',
  })
  @ApiOkResponse({ type: AcknowledgementDto })
  @ApiErrorResponses(400, 502)
  @ApiResponse({ status: 503, description: 'The provider could not be reached to check the key (`checkout_gateway_unavailable`)', schema: { $ref: getSchemaPath(WpErrorDto) } })
  configure(@Body() body: GatewayConfigureDto): Promise<AcknowledgementDto> {
    return this.gateways.configure(body.gateway, body.api_key, body.webhook_url);
  }

  @Delete(':gateway')
  @AdminRoute(Capability.manageSettings)
  @ApiOperation({
    operationId: 'gatewayDelete',
    summary: 'Remove a gateway',
    description:
      '`gateway_a` / `gateway_b`: disconnected in their current mode (credentials and the mode’s webhook settings deleted, as POST /payment-gateway/disconnect). ' +
      '`gateway_c`: gateway A’s bank-debit method (`sepa`) is switched off. Unknown gateway: 404 `checkout_not_found`.',
  })
  @ApiParam({ name: 'gateway', enum: SECTION_B_GATEWAY_IDS })
  @ApiOkResponse({ type: AcknowledgementDto })
  @ApiErrorResponses(404)
  remove(@Param('gateway') gateway: string): Promise<AcknowledgementDto> {
    return this.gateways.remove(gateway);
  }
}
