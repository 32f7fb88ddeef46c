export { OutgoingWebhooksModule } from './outgoing-webhooks.module.js';
export { OutgoingWebhooksService, OUTGOING_WEBHOOK_TOPIC } from './outgoing-webhooks.service.js';
export { OutgoingWebhookDeliveries, DELIVERY_WINDOW_MS } from './delivery.handler.js';
export { OUTGOING_EVENT_TYPES } from './event-types.js';
export { isPublicAddress, resolveAllowed } from './address-policy.js';
export { SIGNATURE_HEADER, signatureHeader } from './event-signature.js';
