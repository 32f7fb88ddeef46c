import { Module } from '@nestjs/common';
import { SettingsModule } from '../settings/index.js';
import { GatewayRegistry } from './gateway-registry.service.js';
import { GatewayStateService } from './gateway-state.service.js';
import { PaymentGatewayController } from './payment-gateway.controller.js';
import { PaymentGatewayService } from './payment-gateway.service.js';

/**
 * The gateway-neutral core: the gateway catalog, the adapter registry that the gateway slices
 * register with, each gateway's mode and active methods, and the admin `/payment-gateway/*`
 * routes, which reach a gateway only through its adapter.
 */
@Module({
  imports: [SettingsModule],
  controllers: [PaymentGatewayController],
  providers: [GatewayRegistry, GatewayStateService, PaymentGatewayService],
  exports: [GatewayRegistry, GatewayStateService],
})
export class GatewaysModule {}
