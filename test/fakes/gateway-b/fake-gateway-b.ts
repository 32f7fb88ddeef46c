import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { LoopbackServer } from '../loopback-server.js';
import { type FakeDispute, type FakeDisputeOutcome, FakeDisputes, type FakeDisputeStatus, type OpenDisputeOptions } from './fake-disputes.js';
import { authenticationFailure, FakePayPalError, injectedFailure, previousRequestInProgress, validationError } from './fake-errors.js';
import { type CaptureOverrides, type FakeBuyer, type FakeOrder, FakeOrders, type Json } from './fake-orders.js';
import { rawMemberValue } from './json-member.js';
import { createSigningIdentity, type SigningIdentity } from './self-signed-cert.js';
import {
  captureCompletedEvent,
  captureRefundedEvent,
  customerDisputeEvent,
  type EventOptions,
  fakePayPalId,
  signTransmission,
  type TransmissionHeaders,
  verifyTransmission,
} from './webhook-signing.js';

/** A REST app of the environment: its credentials and the webhook listeners subscribed under it. */
export interface FakeApp {
  clientId: string;
  clientSecret: string;
  /** `APP-…`, answered as `app_id` with every token. */
  appId: string;
  webhookIds: Set<string>;
}

/** A webhook listener as `GET /v1/notifications/webhooks/{id}` answers it. */
export interface FakeWebhookListener {
  url: string;
  eventTypes: string[];
}

/** One request as the fake received it. Header names are lower case. */
export interface RecordedCall {
  method: string;
  path: string;
  query: Record<string, string>;
  headers: Record<string, string>;
  /** The kind of Authorization header: Basic (token requests), Bearer (API calls), none. */
  authorization: 'none' | 'basic' | 'bearer' | 'other';
  /** The app the call was made as: the Basic user, or the app that owns the bearer token. */
  clientId?: string;
  /** `PayPal-Request-Id`, when sent. */
  requestId?: string;
  /** `Prefer`, when sent. */
  prefer?: string;
  rawBody: string;
  /** JSON, or the form fields of a token request; undefined when empty or unparseable. */
  body: unknown;
  /** The status the fake answered (or would have, for a connection dropped after handling). */
  status?: number;
  /** True when a `PayPal-Request-Id` replayed an earlier request's outcome. */
  replayed?: boolean;
  /** `body`: a test-given body was answered (often malformed on purpose); `status`: an injected 429/5xx. */
  fault?: 'delay' | 'status' | 'body' | 'drop';
  /** What the fake answered, as sent (none when the connection was dropped): for the contract checks. */
  answer?: RecordedAnswer;
}

/** An answer as it went out. */
export interface RecordedAnswer {
  status: number;
  contentType?: string;
  raw: string;
}

/**
 * A fault for the next `times` (default 1, `Infinity` for all) matching requests. `delayMs`
 * holds the request before it is handled (it is still handled: a client that gave up does not
 * cancel the work); `status` answers 429/500/503 (PayPal's bodies) instead of handling;
 * `body` answers that text (an object is sent as JSON) with `status` (default 200) instead of
 * handling, for malformed answers; `drop: 'before'` closes the connection without handling,
 * `drop: 'after'` handles the request (the order is created or captured) and closes the
 * connection instead of answering.
 */
export interface FaultRule {
  method?: string;
  path: string | RegExp;
  delayMs?: number;
  status?: number;
  body?: string | Json;
  drop?: 'before' | 'after';
  times?: number;
}

export interface FakeGatewayBOptions {
  /** Which PayPal environment this instance plays; run one per mode (see README.md). */
  environment?: 'sandbox' | 'live';
  /** Credentials of the first app (random otherwise). */
  clientId?: string;
  clientSecret?: string;
  /** Lifetime of access tokens (PayPal: about nine hours). */
  tokenTtlSeconds?: number;
  /** Clock of token expiry, in ms. */
  now?: () => number;
  /** verify-webhook-signature with a webhook id the app does not have: FAILURE or 404. */
  unknownWebhookId?: 'failure' | 'not_found';
}

interface IssuedToken {
  token: string;
  clientId: string;
  expiresAt: number;
}

interface RequestIdRecord {
  orderId: string;
  fingerprint: string;
}

