import { AccessTokenCache, type GatewayBClock, type GatewayBTokenInfo } from './access-token-cache.js';
import {
  GatewayBCredentialsError,
  GatewayBMalformedResponseError,
  type GatewayBOperation,
  GatewayBRefusedError,
  GatewayBUnreachableError,
  readErrorBody,
} from './gateway-b-errors.js';
import {
  type GatewayBDispute,
  type GatewayBDisputePage,
  type GatewayBMoney,
  type GatewayBOrder,
  type GatewayBTokenGrant,
  type GatewayBWebhookEvent,
  type GatewayBWebhookListener,
  DISPUTE_ID,
  MalformedAnswer,
  parseDispute,
  parseDisputePage,
  parseOrder,
  parseRefund,
  type GatewayBRefund,
  parseTokenGrant,
  parseVerificationStatus,
  parseWebhookListener,
} from './gateway-b-wire.js';
import { type IncomingHeaders, isGatewayBWebhookId, postbackBody, readEventBytes, readTransmissionHeaders, type TransmissionHeaderName } from './webhook-postback.js';

/** Where and as whom: one PayPal environment (a mode's base URL) and one REST app. */
export interface GatewayBClientConfig {
  /** e.g. `https://api-m.sandbox.paypal.com` (GATEWAY_B_API_BASE_TEST / _LIVE); a path prefix is kept. */
  baseUrl: string;
  clientId: string;
  clientSecret: string;
}

export interface GatewayBClientOptions {
  /** Limit of one HTTP attempt, answer body included. Default 15 s. */
  timeoutMs?: number;
  /** Time source of token expiry. Default: the system clock. */
  clock?: GatewayBClock;
  /** Pause before the one retry of a retryable failure. Default 250 ms. */
  retryDelayMs?: number;
  /** Times each operation, retries and token included (the service's metrics). Default: none. */
  timer?: <T>(operation: GatewayBOperation, call: () => Promise<T>) => Promise<T>;
}

export interface GatewayBCreateOrderInput {
  /** From `toGatewayBAmount` (decimal string in PayPal's exponent for the currency). */
  amount: GatewayBMoney;
  /** Our payment id; PayPal returns it on the order, the capture and the webhook event. */
  customId: string;
  /** `PayPal-Request-Id` (1–108 characters): the same id returns the same order. */
  requestId: string;
  referenceId?: string;
  invoiceId?: string;
  description?: string;
  /** For redirect flows: where the buyer returns. Makes the order PAYER_ACTION_REQUIRED with a `payer-action` link. */
  returnUrl?: string;
  cancelUrl?: string;
}

export interface GatewayBWebhookInput {
  /** The notification's request headers (`req.headers` or a `Headers`). */
  headers: IncomingHeaders;
  /** The mode's Webhook ID (of the listener, not of the event). */
  webhookId: string;
  /** The body exactly as received (`req.rawBody`). */
  rawBody: Buffer | Uint8Array | string;
}

export type GatewayBWebhookVerification =
  | { verified: true; event: GatewayBWebhookEvent }
  | {
      verified: false;
      /**
       * `missing_headers` / `invalid_headers` / `invalid_body`: refused here, PayPal was not
       * asked. `signature_rejected`: PayPal answered FAILURE.
       */
      reason: 'missing_headers' | 'invalid_headers' | 'invalid_body' | 'signature_rejected';
      headers?: TransmissionHeaderName[];
    };

export const DEFAULT_TIMEOUT_MS = 15_000;
const DEFAULT_RETRY_DELAY_MS = 250;
const MAX_ANSWER_BYTES = 1024 * 1024;
/** Disputes per page of the dispute list (the reference's maximum). */
export const DISPUTES_PAGE_SIZE = 50;
/** The `id` path parameter of Orders v2 (`^[A-Z0-9]+$`, at most 36): PayPal refuses any other. */
const ORDER_ID = /^[A-Z0-9]{1,36}$/;

