import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { ApiBody, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { PaymentReferenceRoute } from '../../../common/auth/index.js';
import { ApiErrorResponses } from '../../../common/openapi/index.js';
import { Idempotency, Idempotent, type IdempotentCall, idempotentRequest } from '../../idempotency/index.js';
import { ForGateway, OpensCheckout, PAYMENT_REFERENCE_EXAMPLE, type PaymentRecord, VerifiedPayment } from '../../payments/index.js';
import {
  GatewayACheckoutRequestDto,
  GatewayACheckoutResponseDto,
  GatewayAIntentRequestDto,
  GatewayAIntentResponseDto,
} from './gateway-a-checkout.dto.js';
import { GatewayACheckoutService } from './gateway-a-checkout.service.js';
import { GatewayAIntentsService } from './gateway-a-intents.service.js';

/** The payer's browser: gateway-A intents and the checkout that finalises them. */
@ApiTags('Checkout')
@Controller('gateway-a')
export class GatewayACheckoutController {
  constructor(
    private readonly intents: GatewayAIntentsService,
    private readonly checkouts: GatewayACheckoutService,
  ) {}

  @Post('payment-intent-or-setup')
  @ApiBody({
    type: GatewayAIntentRequestDto,
    examples: { card: { summary: 'A card payment (reference values from payment/sync-details)', value: { ...PAYMENT_REFERENCE_EXAMPLE, save_payment_method: false } } },
  })
  @HttpCode(200)
  @PaymentReferenceRoute()
  @ForGateway('gateway_a')
  @OpensCheckout()
  @Idempotent('gateway-a/payment-intent-or-setup')
  @ApiOperation({
    operationId: 'gatewayACreateIntent',
    summary: 'Create (or hand out again) the payment intent or setup intent of a payment',
    description:
      'One-time price: a PaymentIntent for the record’s amount and currency (automatic capture; free plan: 2 % application fee; ' +
      '`save_payment_method` also saves the method for later). Recurring price: a SetupIntent with a customer. Needs a valid email on the record and a verified webhook contract ' +
      '(409 `checkout_paused`). Bank debit (`sepa`) is Pro only. Gateway failures: 502 `checkout_gateway_error`, record unchanged. ' +
      'With `Idempotency-Key`, a repeat within 24 hours answers the intent the first request created, read back from the gateway (no second create).',
  })
  @ApiOkResponse({ type: GatewayAIntentResponseDto })
  @ApiErrorResponses(400, 409, 502)
  createIntent(
    @Body() body: GatewayAIntentRequestDto,
    @VerifiedPayment() payment: PaymentRecord,
    @Idempotency() idempotency: IdempotentCall | null,
  ): Promise<GatewayAIntentResponseDto> {
    return this.intents.createIntent(payment, { savePaymentMethod: body.save_payment_method ?? false }, idempotentRequest(idempotency, body));
  }

  @Post('checkout')
  @ApiBody({
    type: GatewayACheckoutRequestDto,
    examples: { intent: { summary: 'Confirm the intent the payer completed (reference values from payment/sync-details)', value: { ...PAYMENT_REFERENCE_EXAMPLE, intent_id: 'pi_3QvP5n2eZvKYlo2C' } } },
  })
  @HttpCode(200)
  @PaymentReferenceRoute()
  @ForGateway('gateway_a')
  @ApiOperation({
    operationId: 'gatewayACheckout',
    summary: 'Finalise a payment after the browser confirmed its intent',
    description:
      'Reads the intent back from the gateway and checks amount, currency, metadata and customer against the record ' +
      '(409 `checkout_contract_mismatch`, record unchanged); creates the subscription of a recurring price; moves the record. Idempotent.',
  })
  @ApiOkResponse({ type: GatewayACheckoutResponseDto })
  @ApiErrorResponses(400, 409, 502)
  checkout(@Body() body: GatewayACheckoutRequestDto, @VerifiedPayment() payment: PaymentRecord): Promise<GatewayACheckoutResponseDto> {
    return this.checkouts.checkout(payment, { intentId: body.intent_id });
  }
}