const MAX_BODY_BYTES = 1024 * 1024;
const SCOPES = [
  'https://uri.paypal.com/services/payments/payment/authcapture',
  'https://uri.paypal.com/services/payments/refund',
  'https://uri.paypal.com/services/applications/webhooks',
  'https://uri.paypal.com/services/payments/realtimepayment',
  'https://uri.paypal.com/services/disputes/read-seller',
  'openid',
].join(' ');

/**
 * A local stand-in for one PayPal REST environment (sandbox or live): OAuth2 client-credentials
 * tokens, Orders v2 (create, get, capture) with `PayPal-Request-Id` and `Prefer`, capture refunds,
 * Customer Disputes v1 reads (list, show) of disputes a test opens, the buyer's approval,
 * webhook deliveries signed with PayPal's scheme and a working
 * verify-webhook-signature, fault injection and a call log.
 */
export class FakeGatewayB extends LoopbackServer {
  readonly environment: 'sandbox' | 'live';
  readonly calls: RecordedCall[] = [];
  readonly apps: FakeApp[] = [];
  private readonly listeners = new Map<string, FakeWebhookListener>();
  readonly orders: FakeOrders;
  readonly disputes: FakeDisputes;
  readonly signing: SigningIdentity;
  tokenTtlSeconds: number;
  unknownWebhookId: 'failure' | 'not_found';
  /** What the buyer does on the approval page (`/checkoutnow`). */
  buyerDecision: 'approve' | 'cancel' = 'approve';

  private readonly now: () => number;
  private readonly faults: Array<FaultRule & { remaining: number }> = [];
  private readonly tokens = new Map<string, IssuedToken>();
  private readonly requestIds = new Map<string, RequestIdRecord>();
  private readonly inFlight = new Set<string>();
  private readonly certId = `CERT-${randomBytes(4).toString('hex')}-${randomBytes(4).toString('hex')}-${randomBytes(4).toString('hex')}`;

  constructor(options: FakeGatewayBOptions = {}) {
    super('fake gateway B');
    this.environment = options.environment ?? 'sandbox';
    this.tokenTtlSeconds = options.tokenTtlSeconds ?? 32_400;
    this.now = options.now ?? Date.now;
    this.unknownWebhookId = options.unknownWebhookId ?? 'failure';
    this.orders = new FakeOrders(
      () => this.url,
      () => this.url,
    );
    this.disputes = new FakeDisputes(() => this.url, this.orders);
    this.signing = createSigningIdentity(`messageverificationcerts.${this.environment}.paypal.test`);
    this.addApp({ clientId: options.clientId, clientSecret: options.clientSecret });
  }

  // --- apps, credentials, tokens ------------------------------------------------------------------

  /** The first app (created with the fake). */
  get app(): FakeApp {
    return this.apps[0];
  }

  get clientId(): string {
    return this.app.clientId;
  }

  get clientSecret(): string {
    return this.app.clientSecret;
  }

  /** The first app's first webhook id. */
  get webhookId(): string {
    const [first] = this.app.webhookIds;
    if (!first) throw new Error('fake gateway B: the first app has no webhook id');
    return first;
  }

  /** Another REST app of this environment, with one webhook listener (pass `webhookIds: []` for none). */
  addApp(options: { clientId?: string; clientSecret?: string; webhookIds?: string[] } = {}): FakeApp {
    const app: FakeApp = {
      clientId: options.clientId ?? `A${randomBytes(30).toString('base64url').replace(/[-_]/g, 'x')}`,
      clientSecret: options.clientSecret ?? `E${randomBytes(30).toString('base64url').replace(/[-_]/g, 'y')}`,
      appId: `APP-${fakePayPalId(17)}`,
      webhookIds: new Set(options.webhookIds ?? [fakePayPalId(17)]),
    };
    this.apps.push(app);
    return app;
  }

  /** Subscribes a listener for `app` (first app by default); returns its webhook id. */
  addWebhook(app: FakeApp = this.app, webhookId = fakePayPalId(17)): string {
    app.webhookIds.add(webhookId);
    return webhookId;
  }

  removeWebhook(webhookId: string): void {
    for (const app of this.apps) app.webhookIds.delete(webhookId);
  }

  /** What a webhook listener delivers where (default: a URL of nobody's and the capture-completed event). */
  setWebhookListener(webhookId: string, listener: Partial<FakeWebhookListener>): void {
    this.listeners.set(webhookId, { ...this.listenerOf(webhookId), ...listener });
  }

