export { AccessTokenCache, ASSUMED_TOKEN_LIFETIME_SECONDS, type GatewayBClock, type GatewayBTokenInfo } from './access-token-cache.js';
export {
  DEFAULT_TIMEOUT_MS,
  DISPUTES_PAGE_SIZE,
  GatewayBClient,
  type GatewayBClientConfig,
  type GatewayBClientOptions,
  type GatewayBCreateOrderInput,
  type GatewayBWebhookInput,
  type GatewayBWebhookVerification,
  isGatewayBOrderId,
} from './gateway-b-client.js';
export {
  GatewayBCredentialsError,
  GatewayBError,
  type GatewayBIssue,
  GatewayBMalformedResponseError,
  type GatewayBOperation,
  GatewayBRefusedError,
  GatewayBUnreachableError,
} from './gateway-b-errors.js';
export { fromGatewayBAmount, GATEWAY_B_CURRENCIES, GATEWAY_B_WHOLE_UNIT_CURRENCIES, isGatewayBCurrency, toGatewayBAmount } from './gateway-b-money.js';
export {
  approvalUrl,
  firstCapture,
  type GatewayBCapture,
  type GatewayBCaptureStatus,
  type GatewayBDispute,
  type GatewayBDisputePage,
  type GatewayBLink,
  type GatewayBMoney,
  type GatewayBOrder,
  type GatewayBOrderStatus,
  type GatewayBPurchaseUnit,
  type GatewayBWebhookEvent,
  type GatewayBWebhookListener,
  parseCaptureResource,
} from './gateway-b-wire.js';
export { GATEWAY_B_TRANSMISSION_HEADERS, isGatewayBWebhookId, type TransmissionHeaderName } from './webhook-postback.js';
