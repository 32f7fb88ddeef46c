import { randomBytes } from 'node:crypto';

/** One entry of `details[]` in PayPal's error body. */
export interface PayPalIssue {
  issue: string;
  description?: string;
  field?: string;
  value?: string;
  location?: 'body' | 'path' | 'query' | 'header';
}

/**
 * PayPal's REST error body: `{ name, message, debug_id, details[], links[] }` with an HTTP status.
 * The OAuth token endpoint (and a bad token on the v1 APIs) answers the OAuth shape instead:
 * `{ error, error_description }`; `oauth` carries that body when set.
 */
export class FakePayPalError extends Error {
  readonly debugId = fakeDebugId();

  constructor(
    readonly status: number,
    readonly errorName: string,
    message: string,
    readonly details: PayPalIssue[] = [],
    readonly oauth?: { error: string; error_description: string },
  ) {
    super(message);
  }

  /** The body as PayPal writes it. */
  body(): Record<string, unknown> {
    if (this.oauth) return { ...this.oauth };
    const issue = this.details[0]?.issue;
    return {
      name: this.errorName,
      message: this.message,
      debug_id: this.debugId,
      ...(this.details.length ? { details: this.details } : {}),
      links: [
        {
          href: `https://developer.paypal.com/docs/api/orders/v2/#error-${issue ?? this.errorName}`,
          rel: 'information_link',
          method: 'GET',
        },
      ],
    };
  }
}

/** PayPal debug ids are 13 lower-case hex characters (`f2a4c9b1e0d3a`). */
export function fakeDebugId(): string {
  return randomBytes(7).toString('hex').slice(0, 13);
}

/** 400 INVALID_REQUEST: the request violates the schema (Orders v2). */
export function invalidRequest(...details: PayPalIssue[]): FakePayPalError {
  return new FakePayPalError(400, 'INVALID_REQUEST', 'Request is not well-formed, syntactically incorrect, or violates schema.', details);
}

/** 422 UNPROCESSABLE_ENTITY: well-formed but refused by business rules (Orders v2). */
export function unprocessable(...details: PayPalIssue[]): FakePayPalError {
  return new FakePayPalError(422, 'UNPROCESSABLE_ENTITY', 'The requested action could not be performed, semantically incorrect, or failed business validation.', details);
}

/** 400 VALIDATION_ERROR: the v1 notifications API's schema refusal. */
export function validationError(field: string, issue: string): FakePayPalError {
  return new FakePayPalError(400, 'VALIDATION_ERROR', 'Invalid request - see details', [{ field, location: 'body', issue }]);
}

export function orderNotFound(orderId: string): FakePayPalError {
  return new FakePayPalError(404, 'RESOURCE_NOT_FOUND', 'The specified resource does not exist.', [
    {
      field: 'order_id',
      value: orderId,
      location: 'path',
      issue: 'INVALID_RESOURCE_ID',
      description: 'Specified resource ID does not exist. Please check the resource ID and try again.',
    },
  ]);
}

export function missingField(field: string): PayPalIssue {
  return { field, location: 'body', issue: 'MISSING_REQUIRED_PARAMETER', description: 'A required parameter is missing.' };
}

export function invalidValue(field: string, value: unknown, description = 'A parameter value is not valid.'): PayPalIssue {
  return { field, value: typeof value === 'string' ? value : JSON.stringify(value), location: 'body', issue: 'INVALID_PARAMETER_VALUE', description };
}

export function invalidSyntax(field: string, value: unknown): PayPalIssue {
  return {
    field,
    value: typeof value === 'string' ? value : JSON.stringify(value),
    location: 'body',
    issue: 'INVALID_PARAMETER_SYNTAX',
    description: 'The value of a field does not conform to the expected format.',
  };
}

export function invalidLength(field: string, value: string): PayPalIssue {
  return { field, value, location: 'body', issue: 'INVALID_STRING_LENGTH', description: 'The value of a field is either too short or too long' };
}

/**
 * The same `PayPal-Request-Id` while the first request is still being handled: 409
 * RESOURCE_CONFLICT with PREVIOUS_REQUEST_IN_PROGRESS, as the Payments v2 reference documents it
 * (Orders v2 documents no code for it; its `default` answer admits this 409 body).
 */
export function previousRequestInProgress(): FakePayPalError {
  return new FakePayPalError(409, 'RESOURCE_CONFLICT', 'The server has detected a conflict while processing this request.', [
    {
      issue: 'PREVIOUS_REQUEST_IN_PROGRESS',
      description:
        'A previous request on this resource is currently in progress. Please wait for sometime and try again. It is best to space out the initial and the subsequent request(s) to avoid receiving this error.',
    },
  ]);
}

/**
 * The answer of an API route given a missing, unknown or expired bearer token: PayPal's error
 * body with the 401 name and message of Orders v2 (`error_401`), which is also the `error`
 * shape the Webhooks v1 reference gives every failure.
 */
export function authenticationFailure(): FakePayPalError {
  return new FakePayPalError(401, 'AUTHENTICATION_FAILURE', 'Authentication failed due to missing authorization header, or invalid authentication credentials.');
}

/** Bodies of the injected statuses, as PayPal words them. */
export function injectedFailure(status: number): FakePayPalError {
  switch (status) {
    case 429:
      return new FakePayPalError(429, 'RATE_LIMIT_REACHED', 'Too many requests. Blocked due to rate limiting.');
    case 503:
      return new FakePayPalError(503, 'SERVICE_UNAVAILABLE', 'Service Unavailable.');
    case 500:
      return new FakePayPalError(500, 'INTERNAL_SERVER_ERROR', 'An internal server error occurred.');
    default:
      return new FakePayPalError(status, status >= 500 ? 'INTERNAL_SERVER_ERROR' : 'INVALID_REQUEST', 'Injected failure.');
  }
}