  private listenerOf(webhookId: string): FakeWebhookListener {
    return this.listeners.get(webhookId) ?? { url: 'https://listener.invalid/webhooks', eventTypes: ['PAYMENT.CAPTURE.COMPLETED'] };
  }

  /** Every token issued so far stops working now (the next API call answers 401). */
  expireAllTokens(): void {
    const past = this.now() - 1;
    for (const token of this.tokens.values()) token.expiresAt = Math.min(token.expiresAt, past);
  }

  /** Tokens issued so far (newest last), for assertions. */
  issuedTokens(): ReadonlyArray<Readonly<IssuedToken>> {
    return [...this.tokens.values()];
  }

  // --- orders: the buyer's side and test control ----------------------------------------------------

  /** What the buyer does in PayPal's window: the order becomes APPROVED. */
  approveOrder(orderId: string, buyer?: FakeBuyer): Json {
    return this.orders.full(this.orders.approve(orderId, buyer));
  }

  /**
   * Makes the capture of `orderId` record and answer something else: another amount, currency,
   * `custom_id` (`null` removes it), `status` (`PENDING` adds `status_details`), ...
   */
  setCaptureOutcome(orderId: string, overrides: CaptureOverrides): void {
    const order = this.orders.get(orderId);
    if (!order) throw new Error(`fake gateway B: no order ${orderId}`);
    order.captureOverrides = { ...order.captureOverrides, ...overrides };
  }

  /** The order as GET answers it. */
  order(orderId: string): Json | undefined {
    const order = this.orders.get(orderId);
    return order ? this.orders.full(order) : undefined;
  }

  // --- webhooks ---------------------------------------------------------------------------------------

  /** Where the fake serves the certificate of its signing key (PAYPAL-CERT-URL). */
  get certUrl(): string {
    return `${this.url}/v1/notifications/certs/${this.certId}`;
  }

  /**
   * A notification as PayPal would POST it to the listener of `webhookId` (the first app's by
   * default): the raw body (an object is serialised compactly; a string or Buffer is sent as is)
   * and the five transmission headers signed over exactly those bytes.
   */
  webhookDelivery(
    event: Json | string | Buffer,
    options: { webhookId?: string; transmissionId?: string; transmissionTime?: string | Date } = {},
  ): { rawBody: Buffer; headers: TransmissionHeaders } {
    const rawBody = Buffer.isBuffer(event) ? event : Buffer.from(typeof event === 'string' ? event : JSON.stringify(event), 'utf8');
    const headers = signTransmission(rawBody, {
      webhookId: options.webhookId ?? this.webhookId,
      certUrl: this.certUrl,
      privateKey: this.signing.privateKey,
      transmissionId: options.transmissionId,
      transmissionTime: options.transmissionTime,
    });
    return { rawBody, headers };
  }

  /** A refund made in the dashboard on the order's capture, and the `PAYMENT.CAPTURE.REFUNDED` event a listener would receive for it. */
  refundInDashboard(orderId: string, value: string, options: EventOptions = {}): { refund: Json; event: Json } {
    const refund = this.orders.dashboardRefund(orderId, { value });
    return { refund, event: captureRefundedEvent(refund, { apiBase: this.url, ...options }) };
  }

  /**
   * The buyer (or the bank) opens a dispute on the order's capture, as it shows in the dashboard:
   * the details as `GET /v1/customer/disputes/{id}` answers them, and the
   * `CUSTOMER.DISPUTE.CREATED` event a listener would receive.
   */
  openDispute(orderId: string, options: OpenDisputeOptions = {}, eventOptions: EventOptions = {}): { dispute: Json; event: Json } {
    return this.disputeNews(this.disputes.open(orderId, options), 'CUSTOMER.DISPUTE.CREATED', eventOptions);
  }

  /** The dispute moves in the dashboard (status, stage, due date), with its `CUSTOMER.DISPUTE.UPDATED` event. */
  updateDispute(disputeId: string, changes: { status?: FakeDisputeStatus; stage?: FakeDispute['stage']; dueDate?: Date | null }, eventOptions: EventOptions = {}): { dispute: Json; event: Json } {
    return this.disputeNews(this.disputes.update(disputeId, changes), 'CUSTOMER.DISPUTE.UPDATED', eventOptions);
  }

  /** The dispute is resolved with `outcome`, with its `CUSTOMER.DISPUTE.RESOLVED` event. */
  resolveDispute(disputeId: string, outcome: FakeDisputeOutcome, options: { amountRefunded?: string } = {}, eventOptions: EventOptions = {}): { dispute: Json; event: Json } {
    return this.disputeNews(this.disputes.resolve(disputeId, outcome, options), 'CUSTOMER.DISPUTE.RESOLVED', eventOptions);
  }