/**
 * Order ids as Orders v2 describes them; check a browser-supplied id with this before using it.
 * Another gateway's reference (`pi_…`) is none, so it never becomes a request PayPal refuses.
 */
export function isGatewayBOrderId(value: unknown): value is string {
  return typeof value === 'string' && ORDER_ID.test(value);
}

interface CallSpec {
  operation: GatewayBOperation;
  method: 'GET' | 'POST';
  path: string;
  headers?: Record<string, string>;
  body?: Buffer | string;
}

interface Answer {
  status: number;
  text: string;
  /** The body went over MAX_ANSWER_BYTES and was not read. */
  tooLarge?: boolean;
}

class TransportFailure {
  constructor(readonly reason: 'timeout' | 'network') {}
}

/**
 * A small typed client of PayPal's REST API (OAuth2 client credentials, Orders v2, capture
 * refunds, Customer Disputes v1 reads, webhook signature verification) over global `fetch`, with
 * a configurable base URL (the official SDK hard-codes its hosts). One instance per mode and
 * credentials; it holds the token cache.
 *
 * Retries: a GET (and the token request) is repeated once after a network failure or a 5xx; a
 * POST only when it carries a `PayPal-Request-Id` (create and capture always do), so that the
 * repeat cannot act twice. A timeout is not retried (the time is spent; the caller decides). Any
 * call answered 401 is repeated once with a fresh token. Failures are `GatewayBError`s.
 */
export class GatewayBClient {
  readonly baseUrl: string;
  readonly clientId: string;
  readonly #clientSecret: string;
  readonly #tokens: AccessTokenCache;
  private readonly timeoutMs: number;
  private readonly retryDelayMs: number;
  private readonly timer: NonNullable<GatewayBClientOptions['timer']>;

  constructor(config: GatewayBClientConfig, options: GatewayBClientOptions = {}) {
    const base = new URL(config.baseUrl);
    if (base.protocol !== 'https:' && base.protocol !== 'http:') throw new TypeError('baseUrl must be an http(s) URL');
    if (base.username || base.password || base.search || base.hash) throw new TypeError('baseUrl must not carry credentials, a query or a fragment');
    if (!config.clientId || !config.clientSecret) throw new TypeError('clientId and clientSecret are required');
    this.baseUrl = `${base.origin}${base.pathname.replace(/\/+$/, '')}`;
    this.clientId = config.clientId;
    this.#clientSecret = config.clientSecret;
    this.timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    this.retryDelayMs = options.retryDelayMs ?? DEFAULT_RETRY_DELAY_MS;
    this.timer = options.timer ?? ((_operation, call) => call());
    this.#tokens = new AccessTokenCache(() => this.requestToken(), options.clock ?? { now: () => new Date() });
  }

  /** Checks the credentials by asking for a token now (and keeps it). Throws GatewayBCredentialsError when refused. */
  async verifyCredentials(): Promise<GatewayBTokenInfo> {
    return this.#tokens.refresh();
  }

  /** `POST /v2/checkout/orders`: intent CAPTURE, one purchase unit, the whole order answered. */
  async createOrder(input: GatewayBCreateOrderInput): Promise<GatewayBOrder> {
    checkRequestId(input.requestId);
    checkMoney(input.amount);
    checkText('customId', input.customId, 127);
    if (input.referenceId !== undefined) checkText('referenceId', input.referenceId, 256);
    if (input.invoiceId !== undefined) checkText('invoiceId', input.invoiceId, 127);
    if (input.description !== undefined) checkText('description', input.description, 127);
    const unit = {
      ...(input.referenceId !== undefined ? { reference_id: input.referenceId } : {}),
      amount: { currency_code: input.amount.currency_code, value: input.amount.value },
      custom_id: input.customId,
      ...(input.invoiceId !== undefined ? { invoice_id: input.invoiceId } : {}),
      ...(input.description !== undefined ? { description: input.description } : {}),
    };
    const experience = {
      ...(input.returnUrl !== undefined ? { return_url: input.returnUrl } : {}),
      ...(input.cancelUrl !== undefined ? { cancel_url: input.cancelUrl } : {}),
    };
    const body = {
      intent: 'CAPTURE',
      purchase_units: [unit],
      ...(Object.keys(experience).length ? { payment_source: { paypal: { experience_context: experience } } } : {}),
    };
    return this.call(
      {
        operation: 'create_order',
        method: 'POST',
        path: '/v2/checkout/orders',
        headers: { 'Content-Type': 'application/json', 'PayPal-Request-Id': input.requestId, Prefer: 'return=representation' },
        body: JSON.stringify(body),
      },
      parseOrder,
    );
  }

