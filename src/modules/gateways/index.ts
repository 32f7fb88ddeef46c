export { GatewaysModule } from './gateways.module.js';
export { GATEWAY_MODES, gatewayOption, GatewayStateService, type GatewayMode } from './gateway-state.service.js';
