export { GatewayBModule } from './gateway-b.module.js';
// For tests and operational tools only: inside src, nothing but the application module imports this slice.
export { GATEWAY_B_API_CREDENTIALS, GATEWAY_B_CREDENTIALS, gatewayBOption, type GatewayBCredential } from './gateway-b-options.js';
export { GatewayBClientFactory } from './client/gateway-b-client.factory.js';
export { GatewayBScope } from './client/gateway-b-scope.js';
export { gatewayBWebhookUrl } from './credentials/gateway-b-credentials.service.js';
export { GATEWAY_B_AFTERMATH_LIMITS } from './aftermath/gateway-b-aftermath.reader.js';
export { connectGatewayB } from './credentials/gateway-b-cli-connect.js';
export { type GatewayBConfig, readGatewayBConfig } from './gateway-b.config.js';
