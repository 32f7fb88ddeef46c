import { DomainError } from '../../common/errors/index.js';
import { IDEMPOTENCY_HEADER } from './idempotency-request.js';

/** Seconds a repeat is told to wait while the first request runs (it usually takes well under one). */
export const IN_PROGRESS_RETRY_AFTER_SECONDS = 1;

/** 409: the first request with this key is still running; the repeat may come back shortly. */
export class IdempotencyInProgressError extends DomainError {
  constructor() {
    super(
      'checkout_idempotency_in_progress',
      409,
      `A request with this ${IDEMPOTENCY_HEADER} is still being processed. Retry after the seconds of the Retry-After header.`,
      { retry_after: IN_PROGRESS_RETRY_AFTER_SECONDS },
      { 'Retry-After': String(IN_PROGRESS_RETRY_AFTER_SECONDS) },
    );
  }
}

/** 422: the key was used within 24 hours for another request body on this route (as the IETF idempotency draft answers). */
export class IdempotencyMismatchError extends DomainError {
  constructor() {
    super(
      'checkout_idempotency_mismatch',
      422,
      `This ${IDEMPOTENCY_HEADER} was already used with another request body; send a new key for a new request.`,
      { params: { [IDEMPOTENCY_HEADER]: `${IDEMPOTENCY_HEADER} was used with another request body within 24 hours` } },
    );
  }
}
