/**
 * A refusal the client should see: a stable machine code, an HTTP status and a human message.
 * Serialised by WpErrorFilter as the host platform's WP_Error JSON.
 */
export class DomainError extends Error {
  constructor(
    readonly code: string,
    readonly status: number,
    message: string,
    readonly data: Record<string, unknown> = {},
    /** Extra response headers, e.g. Retry-After. */
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'DomainError';
  }
}

export class InvalidParamsError extends DomainError {
  constructor(params: Record<string, string>, code = 'rest_invalid_param') {
    super(code, 400, `Invalid parameter(s): ${Object.keys(params).join(', ')}`, { params });
  }
}

export class NotFoundError extends DomainError {
  constructor(what: string) {
    super('checkout_not_found', 404, `${what} not found.`);
  }
}

export class ConflictError extends DomainError {
  constructor(code: string, message: string) {
    super(code, 409, message);
  }
}

/**
 * No valid credentials. Deliberately without a `WWW-Authenticate: Basic` challenge (as the host
 * platform answers): a challenge makes browsers prompt and then cache the admin's credentials,
 * which they would attach to requests other sites' pages start.
 */
export class NotLoggedInError extends DomainError {
  constructor() {
    super('rest_not_logged_in', 401, 'You are not currently logged in.');
  }
}

export class ForbiddenError extends DomainError {
  constructor(message = 'Sorry, you are not allowed to do that.') {
    super('rest_forbidden', 403, message);
  }
}

export class RateLimitedError extends DomainError {
  constructor(retryAfterSeconds: number) {
    const seconds = Math.max(1, Math.ceil(retryAfterSeconds));
    super('checkout_rate_limited', 429, 'Too many requests. Please try again later.', { retry_after: seconds }, {
      'Retry-After': String(seconds),
    });
  }
}

export class GatewayError extends DomainError {
  constructor(message = 'The payment provider could not complete the request.') {
    super('checkout_gateway_error', 502, message);
  }
}

/**
 * 503 `checkout_gateway_unavailable`: the payment provider did not answer in time or could not be
 * reached. Nothing is known to have happened there; the caller may try again shortly (a webhook
 * delivery answered this way is retried by its provider).
 */
export class GatewayUnavailableError extends DomainError {
  constructor(retryAfterSeconds = 30) {
    super('checkout_gateway_unavailable', 503, 'The payment provider is not answering right now. Please try again shortly.', { retry_after: retryAfterSeconds }, {
      'Retry-After': String(retryAfterSeconds),
    });
  }
}

export class UnavailableError extends DomainError {
  constructor(message = 'The service is temporarily unavailable.', retryAfterSeconds?: number, data: Record<string, unknown> = {}) {
    const retry = retryAfterSeconds === undefined ? undefined : Math.max(1, Math.ceil(retryAfterSeconds));
    super('checkout_unavailable', 503, message, retry === undefined ? data : { ...data, retry_after: retry }, retry === undefined ? {} : { 'Retry-After': String(retry) });
  }
}