  private disputeNews(dispute: FakeDispute, eventType: Parameters<typeof customerDisputeEvent>[0], options: EventOptions): { dispute: Json; event: Json } {
    const detail = this.disputes.detail(dispute);
    return { dispute: detail, event: customerDisputeEvent(eventType, structuredClone(detail), { apiBase: this.url, ...options }) };
  }

  /** `PAYMENT.CAPTURE.COMPLETED` for the (first) capture of a captured order, as recorded. */
  captureCompletedEvent(orderId: string, options: EventOptions = {}): Json {
    const order = this.orders.get(orderId);
    const capture = ((order?.purchaseUnits[0]?.payments as Json | undefined)?.captures as Json[] | undefined)?.[0];
    if (!order || !capture) throw new Error(`fake gateway B: order ${orderId} has no capture`);
    return captureCompletedEvent(capture, order.id, { apiBase: this.url, ...options });
  }

  /** POSTs a delivery to `url` as PayPal does (JSON body, transmission headers). */
  async deliverWebhook(url: string, delivery: { rawBody: Buffer; headers: Record<string, string> }): Promise<Response> {
    return fetch(url, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'User-Agent': 'PayPal/AUHD-214.0-58383040', ...delivery.headers },
      body: delivery.rawBody,
    });
  }

  // --- faults and the call log ---------------------------------------------------------------------------

  fault(rule: FaultRule): void {
    this.faults.push({ ...rule, remaining: rule.times ?? 1 });
  }

  clearFaults(): void {
    this.faults.length = 0;
  }

  /** Calls whose method matches and whose path equals `path` (or matches the RegExp). */
  callsTo(method: string, path: string | RegExp): RecordedCall[] {
    return this.calls.filter((c) => c.method === method && (typeof path === 'string' ? c.path === path : path.test(c.path)));
  }

  /** Calls other than the fake's own pages (certificate, approval page). */
  apiCalls(): RecordedCall[] {
    return this.calls.filter((c) => !c.path.startsWith('/v1/notifications/certs/') && c.path !== '/checkoutnow');
  }

  clearCalls(): void {
    this.calls.length = 0;
  }

  // --- HTTP plumbing -------------------------------------------------------------------------------------

  protected async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of req) {
      size += (chunk as Buffer).length;
      if (size > MAX_BODY_BYTES) {
        res.writeHead(413).end();
        return;
      }
      chunks.push(chunk as Buffer);
    }
    const raw = Buffer.concat(chunks);
    const url = new URL(req.url ?? '/', 'http://fake');
    const headers = Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k.toLowerCase(), Array.isArray(v) ? v.join(', ') : (v ?? '')]));
    const call: RecordedCall = {
      method: req.method ?? 'GET',
      path: url.pathname,
      query: Object.fromEntries(url.searchParams),
      headers,
      authorization: 'none',
      requestId: headers['paypal-request-id'],
      prefer: headers.prefer,
      rawBody: raw.toString('utf8'),
      body: undefined,
    };
    this.describeAuthorization(call);
    call.body = parseBody(call);
    this.calls.push(call);

    const fault = this.takeFault(call);
    const idempotencyKey = this.idempotencyKey(call);
    if (idempotencyKey && this.inFlight.has(idempotencyKey)) {
      return this.send(res, call, false, previousRequestInProgress());
    }
    if (idempotencyKey) this.inFlight.add(idempotencyKey);
    try {
      if (fault?.delayMs) {
        call.fault = 'delay';
        await new Promise((resolve) => setTimeout(resolve, fault.delayMs));
      }
      if (fault?.drop === 'before') {
        call.fault = 'drop';
        req.socket.destroy();
        return;
      }
      if (fault?.body !== undefined) {
        call.fault = 'body';
        call.status = fault.status ?? 200;
        const text = typeof fault.body === 'string' ? fault.body : JSON.stringify(fault.body);
        call.answer = { status: call.status, contentType: 'application/json', raw: text };
        res.writeHead(call.status, { 'Content-Type': 'application/json', 'Paypal-Debug-Id': randomBytes(7).toString('hex').slice(0, 13) });
        return void res.end(text);
      }
      if (fault?.status) {
        call.fault = 'status';
        return this.send(res, call, false, injectedFailure(fault.status));
      }
      const dropAfter = fault?.drop === 'after';
      if (dropAfter) call.fault = 'drop';
      let status = 200;
      let body: unknown;
      let extraHeaders: Record<string, string> = {};
      try {
        const answer = this.route(call, raw);
        if (answer.raw !== undefined) {
          call.status = answer.status;
          if (dropAfter) return void req.socket.destroy();
          call.answer = { status: answer.status, contentType: answer.headers?.['Content-Type'], raw: answer.raw };
          res.writeHead(answer.status, answer.headers ?? {});
          return void res.end(answer.raw);
        }
        ({ status, body } = answer);
        extraHeaders = answer.headers ?? {};
      } catch (error) {
        if (!(error instanceof FakePayPalError)) throw error;
        return this.send(res, call, dropAfter, error);
      }
      this.send(res, call, dropAfter, { status, body }, extraHeaders);
    } finally {
      if (idempotencyKey) this.inFlight.delete(idempotencyKey);
    }
  }

  private send(res: ServerResponse, call: RecordedCall, drop: boolean, answer: FakePayPalError | { status: number; body: unknown }, headers: Record<string, string> = {}): void {
    const status = answer.status;
    const body = answer instanceof FakePayPalError ? answer.body() : answer.body;
    const debugId = answer instanceof FakePayPalError ? answer.debugId : randomBytes(7).toString('hex').slice(0, 13);
    call.status = status;
    if (drop) {
      res.socket?.destroy();
      return;
    }
    const raw = JSON.stringify(body);
    call.answer = { status, contentType: 'application/json', raw };
    res.writeHead(status, { 'Content-Type': 'application/json', 'Paypal-Debug-Id': debugId, ...headers });
    res.end(raw);
  }

  private takeFault(call: RecordedCall): FaultRule | undefined {
    const index = this.faults.findIndex((f) => (!f.method || f.method === call.method) && (typeof f.path === 'string' ? f.path === call.path : f.path.test(call.path)));
    if (index === -1) return undefined;
    const fault = this.faults[index];
    fault.remaining -= 1;
    if (fault.remaining <= 0) this.faults.splice(index, 1);
    return fault;
  }

  private describeAuthorization(call: RecordedCall): void {
    const header = call.headers.authorization ?? '';
    if (!header) return;
    const basic = /^Basic\s+(\S+)$/i.exec(header);
    if (basic) {
      call.authorization = 'basic';
      const decoded = Buffer.from(basic[1], 'base64').toString('utf8');
      call.clientId = decoded.includes(':') ? decoded.slice(0, decoded.indexOf(':')) : undefined;
      return;
    }
    const bearer = /^Bearer\s+(\S+)$/i.exec(header);
    if (bearer) {
      call.authorization = 'bearer';
      call.clientId = this.tokens.get(bearer[1])?.clientId;
      return;
    }
    call.authorization = 'other';
  }

  /** `PayPal-Request-Id` scope: per app and operation (create, capture), as the header is used. */
  private idempotencyKey(call: RecordedCall): string | undefined {
    if (call.method !== 'POST' || !call.requestId || !call.clientId) return undefined;
    if (call.path === '/v2/checkout/orders') return `${call.clientId}|create|${call.requestId}`;
    if (/^\/v2\/checkout\/orders\/[^/]+\/capture$/.test(call.path)) return `${call.clientId}|capture|${call.requestId}`;
    if (/^\/v2\/payments\/captures\/[^/]+\/refund$/.test(call.path)) return `${call.clientId}|refund|${call.requestId}`;
    return undefined;
  }

  // --- routes ------------------------------------------------------------------------------------------

  private route(call: RecordedCall, raw: Buffer): { status: number; body?: unknown; raw?: string; headers?: Record<string, string> } {
    const { method, path } = call;
    if (method === 'GET' && path === `/v1/notifications/certs/${this.certId}`) {
      return { status: 200, raw: this.signing.certificatePem, headers: { 'Content-Type': 'application/x-pem-file' } };
    }
    if (method === 'GET' && path === '/checkoutnow') return this.approvalPage(call);
    if (path === '/v1/oauth2/token') {
      if (method !== 'POST') throw new FakePayPalError(405, 'METHOD_NOT_SUPPORTED', 'The server does not implement the requested HTTP method.');
      return this.token(call);
    }

    const app = this.bearerApp(call);
    const order = /^\/v2\/checkout\/orders\/([^/]+)$/.exec(path);
    const capture = /^\/v2\/checkout\/orders\/([^/]+)\/capture$/.exec(path);
    if (method === 'POST' && path === '/v2/checkout/orders') return this.createOrder(call, app);
    if (method === 'GET' && order) return { status: 200, body: this.orders.full(this.orders.find(app.clientId, decodeURIComponent(order[1]))) };
    if (method === 'POST' && capture) return this.captureOrder(call, app, decodeURIComponent(capture[1]));
    const refund = /^\/v2\/payments\/captures\/([^/]+)\/refund$/.exec(path);
    if (method === 'POST' && refund) return this.refundCapture(call, app, decodeURIComponent(refund[1]));
    if (method === 'GET' && path === '/v1/customer/disputes') return { status: 200, body: this.disputes.list(app.clientId, call.query) };
    const dispute = /^\/v1\/customer\/disputes\/([^/]+)$/.exec(path);
    if (method === 'GET' && dispute) return { status: 200, body: this.disputes.show(app.clientId, decodeURIComponent(dispute[1])) };
    if (method === 'POST' && path === '/v1/notifications/verify-webhook-signature') return this.verifyWebhookSignature(call, app, raw);
    const webhook = /^\/v1\/notifications\/webhooks\/([^/]+)$/.exec(path);
    if (method === 'GET' && webhook) return this.showWebhook(app, decodeURIComponent(webhook[1]));
    throw new FakePayPalError(404, 'NOT_FOUND', 'The specified resource does not exist.');
  }

  /** `GET /v1/notifications/webhooks/{id}`: one of the app's listeners (404 RESOURCE_NOT_FOUND otherwise). */
  private showWebhook(app: FakeApp, webhookId: string): { status: number; body: unknown } {
    if (!app.webhookIds.has(webhookId)) throw new FakePayPalError(404, 'RESOURCE_NOT_FOUND', 'The specified resource does not exist.', [{ issue: 'INVALID_RESOURCE_ID', description: 'Webhook id is invalid.' }]);
    const listener = this.listenerOf(webhookId);
    return {
      status: 200,
      body: {
        id: webhookId,
        url: listener.url,
        event_types: listener.eventTypes.map((name) => ({ name, description: name, status: 'ENABLED' })),
        links: [{ href: `${this.url}/v1/notifications/webhooks/${webhookId}`, rel: 'self', method: 'GET' }],
      },
    };
  }

  private token(call: RecordedCall): { status: number; body: unknown } {
    const invalidClient = new FakePayPalError(401, 'invalid_client', 'Client Authentication failed', [], { error: 'invalid_client', error_description: 'Client Authentication failed' });
    const basic = /^Basic\s+(\S+)$/i.exec(call.headers.authorization ?? '');
    if (!basic) throw invalidClient;
    const decoded = Buffer.from(basic[1], 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    const app = colon > 0 ? this.apps.find((a) => a.clientId === decoded.slice(0, colon)) : undefined;
    if (!app || app.clientSecret !== decoded.slice(colon + 1)) throw invalidClient;
    const grantType = new URLSearchParams(call.rawBody).get('grant_type');
    if (!grantType) throw new FakePayPalError(400, 'unsupported_grant_type', 'Grant Type is NULL', [], { error: 'unsupported_grant_type', error_description: 'Grant Type is NULL' });
    if (grantType !== 'client_credentials') {
      throw new FakePayPalError(400, 'unsupported_grant_type', 'unsupported grant_type', [], { error: 'unsupported_grant_type', error_description: 'unsupported grant_type' });
    }
    // PayPal hands out the same token again while it is valid, with the seconds it has left.
    const now = this.now();
    let issued = [...this.tokens.values()].reverse().find((t) => t.clientId === app.clientId && t.expiresAt > now);
    if (!issued) {
      issued = { token: `A21AA${randomBytes(66).toString('base64url')}`, clientId: app.clientId, expiresAt: now + this.tokenTtlSeconds * 1000 };
      this.tokens.set(issued.token, issued);
    }
    return {
      status: 200,
      body: {
        scope: SCOPES,
        access_token: issued.token,
        token_type: 'Bearer',
        app_id: app.appId,
        expires_in: Math.max(1, Math.floor((issued.expiresAt - now) / 1000)),
        nonce: `${new Date(now).toISOString().replace(/\.\d{3}Z$/, 'Z')}${randomBytes(32).toString('base64url')}`,
      },
    };
  }

  private bearerApp(call: RecordedCall): FakeApp {
    const bearer = /^Bearer\s+(\S+)$/i.exec(call.headers.authorization ?? '');
    const issued = bearer ? this.tokens.get(bearer[1]) : undefined;
    if (!issued || issued.expiresAt <= this.now()) throw authenticationFailure();
    const app = this.apps.find((a) => a.clientId === issued.clientId);
    if (!app) throw authenticationFailure();
    return app;
  }

  private requireJson(call: RecordedCall): void {
    if (!/^application\/json\b/i.test(call.headers['content-type'] ?? '')) {
      throw new FakePayPalError(415, 'UNSUPPORTED_MEDIA_TYPE', "The server does not support the request payload's media type.");
    }
    if (call.rawBody.trim() !== '' && call.body === undefined) {
      throw new FakePayPalError(400, 'INVALID_REQUEST', 'Request is not well-formed, syntactically incorrect, or violates schema.', [
        { issue: 'MALFORMED_REQUEST_JSON', location: 'body', description: 'The request JSON is not well formed.' },
      ]);
    }
  }

  private representation(call: RecordedCall, order: FakeOrder, minimal: (order: FakeOrder) => Json): Json {
    return /return=representation/i.test(call.prefer ?? '') ? this.orders.full(order) : minimal.call(this.orders, order);
  }

  /** Same id before: the latest state of that order (200), per PayPal's idempotency page. */
  private replay(call: RecordedCall, key: string, minimal: (order: FakeOrder) => Json): { status: number; body: unknown } | undefined {
    const previous = this.requestIds.get(key);
    if (!previous) return undefined;
    call.replayed = true;
    return { status: 200, body: this.representation(call, this.orders.get(previous.orderId)!, minimal) };
  }

  private createOrder(call: RecordedCall, app: FakeApp): { status: number; body: unknown } {
    this.requireJson(call);
    const key = this.idempotencyKey(call);
    const replayed = key ? this.replay(call, key, this.orders.minimalCreate) : undefined;
    if (replayed) return replayed;
    const order = this.orders.create(app.clientId, call.body);
    if (key) this.requestIds.set(key, { orderId: order.id, fingerprint: fingerprint(call) });
    return { status: 201, body: this.representation(call, order, this.orders.minimalCreate) };
  }

  private captureOrder(call: RecordedCall, app: FakeApp, orderId: string): { status: number; body: unknown } {
    this.requireJson(call);
    const key = this.idempotencyKey(call);
    const replayed = key ? this.replay(call, key, this.orders.minimalCapture) : undefined;
    if (replayed) return replayed;
    const order = this.orders.capture(app.clientId, orderId);
    if (key) this.requestIds.set(key, { orderId: order.id, fingerprint: fingerprint(call) });
    return { status: 201, body: this.representation(call, order, this.orders.minimalCapture) };
  }

  /**
   * Same `PayPal-Request-Id` before: that refund as it is now; otherwise a new refund. Both 201:
   * Payments v2 documents no other success answer for captures.refund (unlike orders.create and
   * orders.capture, whose replays it documents as 200).
   */
  private refundCapture(call: RecordedCall, app: FakeApp, captureId: string): { status: number; body: unknown } {
    this.requireJson(call);
    const key = this.idempotencyKey(call);
    const previous = key ? this.requestIds.get(key) : undefined;
    if (previous) {
      call.replayed = true;
      return { status: 201, body: this.orders.findRefund(app.clientId, previous.orderId) };
    }
    const refund = this.orders.refund(app.clientId, captureId, (call.body ?? {}) as Json);
    // The record keeps the refund's id where an order's would be (one map of request ids).
    if (key) this.requestIds.set(key, { orderId: refund.id as string, fingerprint: fingerprint(call) });
    return { status: 201, body: refund };
  }

  /**
   * PayPal's postback verification. The signature covers the CRC32 of the notification body as
   * PayPal sent it; this endpoint recomputes it over the exact bytes of `webhook_event` in the
   * request it receives (no re-serialisation), so the caller must send back the event bytes it
   * received. A re-serialised event (other key order, spacing, escapes or number forms) fails,
   * as it does against PayPal when the bytes differ. The certificate is taken only from this
   * fake's own PAYPAL-CERT-URL.
   */
  private verifyWebhookSignature(call: RecordedCall, app: FakeApp, raw: Buffer): { status: number; body: unknown } {
    this.requireJson(call);
    const body = call.body as Json | undefined;
    if (!body || typeof body !== 'object' || Array.isArray(body)) throw validationError('webhook_event', 'Required field cannot be blank');
    const patterns: Array<[string, RegExp, number]> = [
      ['auth_algo', /^[a-zA-Z0-9]+$/, 100],
      ['cert_url', /^https?:\/\/\S+$/, 500],
      ['transmission_id', /^(?!\d+$)\w+\S+$/, 50],
      ['transmission_sig', /^(?!\d+$)\w+\S+$/, 500],
      ['transmission_time', /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/, 100],
      ['webhook_id', /^[a-zA-Z0-9]+$/, 50],
    ];
    for (const [field, pattern, max] of patterns) {
      const value = body[field];
      if (value === undefined || value === null || value === '') throw validationError(field, 'Required field cannot be blank');
      if (typeof value !== 'string' || value.length > max || !pattern.test(value)) throw validationError(field, 'Invalid data provided');
    }
    const event = body.webhook_event;
    if (typeof event !== 'object' || event === null || Array.isArray(event)) throw validationError('webhook_event', 'Required field cannot be blank');
    const fields = body as Record<string, string>;
    if (!app.webhookIds.has(fields.webhook_id)) {
      if (this.unknownWebhookId === 'not_found') throw new FakePayPalError(404, 'INVALID_RESOURCE_ID', 'Resource id is invalid');
      return { status: 200, body: { verification_status: 'FAILURE' } };
    }
    const eventBytes = rawMemberValue(raw, 'webhook_event')!;
    const verified =
      fields.cert_url === this.certUrl &&
      verifyTransmission(
        eventBytes,
        {
          authAlgo: fields.auth_algo,
          transmissionId: fields.transmission_id,
          transmissionTime: fields.transmission_time,
          transmissionSig: fields.transmission_sig,
          webhookId: fields.webhook_id,
        },
        this.signing.certificate,
      );
    return { status: 200, body: { verification_status: verified ? 'SUCCESS' : 'FAILURE' } };
  }

  /** The buyer's window (`approve` / `payer-action` link): approves or cancels, then goes back. */
  private approvalPage(call: RecordedCall): { status: number; raw: string; headers: Record<string, string> } {
    const order = this.orders.get(call.query.token ?? '');
    const html = (text: string) => `<!doctype html><title>Fake gateway B</title><p id="result">${text}</p>`;
    if (!order) return { status: 404, raw: html('Unknown order'), headers: { 'Content-Type': 'text/html' } };
    const back = (target: string | undefined, params: Record<string, string>) => {
      if (!target) return undefined;
      const location = new URL(target);
      for (const [k, v] of Object.entries(params)) location.searchParams.set(k, v);
      return location.toString();
    };
    if (this.buyerDecision === 'cancel') {
      const location = back(order.experienceContext?.cancel_url, { token: order.id });
      return location ? { status: 302, raw: '', headers: { Location: location } } : { status: 200, raw: html('Cancelled'), headers: { 'Content-Type': 'text/html' } };
    }
    if (order.status === 'CREATED' || order.status === 'PAYER_ACTION_REQUIRED') this.orders.approve(order.id);
    const payerId = String((order.payer?.payer_id as string | undefined) ?? '');
    const location = back(order.experienceContext?.return_url, { token: order.id, PayerID: payerId });
    return location ? { status: 302, raw: '', headers: { Location: location } } : { status: 200, raw: html('Approved'), headers: { 'Content-Type': 'text/html' } };
  }
}

function parseBody(call: RecordedCall): unknown {
  if (call.rawBody.trim() === '') return undefined;
  if (/^application\/x-www-form-urlencoded\b/i.test(call.headers['content-type'] ?? '')) return Object.fromEntries(new URLSearchParams(call.rawBody));
  try {
    return JSON.parse(call.rawBody) as unknown;
  } catch {
    return undefined;
  }
}

function fingerprint(call: RecordedCall): string {
  return `${call.method} ${call.path} ${call.rawBody}`;
}

/** Starts a fake on a local port (random by default). Stop it with `await fake.stop()`. */
export async function startFakeGatewayB(options: FakeGatewayBOptions = {}, port = 0): Promise<FakeGatewayB> {
  return new FakeGatewayB(options).start(port);
}
