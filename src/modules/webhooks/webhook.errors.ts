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

/**
 * 503: the event is this installation's and names a record that does not hold the provider object
 * yet: the service created that object and is still recording it (a subscription's first events
 * can overtake the write). The provider's redelivery finds it recorded.
 */
export class RecordNotReadyError extends DomainError {
  constructor() {
    super('checkout_unavailable', 503, 'The payment this event is about is not ready for it yet; deliver it again later.');
  }
}
