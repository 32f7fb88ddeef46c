import { Body, Controller, Get, HttpCode, Post } from '@nestjs/common';
import { ApiBody, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { AdminRoute, Capability, type AuthenticatedUser, CurrentUser, PublicRoute } from '../../../common/auth/index.js';
import { AcknowledgementDto, ApiErrorResponses } from '../../../common/openapi/index.js';
import { PaymentResultDto } from '../../payments/index.js';
import { GatewayAConfigDto, GatewayAPaymentRequestDto } from './gateway-a-admin.dto.js';
import { GatewayAAdminService } from './gateway-a-admin.service.js';

/** Section B's gateway-A routes. */
@Controller('gateway-a')
export class GatewayAAdminController {
  constructor(private readonly admin: GatewayAAdminService) {}

  @Post('payment')
  @ApiBody({
    type: GatewayAPaymentRequestDto,
    examples: { charge: { summary: 'Charge 19.99 USD to a gateway A payment method', value: { amount: 19.99, currency: 'USD', source: 'pm_card_visa', description: 'Order #1001' } } },
  })
  @ApiTags('Payments')
  @HttpCode(200)
  @AdminRoute(Capability.manageSettings)
  @ApiOperation({
    operationId: 'gatewayAPayment',
    summary: 'Charge a gateway A payment method (admin)',
    description:
      'Creates a local record and a PaymentIntent confirmed with `source` (a `pm_…` id) in the current gateway A mode. ' +
      '`status` is `success` when the payment succeeded, else the gateway’s status; a decline is a result, not an error.',
  })
  @ApiOkResponse({ type: PaymentResultDto })
  @ApiErrorResponses(400, 409, 502)
  payment(@Body() body: GatewayAPaymentRequestDto, @CurrentUser() user: AuthenticatedUser): Promise<PaymentResultDto> {
    return this.admin.charge({ amount: body.amount, currency: body.currency, paymentMethod: body.source, description: body.description, userId: user.id, source: 'gateway-a/payment' });
  }

  @Get('config')
  @ApiTags('Gateways')
  @AdminRoute(Capability.manageSettings)
  @ApiOperation({ operationId: 'gatewayAConfig', description: 'What a checkout page needs to load gateway A in the current mode: the publishable key and the webhook URL. Never a secret.', summary: 'The current mode’s publishable key and webhook URL (never a secret)' })
  @ApiOkResponse({ type: GatewayAConfigDto })
  config(): Promise<GatewayAConfigDto> {
    return this.admin.configuration();
  }

  @Get('webhook')
  @ApiTags('Webhooks')
  @PublicRoute()
  @ApiOperation({ operationId: 'gatewayAWebhookAck', description: 'Answers gateway A\'s reachability checks of the webhook URL. Has no side effect and needs no login.', summary: 'Acknowledgement for gateway A webhook checks; no side effect' })
  @ApiOkResponse({ type: AcknowledgementDto })
  // Like every route: a query naming `__proto__`, `constructor` or `prototype` (common/http body parsers).
  @ApiErrorResponses(400)
  webhook(): AcknowledgementDto {
    return this.admin.webhookAcknowledgement();
  }
}
