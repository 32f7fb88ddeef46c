import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { PaymentReferenceRoute } from '../../../src/common/auth/index.js';
import { ApiErrorResponses } from '../../../src/common/openapi/index.js';
import { ForGateway, OpensCheckout, type PaymentRecord, VerifiedPayment } from '../../../src/modules/payments/index.js';
import { GATEWAY_X } from '../gateway-x.slice.js';
import { GatewayXChargeRequestDto, GatewayXChargeResponseDto } from './gateway-x-checkout.dto.js';
import { GatewayXChargesService } from './gateway-x-charges.service.js';

/** The payer's browser: gateway X's card charge (the slice's driver `x_test_card` calls it). */
@ApiTags('Checkout')
@Controller('gateway-x')
export class GatewayXCheckoutController {
  constructor(private readonly charges: GatewayXChargesService) {}

  @Post('charge')
  @HttpCode(200)
  @PaymentReferenceRoute()
  @ForGateway(GATEWAY_X)
  @OpensCheckout()
  @ApiOperation({ operationId: 'gatewayXCharge', summary: 'Charge the card token of a payment (test-only gateway X)' })
  @ApiOkResponse({ type: GatewayXChargeResponseDto })
  @ApiErrorResponses(400, 409, 502)
  charge(@Body() body: GatewayXChargeRequestDto, @VerifiedPayment() payment: PaymentRecord): Promise<GatewayXChargeResponseDto> {
    return this.charges.charge(payment, body.token);
  }
}
