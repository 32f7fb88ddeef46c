import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { ApiBody, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { PaymentReferenceRoute } from '../../../common/auth/index.js';
import { ApiErrorResponses } from '../../../common/openapi/index.js';
import { Idempotency, Idempotent, type IdempotentCall, idempotentRequest } from '../../idempotency/index.js';
import { ForGateway, OpensCheckout, PAYMENT_REFERENCE_EXAMPLE, type PaymentRecord, VerifiedPayment } from '../../payments/index.js';
import { ApiGatewayUnavailableResponse } from '../client/gateway-b-openapi.js';
import { GatewayBCaptureRequestDto, GatewayBCaptureResponseDto, GatewayBOrderRequestDto, GatewayBOrderResponseDto } from './gateway-b-checkout.dto.js';
import { GatewayBCaptureService } from './gateway-b-capture.service.js';
import { GatewayBOrdersService } from './gateway-b-orders.service.js';

/** The payer's browser: gateway B's standard checkout (the wallet button's createOrder and onApprove). */
@ApiTags('Checkout')
@Controller('gateway-b')
export class GatewayBCheckoutController {
  constructor(
    private readonly orders: GatewayBOrdersService,
    private readonly captures: GatewayBCaptureService,
  ) {}

  @Post('order')
  @ApiBody({
    type: GatewayBOrderRequestDto,
    examples: {
      order: {
        summary: 'Create the order of a payment (reference values from payment/sync-details)',
        value: { ...PAYMENT_REFERENCE_EXAMPLE, payment_gateway: 'gateway_b', payment_method: 'standard_checkout' },
      },
    },
  })
  @HttpCode(200)
  @PaymentReferenceRoute()
  @ForGateway('gateway_b')
  @OpensCheckout()
  @Idempotent('gateway-b/order')
  @ApiOperation({
    operationId: 'gatewayBCreateOrder',
    summary: 'Create (or hand out again) the gateway B order of a payment',
    description:
      'One standard one-time order per payment: intent CAPTURE, the record’s amount in the currency’s decimal form, `custom_id` = the payment id. ' +
      'An order the payment holds that the payer can still approve (or approved) and that matches the record is answered again. ' +
      'Refused before any provider call: a recurring price (400), no valid payer email (400), a currency or amount the gateway does not take (400), ' +
      'a payment that is not pending (409). Provider refused or answered nonsense: 502 `checkout_gateway_error`; no answer in time: 503 ' +
      '`checkout_gateway_unavailable`; the record is unchanged then. ' +
      'With `Idempotency-Key`, a repeat within 24 hours answers the order the first request created, read back from the gateway (no second create).',
  })
  @ApiOkResponse({ type: GatewayBOrderResponseDto })
  @ApiErrorResponses(400, 409, 502)
  @ApiGatewayUnavailableResponse()
  createOrder(
    @Body() body: GatewayBOrderRequestDto,
    @VerifiedPayment() payment: PaymentRecord,
    @Idempotency() idempotency: IdempotentCall | null,
  ): Promise<GatewayBOrderResponseDto> {
    return this.orders.createOrder(payment, idempotentRequest(idempotency, body));
  }

  @Post('order/capture')
  @ApiBody({
    type: GatewayBCaptureRequestDto,
    examples: {
      capture: {
        summary: 'Capture the order the payer approved (reference values from payment/sync-details)',
        value: { ...PAYMENT_REFERENCE_EXAMPLE, payment_gateway: 'gateway_b', payment_method: 'standard_checkout', order_id: '5O190127TN364715T' },
      },
    },
  })
  @HttpCode(200)
  @PaymentReferenceRoute()
  @ForGateway('gateway_b')
  @ApiOperation({
    operationId: 'gatewayBCaptureOrder',
    summary: 'Capture the approved order and check it against the payment',
    description:
      '`order_id` must be the order the payment holds (409 `checkout_contract_mismatch`, no provider call). The captured order must carry one capture ' +
      'in the record’s amount and currency with `custom_id` = payment id, else 409 `checkout_contract_mismatch` and the payment is not completed. ' +
      'Capture COMPLETED → `completed`; PENDING → `processing` (the provider’s capture-completed webhook completes it); DECLINED → `failed`. ' +
      'Not approved yet: 409 `checkout_invalid_state`. Idempotent: a repeat answers the same outcome.',
  })
  @ApiOkResponse({ type: GatewayBCaptureResponseDto })
  @ApiErrorResponses(400, 409, 502)
  @ApiGatewayUnavailableResponse()
  capture(@Body() body: GatewayBCaptureRequestDto, @VerifiedPayment() payment: PaymentRecord): Promise<GatewayBCaptureResponseDto> {
    return this.captures.capture(payment, body.order_id);
  }
}
