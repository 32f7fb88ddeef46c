import { Module } from '@nestjs/common';
import { FormsModule } from '../forms/index.js';
import { GatewaysModule } from '../gateways/index.js';
import { PaymentsModule } from '../payments/index.js';
import { SettingsModule } from '../settings/index.js';
import { GatewayAAdminController, PaymentProcessController } from './gateway-a-admin.controller.js';
import { GatewayAAdminService } from './gateway-a-admin.service.js';
import { GatewayACatalogService } from './gateway-a-catalog.service.js';
import { GatewayACheckoutController } from './gateway-a-checkout.controller.js';
import { GatewayACheckoutService } from './gateway-a-checkout.service.js';
import { GatewayAIntentsService } from './gateway-a-intents.service.js';
import { GatewayASubscriptionsService } from './gateway-a-subscriptions.service.js';

/** Public gateway-A checkout (intents, checkout) and the section B gateway-A routes. */
@Module({
  imports: [FormsModule, GatewaysModule, PaymentsModule, SettingsModule],
  controllers: [GatewayACheckoutController, GatewayAAdminController, PaymentProcessController],
  providers: [GatewayACatalogService, GatewayASubscriptionsService, GatewayAIntentsService, GatewayACheckoutService, GatewayAAdminService],
  exports: [GatewayASubscriptionsService],
})
export class CheckoutModule {}
