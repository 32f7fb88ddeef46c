import { Module } from '@nestjs/common';
import { FormsModule } from '../forms/index.js';
import { GatewaysModule } from '../gateways/index.js';
import { PaymentsModule } from '../payments/index.js';
import { GatewayACatalogService } from './gateway-a-catalog.service.js';
import { GatewayASubscriptionsService } from './gateway-a-subscriptions.service.js';

/** Public gateway-A checkout (intents, checkout) and the section B gateway-A routes. */
@Module({
  imports: [FormsModule, GatewaysModule, PaymentsModule],
  providers: [GatewayACatalogService, GatewayASubscriptionsService],
  exports: [GatewayASubscriptionsService],
})
export class CheckoutModule {}
