import { Body, Controller, Get, HttpCode, Post, Query, Redirect } from '@nestjs/common';
import { ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import { AdminRoute, type AuthenticatedUser, CurrentUser, PublicRoute } from '../../common/auth/index.js';
import { ApiErrorResponses } from '../../common/openapi/index.js';
import {
  ConnectCallbackQueryDto,
  ConnectQueryDto,
  GatewayRefDto,
  GatewayStatusDto,
  PaymentMethodSettingsDto,
  SavePaymentMethodSettingsDto,
  SaveWebhookSettingsDto,
  SetModeDto,
  SetPaymentMethodsDto,
  WebhookSettingsDto,
} from './payment-gateway.dto.js';
import { PaymentGatewayService } from './payment-gateway.service.js';

const LOCATION_HEADER = { Location: { description: 'Where the browser goes next', schema: { type: 'string' } } };

@ApiTags('Payment gateway')
@Controller('payment-gateway')
export class PaymentGatewayController {
  constructor(private readonly gateways: PaymentGatewayService) {}

  @Get('connect')
  @Redirect()
  @AdminRoute()
  @ApiErrorResponses(400)
  @ApiOperation({
    operationId: 'paymentGatewayConnect',
    summary: "Start gateway A's OAuth connect flow: 302 to the proxy with a signed, single-use state (10 minutes)",
  })
  @ApiResponse({ status: 302, description: "Redirect to the proxy's OAuth page", headers: LOCATION_HEADER })
  start(@Query() query: ConnectQueryDto, @CurrentUser() user: AuthenticatedUser): { url: string; statusCode: number } {
    return { url: this.gateways.authorizeUrl(user, query.mode), statusCode: 302 };
  }

  @Get('connect-callback')
  @Redirect()
  @PublicRoute()
  @ApiErrorResponses(400)
  @ApiOperation({
    operationId: 'paymentGatewayConnectCallback',
    summary:
      'OAuth return: checks the state, exchanges the code (or takes the credentials), stores them for the mode, provisions the webhook endpoint; ' +
      '302 to ADMIN_URL with ?gateway_a_connected=<mode> or ?gateway_a_error=<code>',
  })
  @ApiResponse({ status: 302, description: 'Redirect to the admin UI with the outcome', headers: LOCATION_HEADER })
  async callback(@Query() query: ConnectCallbackQueryDto): Promise<{ url: string; statusCode: number }> {
    return { url: await this.gateways.completeConnect(query), statusCode: 302 };
  }

  @Post('disconnect')
  @HttpCode(200)
  @AdminRoute()
  @ApiErrorResponses(400)
  @ApiOperation({ operationId: 'paymentGatewayDisconnect', summary: "Disconnect a gateway in its current mode (credentials and the mode's webhook state removed)" })
  disconnect(@Body() body: GatewayRefDto): Promise<GatewayStatusDto> {
    return this.gateways.disconnect(body.gateway);
  }

  @Post('set-mode')
  @HttpCode(200)
  @AdminRoute()
  @ApiErrorResponses(400)
  @ApiOperation({ operationId: 'paymentGatewaySetMode', summary: 'Switch a gateway between test and live mode' })
  setMode(@Body() body: SetModeDto): Promise<GatewayStatusDto> {
    return this.gateways.setMode(body.gateway, body.mode);
  }

  @Post('set-payment-methods')
  @HttpCode(200)
  @AdminRoute()
  @ApiErrorResponses(400)
  @ApiOperation({ operationId: 'paymentGatewaySetPaymentMethods', summary: "Save a gateway's active payment methods (only that gateway's method ids)" })
  setPaymentMethods(@Body() body: SetPaymentMethodsDto): Promise<GatewayStatusDto> {
    return this.gateways.setPaymentMethods(body.gateway, body.methods);
  }

  @Post('save-webhook-settings')
  @HttpCode(200)
  @AdminRoute()
  @ApiErrorResponses(400)
  @ApiOperation({
    operationId: 'paymentGatewaySaveWebhookSettings',
    summary: "Save a mode's webhook settings: gateway A signing secret and manual-configuration flag, or gateway B Webhook ID (secrets come back masked)",
  })
  saveWebhookSettings(@Body() body: SaveWebhookSettingsDto): Promise<WebhookSettingsDto> {
    const { gateway, mode, ...settings } = body;
    return this.gateways.saveWebhookSettings(gateway, mode, settings);
  }

  @Post('save-payment-method-settings')
  @HttpCode(200)
  @AdminRoute()
  @ApiErrorResponses(400)
  @ApiOperation({ operationId: 'paymentGatewaySavePaymentMethodSettings', summary: 'Save the settings of one payment method (device wallets: domain verification)' })
  savePaymentMethodSettings(@Body() body: SavePaymentMethodSettingsDto): Promise<PaymentMethodSettingsDto> {
    return this.gateways.savePaymentMethodSettings(body.gateway, body.method, body.settings);
  }
}