  /** `GET /v2/checkout/orders/{id}`. */
  async getOrder(orderId: string): Promise<GatewayBOrder> {
    checkOrderId(orderId);
    return this.call({ operation: 'get_order', method: 'GET', path: `/v2/checkout/orders/${orderId}` }, parseOrder);
  }

  /**
   * `POST /v2/checkout/orders/{id}/capture` with a `PayPal-Request-Id`: repeating it (same id)
   * answers the order as captured the first time instead of capturing again. `return=
   * representation`, so that the captures carry `custom_id`.
   */
  async captureOrder(orderId: string, requestId: string): Promise<GatewayBOrder> {
    checkOrderId(orderId);
    checkRequestId(requestId);
    return this.call(
      {
        operation: 'capture_order',
        method: 'POST',
        path: `/v2/checkout/orders/${orderId}/capture`,
        headers: { 'Content-Type': 'application/json', 'PayPal-Request-Id': requestId, Prefer: 'return=representation' },
      },
      parseOrder,
    );
  }

  /**
   * `POST /v2/payments/captures/{id}/refund` with a `PayPal-Request-Id`: repeating it (same id)
   * answers the first refund instead of refunding again. No amount: all that is left of the capture.
   * `custom_id` carries our refund id (the reconcile finds a refund by it).
   */
  async refundCapture(captureId: string, input: { requestId: string; amount?: GatewayBMoney; customId: string }): Promise<GatewayBRefund> {
    if (typeof captureId !== 'string' || !/^[A-Za-z0-9-]{1,64}$/.test(captureId)) throw new TypeError('captureId must be 1-64 letters, digits or dashes');
    checkRequestId(input.requestId);
    if (input.amount) checkMoney(input.amount);
    checkText('customId', input.customId, 127);
    return this.call(
      {
        operation: 'refund_capture',
        method: 'POST',
        path: `/v2/payments/captures/${captureId}/refund`,
        headers: { 'Content-Type': 'application/json', 'PayPal-Request-Id': input.requestId, Prefer: 'return=representation' },
        body: JSON.stringify({ ...(input.amount ? { amount: input.amount } : {}), custom_id: input.customId }),
      },
      (json) => parseRefund(json),
    );
  }

  /**
   * `GET /v1/customer/disputes?disputed_transaction_id=…&page_size=50` (Customer Disputes v1): one
   * page of the disputes of a capture, newest first, as ids; `nextPageToken` (from the answer's
   * `next` link) asks for the page after it.
   */
  async listDisputes(captureId: string, nextPageToken?: string): Promise<GatewayBDisputePage> {
    // The reference's disputed_transaction_id: `^[0-9A-Z_]+$`, at most 255.
    if (typeof captureId !== 'string' || !/^[0-9A-Z_]{1,255}$/.test(captureId)) throw new RangeError('captureId is not a disputed transaction id');
    if (nextPageToken !== undefined && !/^[A-Za-z0-9+/=]{1,255}$/.test(nextPageToken)) throw new RangeError('nextPageToken is not a page token');
    const query = new URLSearchParams({ disputed_transaction_id: captureId, page_size: String(DISPUTES_PAGE_SIZE), ...(nextPageToken ? { next_page_token: nextPageToken } : {}) });
    return this.call({ operation: 'list_disputes', method: 'GET', path: `/v1/customer/disputes?${query.toString()}` }, parseDisputePage);
  }

