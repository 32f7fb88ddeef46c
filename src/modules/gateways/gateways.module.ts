import { Module } from '@nestjs/common';
import { SettingsModule } from '../settings/index.js';
import { GatewayCatalogService } from './gateway-catalog.service.js';
import { GatewayListController } from './gateway-list.controller.js';
import { GatewayListService } from './gateway-list.service.js';
import { GatewayRegistry } from './gateway-registry.service.js';
import { GatewayStateService } from './gateway-state.service.js';
import { PaymentGatewayController } from './payment-gateway.controller.js';
import { PaymentGatewayService } from './payment-gateway.service.js';

/**
 * The gateway-neutral core: the gateway catalog, the adapter registry that the gateway slices
 * register with, each gateway's mode and active methods, the admin `/payment-gateway/*` routes
 * and section B's `/gateway/*`, which reach a gateway only through its adapter.
 */
@Module({
  imports: [SettingsModule],
  controllers: [PaymentGatewayController, GatewayListController],
  providers: [GatewayRegistry, GatewayStateService, PaymentGatewayService, GatewayListService, GatewayCatalogService],
  exports: [GatewayRegistry, GatewayStateService],
})
export class GatewaysModule {}
