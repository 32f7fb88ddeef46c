export { IdempotencyModule } from './idempotency.module.js';
export {
  IDEMPOTENCY_LEASE_MS,
  IDEMPOTENCY_PURGE_BATCH,
  IDEMPOTENCY_RETENTION_MS,
  idempotentRequest,
  IdempotencyService,
  type IdempotencyCompletion,
  type IdempotencyResult,
  type IdempotentCall,
  type IdempotentOperation,
  type IdempotentRequest,
} from './idempotency.service.js';
export { IdempotencyGuard, isIdempotentRepeat } from './idempotency.guard.js';
export { Idempotency, IDEMPOTENT_REPLAYED_HEADER, Idempotent, IdempotentPerCaller } from './idempotent.decorator.js';
export { IDEMPOTENCY_HEADER, idempotencyKeyOf } from './idempotency-request.js';
export { IdempotencyInProgressError, IdempotencyMismatchError } from './idempotency.errors.js';
