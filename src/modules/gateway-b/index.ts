export { GatewayBModule } from './gateway-b.module.js';
// For tests and operational tools only: inside src, nothing but the application module imports this slice.
export { GATEWAY_B_CREDENTIALS, gatewayBOption, type GatewayBCredential } from './gateway-b-options.js';