  /** `GET /v1/customer/disputes/{id}`: the dispute's details (its disputed transactions, outcome, due date). */
  async getDispute(disputeId: string): Promise<GatewayBDispute> {
    if (typeof disputeId !== 'string' || !DISPUTE_ID.test(disputeId)) throw new RangeError('disputeId is not a dispute id');
    return this.call({ operation: 'get_dispute', method: 'GET', path: `/v1/customer/disputes/${disputeId}` }, parseDispute);
  }

  /**
   * Verifies a received notification through `POST /v1/notifications/verify-webhook-signature`
   * with the mode's webhook id. All five transmission headers are required and the body must be
   * a JSON event; otherwise PayPal is not asked. The event is sent back as the exact bytes
   * received (see `postbackBody`). Provider failures throw (answer 5xx so that PayPal redelivers).
   */
  async verifyWebhookSignature(input: GatewayBWebhookInput): Promise<GatewayBWebhookVerification> {
    if (!isGatewayBWebhookId(input.webhookId)) throw new TypeError('webhookId must be 1-50 letters and digits');
    const transmission = readTransmissionHeaders(input.headers);
    if (!transmission.ok) return { verified: false, reason: transmission.reason, headers: transmission.headers };
    const received = readEventBytes(input.rawBody);
    if (!received) return { verified: false, reason: 'invalid_body' };
    const status = await this.call(
      {
        operation: 'verify_webhook_signature',
        method: 'POST',
        path: '/v1/notifications/verify-webhook-signature',
        headers: { 'Content-Type': 'application/json' },
        body: postbackBody(transmission.fields, input.webhookId, received.bytes),
      },
      parseVerificationStatus,
    );
    return status === 'SUCCESS' ? { verified: true, event: received.event } : { verified: false, reason: 'signature_rejected' };
  }

  /** `GET /v1/notifications/webhooks/{id}`: where the app's listener delivers, and which events (for `doctor`). */
  async getWebhook(webhookId: string): Promise<GatewayBWebhookListener> {
    if (!isGatewayBWebhookId(webhookId)) throw new TypeError('webhookId must be 1-50 letters and digits');
    return this.call({ operation: 'get_webhook', method: 'GET', path: `/v1/notifications/webhooks/${webhookId}` }, parseWebhookListener);
  }

  // --- calls ----------------------------------------------------------------------------------------

  /** An API call with the bearer token: one refresh on 401, one retry where it is safe. */
  private call<T>(spec: CallSpec, parse: (json: unknown) => T): Promise<T> {
    return this.timer(spec.operation, () => this.callWithRetries(spec, parse));
  }

  private async callWithRetries<T>(spec: CallSpec, parse: (json: unknown) => T): Promise<T> {
    const retryable = spec.method === 'GET' || spec.headers?.['PayPal-Request-Id'] !== undefined;
    let retried = false;
    let refreshed = false;
    for (;;) {
      const token = await this.#tokens.token();
      const answer = await this.attempt(spec, { ...spec.headers, Authorization: `Bearer ${token}` });
      if (answer instanceof TransportFailure) {
        if (answer.reason === 'network' && retryable && !retried) {
          retried = true;
          await this.pause();
          continue;
        }
        throw new GatewayBUnreachableError(spec.operation, spec.method, answer.reason);
      }
      if (answer.status === 401 && !refreshed) {
        this.#tokens.invalidate(token);
        refreshed = true;
        continue;
      }
      if (answer.status >= 500 && retryable && !retried) {
        retried = true;
        await this.pause();
        continue;
      }
      return this.conclude(spec, answer, parse);
    }
  }

