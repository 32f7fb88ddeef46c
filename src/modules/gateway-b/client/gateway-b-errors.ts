/** The client's operations, as named in errors and logs. */
export type GatewayBOperation =
  | 'token'
  | 'create_order'
  | 'get_order'
  | 'capture_order'
  | 'refund_capture'
  | 'list_disputes'
  | 'get_dispute'
  | 'verify_webhook_signature'
  | 'get_webhook';

/** Operations that change something at PayPal (the others may be repeated freely). */
const CHANGES_STATE: Readonly<Record<GatewayBOperation, boolean>> = {
  token: false,
  create_order: true,
  get_order: false,
  capture_order: true,
  refund_capture: true,
  list_disputes: false,
  get_dispute: false,
  verify_webhook_signature: false,
  get_webhook: false,
};

/** One entry of PayPal's `details[]`, reduced to codes (no provider prose, no echoed values). */
export interface GatewayBIssue {
  /** e.g. `ORDER_NOT_APPROVED`, `DECIMAL_PRECISION` */
  issue: string;
  /** JSON pointer or name of the field, e.g. `/purchase_units/0/amount/value` */
  field?: string;
  location?: string;
}

/**
 * Every failure of a gateway-B call. Three kinds, so that callers can map them to the service's
 * errors (docs/decisions.md §2) without echoing provider text:
 *
 * - `GatewayBRefusedError`: PayPal answered with an error status (`status`, PayPal's `name` or
 *   OAuth `error`, issue codes, `debug_id`). `GatewayBCredentialsError` is the 401 case.
 * - `GatewayBUnreachableError`: no answer (connection failed, dropped, or timed out).
 * - `GatewayBMalformedResponseError`: an answer that is not what the API promises.
 *
 * Messages are written here from codes only; they never contain the client secret, the access
 * token, PayPal's `message`/`description` texts or values echoed from the request.
 */
export abstract class GatewayBError extends Error {
  abstract readonly kind: 'refused' | 'unreachable' | 'malformed';

  /**
   * True when the call (create or capture) may have taken effect at PayPal although no success
   * was seen: no answer, a 5xx, or an unreadable success. Re-read the order, or repeat the call
   * with the same `PayPal-Request-Id`, before concluding anything.
   */
  readonly outcomeUnknown: boolean;

  protected constructor(
    readonly operation: GatewayBOperation,
    readonly method: 'GET' | 'POST',
    mayHaveHappened: boolean,
    message: string,
  ) {
    super(message);
    this.name = new.target.name;
    this.outcomeUnknown = CHANGES_STATE[operation] && mayHaveHappened;
  }
}

export class GatewayBRefusedError extends GatewayBError {
  readonly kind = 'refused' as const;

  constructor(
    operation: GatewayBOperation,
    method: 'GET' | 'POST',
    readonly status: number,
    /** PayPal's `name` (`UNPROCESSABLE_ENTITY`) or OAuth `error` (`invalid_client`), when it is a code. */
    readonly errorName: string | undefined,
    readonly issues: readonly GatewayBIssue[],
    readonly debugId: string | undefined,
  ) {
    const codes = issues.length ? ` [${issues.map((i) => i.issue).join(', ')}]` : '';
    super(
      operation,
      method,
      status >= 500,
      `Gateway B refused ${operation}: HTTP ${status}${errorName ? ` ${errorName}` : ''}${codes}${debugId ? ` (debug_id ${debugId})` : ''}`,
    );
  }

  hasIssue(code: string): boolean {
    return this.issues.some((issue) => issue.issue === code);
  }

  /** 429 or 5xx: PayPal could not do it now; the same call may work later. */
  get temporary(): boolean {
    return this.status === 429 || this.status >= 500;
  }
}

/** The client id / secret were refused (token request 401), or a fresh token was refused again. */
export class GatewayBCredentialsError extends GatewayBRefusedError {}

export class GatewayBUnreachableError extends GatewayBError {
  readonly kind = 'unreachable' as const;

  constructor(
    operation: GatewayBOperation,
    method: 'GET' | 'POST',
    /** `timeout`: no answer within `timeoutMs`; `network`: connection refused, reset or dropped. */
    readonly reason: 'timeout' | 'network',
  ) {
    super(operation, method, true, `Gateway B ${reason === 'timeout' ? 'did not answer in time' : 'could not be reached'} (${operation})`);
  }
}

export class GatewayBMalformedResponseError extends GatewayBError {
  readonly kind = 'malformed' as const;

  constructor(
    operation: GatewayBOperation,
    method: 'GET' | 'POST',
    readonly status: number,
    /** What was wrong, in our words (e.g. `order.id is missing`). */
    readonly problem: string,
  ) {
    super(operation, method, status >= 200 && status < 300, `Gateway B answered ${operation} with an unexpected body (HTTP ${status}: ${problem})`);
  }
}

// --- reading PayPal's error bodies ---------------------------------------------------------------

const CODE = /^[A-Za-z0-9_.-]{1,100}$/;
const DEBUG_ID = /^[A-Za-z0-9-]{1,64}$/;
const FIELD = /^[A-Za-z0-9_./[\]-]{1,200}$/;

/**
 * The codes of an error body: `{name, debug_id, details[]}` (REST) or `{error}` (OAuth). Anything
 * that does not look like a code is dropped, so nothing the provider wrote as prose, and no
 * value it echoed back, reaches a message or a log.
 */
export function readErrorBody(body: unknown): { errorName?: string; issues: GatewayBIssue[]; debugId?: string } {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return { issues: [] };
  const record = body as Record<string, unknown>;
  const code = (value: unknown) => (typeof value === 'string' && CODE.test(value) ? value : undefined);
  const issues: GatewayBIssue[] = [];
  if (Array.isArray(record.details)) {
    for (const detail of record.details.slice(0, 20)) {
      if (typeof detail !== 'object' || detail === null) continue;
      const { issue, field, location } = detail as Record<string, unknown>;
      const issueCode = code(issue);
      if (!issueCode) continue;
      issues.push({
        issue: issueCode,
        ...(typeof field === 'string' && FIELD.test(field) ? { field } : {}),
        ...(code(location) ? { location: location as string } : {}),
      });
    }
  }
  const debugId = typeof record.debug_id === 'string' && DEBUG_ID.test(record.debug_id) ? record.debug_id : undefined;
  return { errorName: code(record.name) ?? code(record.error), issues, debugId };
}
