export { GatewaysModule } from './gateways.module.js';
export * from './gateway-catalog.js';
export * from './payment-gateway.port.js';
export { GatewayRegistry } from './gateway-registry.service.js';
export { gatewayOption, GatewayStateService } from './gateway-state.service.js';
export { PaymentGatewayService, type DeviceWalletSettings } from './payment-gateway.service.js';
