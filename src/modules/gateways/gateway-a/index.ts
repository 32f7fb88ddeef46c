export {
  DEFAULT_MAX_NETWORK_RETRIES,
  GatewayAClientFactory,
  GatewayNotConnectedError,
  type GatewayAAccount,
  type GatewayARoute,
  type StripeClient,
} from './gateway-a-client.factory.js';
export { GatewayAContractService, type ContractStatus, type WebhookContractView } from './gateway-a-contract.service.js';
export { CheckoutPausedError, describeGatewayFailure, gatewayStatusOf, toGatewayError } from './gateway-a-errors.js';
export { FREE_PLAN_FEE_PERCENT, freePlanFeeAmount, gatewayAFees, type GatewayAFees } from './fee-policy.js';
export { SIGNATURE_TOLERANCE_SECONDS, verifyGatewayASignature, type SignatureCheck, type SignatureFailure } from './webhook-signature.js';
export {
  GATEWAY_A_WEBHOOK_EVENTS,
  gatewayAWebhookUrl,
  isContractEvent,
  isContractEventSet,
  type GatewayAWebhookEvent,
  type GatewayAWebhookRecord,
} from './webhook-contract.js';
export { GatewayAWebhookUpgradeTask, type UpgradeModeOutcome, type UpgradeStatus, type WebhookUpgradeProgress } from './webhook-upgrade.task.js';
export * from './cache/index.js';
