import { DomainError } from '../../common/errors/index.js';

/** 400 `checkout_invalid_signature` (docs/decisions.md §2): the delivery's signature is missing, stale or wrong. */
export class InvalidSignatureError extends DomainError {
  constructor() {
    super('checkout_invalid_signature', 400, 'The webhook signature is missing, stale or invalid.');
  }
}

/** 400: the (authentic) body is not an event this route can read. */
export class InvalidEventError extends DomainError {
  constructor(code: string, message: string) {
    super(code, 400, message);
  }
}
