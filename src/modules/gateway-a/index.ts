export { GatewayAModule } from './gateway-a.module.js';
// For tests and operational tools only: inside src, nothing but the application module imports this slice.
export { GatewayAClientFactory, type GatewayAAccount, type StripeClient } from './client/gateway-a-client.factory.js';
export { CheckoutPausedError } from './client/gateway-a-errors.js';
export { freePlanFeeAmount } from './client/fee-policy.js';
export { INSTALLATION_METADATA_KEY, InstallationScope } from './client/installation-scope.js';
export { GATEWAY_A_CREDENTIALS, gatewayAOption, type GatewayACredential } from './gateway-a-options.js';
export { GatewayAContractService } from './webhook/gateway-a-contract.service.js';
export { GATEWAY_A_WEBHOOK_EVENTS } from './webhook/webhook-contract.js';
export { GatewayAWebhookUpgradeTask, type WebhookUpgradeProgress } from './webhook/webhook-upgrade.task.js';
export { AFTERMATH_LIMITS, AFTERMATH_OVERLAP_S } from './aftermath/gateway-a-aftermath.reader.js';
export { connectGatewayA } from './connect/gateway-a-cli-connect.js';
export { type GatewayAConfig, readGatewayAConfig } from './gateway-a.config.js';
