import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { ApiBody, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { AdminRoute, Capability, type AuthenticatedUser, CurrentUser } from '../../common/auth/index.js';
import { InvalidParamsError } from '../../common/errors/index.js';
import { ApiErrorResponses } from '../../common/openapi/index.js';
import { GatewayRegistry } from '../gateways/index.js';
import { PaymentProcessRequestDto, PaymentResultDto } from './payment-process.dto.js';

/** Section B's virtual terminal: the payment-method token says which gateway charges it. */
@ApiTags('Payments')
@Controller('payment')
export class PaymentProcessController {
  constructor(private readonly registry: GatewayRegistry) {}

  @Post('process')
  @ApiBody({
    type: PaymentProcessRequestDto,
    examples: { charge: { summary: 'Charge 19.99 USD to a saved payment method', value: { amount: 19.99, currency: 'USD', payment_method: 'pm_card_visa', description: 'Order #1001' } } },
  })
  @HttpCode(200)
  @AdminRoute(Capability.manageSettings)
  @ApiOperation({
    operationId: 'paymentProcess',
    summary: 'Virtual terminal charge (admin)',
    description:
      '`payment_method` is a payment-method token of a gateway that takes admin charges: today gateway A (`pm_…`), ' +
      'charged in its current mode; any other token is refused (400 naming payment_method).',
  })
  @ApiOkResponse({ type: PaymentResultDto })
  @ApiErrorResponses(400, 409, 502)
  process(@Body() body: PaymentProcessRequestDto, @CurrentUser() user: AuthenticatedUser): Promise<PaymentResultDto> {
    const charges = this.registry.adminChargesFor(body.payment_method);
    if (!charges) {
      const takers = this.registry.all().filter((adapter) => adapter.adminCharges);
      throw new InvalidParamsError({
        payment_method: `payment_method must be ${takers.map((adapter) => adapter.adminCharges!.tokenDescription).join(' or ')}: the virtual terminal charges through ${takers.map((adapter) => adapter.label).join(' and ')} only`,
      });
    }
    return charges.charge({ amount: body.amount, currency: body.currency, paymentMethod: body.payment_method, description: body.description, userId: user.id, source: 'payment/process' });
  }
}
