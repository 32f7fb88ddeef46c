export { OutboxModule } from './outbox.module.js';
export { Outbox } from './outbox.service.js';
export { OUTBOX_SHUTDOWN_WAIT_MS, OutboxWorker } from './outbox.worker.js';
export { type OutboxDelivery, type OutboxFailure, type OutboxHandler, PermanentOutboxError, retryDelayMs } from './outbox-handler.js';
export type { FailedOutboxTopic, OutboxBacklog } from './outbox.repository.js';
export type { OutboxStatus } from './outbox-item.entity.js';
