export { WebhooksModule } from './webhooks.module.js';
export { GatewayAWebhookService, InvalidEventError, InvalidSignatureError } from './gateway-a-webhook.service.js';
export { SubscriptionStateRepository } from './subscription-state.repository.js';
