export { WebhooksModule } from './webhooks.module.js';
export { WEBHOOK_EVENT_OUTCOMES, type WebhookEventFilter, type WebhookEventListOutcome } from './webhook-event.repository.js';
export { WebhookEventQueries, type WebhookEventPage, type WebhookEventView } from './webhook-event-queries.service.js';
export { WEBHOOK_EVENT_TYPE_MAX_LENGTH } from './webhook-event.entity.js';
export { WebhookIntakeService, type ParsedWebhookEvent, type WebhookEventSource } from './webhook-intake.service.js';
export {
  nothingToDo,
  outsideContract,
  type Dismissal,
  type EffectResult,
  type EffectStatus,
  type NothingToDo,
  type PaymentLookup,
  type PaymentSubject,
  type Rejection,
  type Verdict,
  type WebhookAction,
  type WebhookActionKind,
} from './actions/webhook-action.js';
export { isStorableAmount, WebhookActionApplier, type ActionEvent } from './actions/webhook-action-applier.js';
export { WebhookVerifiers, type WebhookDelivery, type WebhookVerdict, type WebhookVerifier } from './webhook-verifiers.js';
export { SignedWebhookGuard, webhookVerdictOf } from './signed-webhook.guard.js';
export { WebhookModePipe } from './webhook-mode.pipe.js';
export { InvalidEventError, InvalidSignatureError, RecordNotReadyError } from './webhook.errors.js';
export { WEBHOOK_OUTCOMES, WebhookReceiptDto, type WebhookOutcome } from './webhook-receipt.dto.js';