  /** `POST /v1/oauth2/token` (HTTP Basic, client credentials); retried once after a network failure or 5xx. */
  private async requestToken(): Promise<GatewayBTokenGrant> {
    const spec: CallSpec = { operation: 'token', method: 'POST', path: '/v1/oauth2/token', body: 'grant_type=client_credentials' };
    const headers = {
      Authorization: `Basic ${Buffer.from(`${this.clientId}:${this.#clientSecret}`, 'utf8').toString('base64')}`,
      'Content-Type': 'application/x-www-form-urlencoded',
    };
    for (let attempt = 1; ; attempt += 1) {
      const answer = await this.attempt(spec, headers);
      const again = attempt === 1 && (answer instanceof TransportFailure ? answer.reason === 'network' : answer.status >= 500);
      if (again) {
        await this.pause();
        continue;
      }
      if (answer instanceof TransportFailure) throw new GatewayBUnreachableError('token', 'POST', answer.reason);
      return this.conclude(spec, answer, parseTokenGrant);
    }
  }

  /** A success parsed, or the failure as a GatewayBError (401 here means the credentials). */
  private conclude<T>(spec: CallSpec, answer: Answer, parse: (json: unknown) => T): T {
    const { status, text } = answer;
    if (answer.tooLarge) throw new GatewayBMalformedResponseError(spec.operation, spec.method, status, 'the body is too large');
    let json: unknown;
    let readable = true;
    try {
      json = text === '' ? undefined : JSON.parse(text);
    } catch {
      readable = false;
    }
    if (status >= 200 && status < 300) {
      if (!readable) throw new GatewayBMalformedResponseError(spec.operation, spec.method, status, 'the body is not JSON');
      try {
        return parse(json);
      } catch (error) {
        if (error instanceof MalformedAnswer) throw new GatewayBMalformedResponseError(spec.operation, spec.method, status, error.message);
        throw error;
      }
    }
    if (status < 400) throw new GatewayBMalformedResponseError(spec.operation, spec.method, status, 'unexpected status');
    const { errorName, issues, debugId } = readErrorBody(json);
    const Refusal = status === 401 ? GatewayBCredentialsError : GatewayBRefusedError;
    throw new Refusal(spec.operation, spec.method, status, errorName, issues, debugId);
  }

  /** One HTTP exchange within `timeoutMs` (the body read included); never throws for transport. */
  private async attempt(spec: CallSpec, headers: Record<string, string>): Promise<Answer | TransportFailure> {
    const controller = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, this.timeoutMs);
    try {
      const response = await fetch(`${this.baseUrl}${spec.path}`, {
        method: spec.method,
        headers: { Accept: 'application/json', ...headers },
        body: spec.body,
        signal: controller.signal,
        redirect: 'manual', // never follow: a redirect would carry the Authorization header elsewhere
      });
      const text = await readCapped(response, MAX_ANSWER_BYTES);
      return text === undefined ? { status: response.status, text: '', tooLarge: true } : { status: response.status, text };
    } catch {
      return new TransportFailure(timedOut ? 'timeout' : 'network');
    } finally {
      clearTimeout(timer);
    }
  }

  private pause(): Promise<void> {
    return new Promise((resolve) => setTimeout(resolve, this.retryDelayMs));
  }
}

/** The body as text, or undefined when it is larger than `max` bytes (then it is not read further). */
async function readCapped(response: Response, max: number): Promise<string | undefined> {
  if (!response.body) return '';
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = response.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > max) {
      await reader.cancel();
      return undefined;
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

function checkRequestId(requestId: string): void {
  if (typeof requestId !== 'string' || !/^[\x21-\x7e]{1,108}$/.test(requestId)) throw new RangeError('requestId must be 1-108 visible ASCII characters');
}

function checkOrderId(orderId: string): void {
  if (!isGatewayBOrderId(orderId)) throw new RangeError('orderId is not a gateway B order id');
}

function checkText(name: string, value: string, max: number): void {
  if (typeof value !== 'string' || value.length < 1 || value.length > max) throw new RangeError(`${name} must be 1-${max} characters`);
}

function checkMoney(amount: GatewayBMoney): void {
  if (!/^[A-Z]{3}$/.test(amount?.currency_code ?? '') || !/^\d{1,20}(\.\d{1,2})?$/.test(amount?.value ?? '')) {
    throw new RangeError('amount must be { currency_code: ISO code, value: decimal string } (use toGatewayBAmount)');
  }
}
