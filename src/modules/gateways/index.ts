export { GatewaysModule } from './gateways.module.js';
export * from '../../common/gateway-catalog/index.js';
export * from './payment-gateway.port.js';
export { GatewayRegistry } from './gateway-registry.service.js';
export { gatewayOption, GatewayStateService } from './gateway-state.service.js';
export { PaymentGatewayService, type DeviceWalletSettings } from './payment-gateway.service.js';
export { GatewaySlice, type GatewaySliceDefinition } from './gateway-slice.js';
export { checkGatewaySliceConfig, gatewayConnectCommands } from './gateway-slice.js';
export { type ConnectIo, connectEnv, ConnectUsageError, connectValue, type GatewayConnectCommand, noteSiteMode, parseMode } from './gateway-connect-command.js';
