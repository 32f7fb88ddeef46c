export { WebhooksModule } from './webhooks.module.js';
export {
  listOutcomeOf,
  WEBHOOK_EVENT_OUTCOMES,
  WebhookEventRepository,
  type IncomingWebhookEvent,
  type RecordOutcome,
  type WebhookEventFilter,
  type WebhookEventListOutcome,
} from './webhook-event.repository.js';
export { WEBHOOK_EVENT_TYPE_MAX_LENGTH, type WebhookEventEntity, type WebhookEventStatus } from './webhook-event.entity.js';
export { WebhookIntakeService, type EffectResult, type EffectStatus, type ParsedWebhookEvent, type WebhookEventSource } from './webhook-intake.service.js';
export { WebhookVerifiers, type WebhookDelivery, type WebhookVerdict, type WebhookVerifier } from './webhook-verifiers.js';
export { SignedWebhookGuard, webhookVerdictOf } from './signed-webhook.guard.js';
export { WebhookModePipe } from './webhook-mode.pipe.js';
export { InvalidEventError, InvalidSignatureError } from './webhook.errors.js';
export { WEBHOOK_OUTCOMES, WebhookReceiptDto, type WebhookOutcome } from './webhook-receipt.dto.js';
