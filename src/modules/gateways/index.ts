export { GatewaysModule } from './gateways.module.js';
export { GATEWAY_MODES, gatewayOption, GatewayStateService, type GatewayMode } from './gateway-state.service.js';
export { Clock } from './clock.js';
export { PaymentGatewayService, type DeviceWalletSettings } from './payment-gateway.service.js';
export { TaskLeaseRepository } from './tasks/task-lease.repository.js';
export { WebhookEventRepository, type IncomingWebhookEvent, type RecordOutcome } from './webhook-events/webhook-event.repository.js';
export { WebhookEventEntity, type WebhookEventStatus } from './webhook-events/webhook-event.entity.js';
export * from './gateway-a/index.js';
