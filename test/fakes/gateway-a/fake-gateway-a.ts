import { createHash, randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { LoopbackServer } from '../loopback-server.js';
import { FakeStripeError, type StripeErrorBody } from './fake-errors.js';
import { FakeMoneyAfter } from './fake-money-after.js';
import { type FakeAccount, FakeResources, fakeId, type Json } from './fake-resources.js';
import { type FormObject, parseStripeForm } from './form-body.js';
import { accountFields, balanceFields } from './fake-objects.js';

/** One request as the fake received it, for assertions. Header names are lower case. */
export interface RecordedRequest {
  method: string;
  path: string;
  query: FormObject;
  headers: Record<string, string>;
  body: FormObject;
  rawBody: string;
  apiKey?: string;
  idempotencyKey?: string;
  stripeAccount?: string;
  stripeVersion?: string;
  /** Status the fake answered with (set once answered). */
  status?: number;
  /** True when the answer was replayed from the idempotency cache. */
  replayed?: boolean;
  /** The answer's JSON body (set once answered; none for a redirect). */
  answer?: unknown;
  /** True when the answer was a failure injected with `fake.fail`, not the fake's own handling. */
  injected?: boolean;
}

/**
 * An answer given instead of the real handling, for the next `times` matching requests: by default
 * the gateway's error body `{error: {…}}` with `status`; with `body`, exactly that JSON (a fault: a
 * proxy or gateway answering `{}` or `{"message": …}` with a 5xx, or even a 200).
 */
export interface InjectedFailure {
  method?: string;
  path: string | RegExp;
  status: number;
  error?: Partial<StripeErrorBody>;
  /** The JSON answered as it is, instead of an error body built from `error`. */
  body?: unknown;
  times?: number;
  /** Sets `Stripe-Should-Retry`, which the SDK obeys when deciding to retry. */
  shouldRetry?: boolean;
}

export interface OAuthGrant {
  code: string;
  accountId: string;
  livemode: boolean;
  accessToken: string;
  publishableKey: string;
  used: boolean;
}

export interface FakeGatewayAOptions {
  /** Milliseconds every API answer is delayed (to widen race windows). */
  latencyMs?: number;
}

type Handler = (ctx: { account: FakeAccount; body: FormObject; query: FormObject; params: string[] }) => Json;

interface Route {
  method: string;
  pattern: RegExp;
  handler: Handler;
}

interface CachedAnswer {
  fingerprint: string;
  status: number;
  body: unknown;
}

/**
 * A local stand-in for the card gateway's API (and for the free-plan proxy, which speaks the same
 * API plus the OAuth pages): form-encoded requests, JSON answers with `object` fields, the
 * gateway's error bodies and statuses, `Idempotency-Key` replay, and a record of every request.
 */
export class FakeGatewayA extends LoopbackServer {
  readonly resources = new FakeResources();
  /** Refunds, disputes and the event list: what happens after a payment, as the dashboard and the API see it. */
  readonly moneyAfter = new FakeMoneyAfter(this.resources);
  readonly requests: RecordedRequest[] = [];
  /**
   * Every request with its answer since the fake started (`clearRequests` leaves it alone), for
   * the contract checks that hold both to the provider's reference (test/contracts/gateway-a/).
   */
  readonly exchanges: RecordedRequest[] = [];
  readonly grants = new Map<string, OAuthGrant>();
  /** What the OAuth page does when the browser arrives: approve (code) or deny (error). */
  oauthDecision: 'approve' | 'deny' = 'approve';
  latencyMs: number;

  private readonly routes: Route[] = [];
  private readonly failures: Array<InjectedFailure & { remaining: number }> = [];
  private readonly idempotency = new Map<string, CachedAnswer>();
  private readonly revokedKeys = new Set<string>();
  private readonly keyAccounts = new Map<string, string>();

  constructor(options: FakeGatewayAOptions = {}) {
    super('fake gateway A');
    this.latencyMs = options.latencyMs ?? 0;
    this.defineRoutes();
  }

  /** Requests whose method matches and whose path equals `path` (or matches the RegExp). */
  requestsTo(method: string, path: string | RegExp): RecordedRequest[] {
    return this.requests.filter((r) => r.method === method && (typeof path === 'string' ? r.path === path : path.test(r.path)));
  }

  clearRequests(): void {
    this.requests.length = 0;
  }

  fail(failure: InjectedFailure): void {
    this.failures.push({ ...failure, remaining: failure.times ?? 1 });
  }

  clearFailures(): void {
    this.failures.length = 0;
  }

  /** Makes a key answer 401 from now on (a revoked or rolled key). */
  revokeKey(key: string): void {
    this.revokedKeys.add(key);
  }

  /** An authorization code as the OAuth page would hand out, for driving the callback directly. */
  issueOAuthCode(options: { livemode?: boolean; accountId?: string } = {}): OAuthGrant {
    const livemode = options.livemode ?? false;
    const mode = livemode ? 'live' : 'test';
    const grant: OAuthGrant = {
      code: fakeId('ac', 32),
      accountId: options.accountId ?? fakeId('acct', 16),
      livemode,
      accessToken: `sk_${mode}_${randomBytes(24).toString('hex')}`,
      publishableKey: `pk_${mode}_${randomBytes(24).toString('hex')}`,
      used: false,
    };
    this.grants.set(grant.code, grant);
    this.keyAccounts.set(grant.accessToken, grant.accountId);
    return grant;
  }

  /**
   * Test control: the mode a key acts in when it is not its prefix's (the real gateway goes by
   * the prefix; this stands for an API address that answers for another mode).
   */
  readonly keyLivemode = new Map<string, boolean>();

  /** The account a secret key acts for: the OAuth grant's account, or one derived from the key. */
  accountFor(key: string): FakeAccount {
    const id = this.keyAccounts.get(key) ?? `acct_${createHash('sha256').update(key).digest('hex').slice(0, 16)}`;
    return { id, livemode: this.keyLivemode.get(key) ?? /^(sk|rk)_live_/.test(key) };
  }

  // --- HTTP plumbing --------------------------------------------------------------------------------

  protected async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const rawBody = Buffer.concat(chunks).toString('utf8');
    const url = new URL(req.url ?? '/', 'http://fake');
    const headers = Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k.toLowerCase(), Array.isArray(v) ? v.join(', ') : (v ?? '')]));
    const record: RecordedRequest = {
      method: req.method ?? 'GET',
      path: url.pathname,
      query: {},
      headers,
      body: {},
      rawBody,
      apiKey: /^Bearer (.+)$/.exec(headers.authorization ?? '')?.[1],
      idempotencyKey: headers['idempotency-key'],
      stripeAccount: headers['stripe-account'],
      stripeVersion: headers['stripe-version'],
    };
    this.requests.push(record);
    this.exchanges.push(record);
    if (this.latencyMs) await new Promise((resolve) => setTimeout(resolve, this.latencyMs));
    try {
      record.query = parseStripeForm(url.search.slice(1));
      record.body = parseStripeForm(rawBody);
    } catch (error) {
      return this.send(res, record, 400, { error: { type: 'invalid_request_error', message: (error as Error).message } });
    }
    if (record.path === '/oauth/authorize') return this.oauthAuthorize(res, record, url);
    if (record.path === '/oauth/token') return this.oauthToken(res, record);
    this.api(res, record);
  }

  private send(res: ServerResponse, record: RecordedRequest, status: number, body: unknown, headers: Record<string, string> = {}): void {
    record.status = status;
    record.answer = body;
    res.writeHead(status, { 'Content-Type': 'application/json', 'Request-Id': fakeId('req', 14), ...headers });
    res.end(JSON.stringify(body));
  }

  private takeFailure(record: RecordedRequest): InjectedFailure | undefined {
    const index = this.failures.findIndex(
      (f) => (!f.method || f.method === record.method) && (typeof f.path === 'string' ? f.path === record.path : f.path.test(record.path)),
    );
    if (index === -1) return undefined;
    const failure = this.failures[index];
    failure.remaining -= 1;
    if (failure.remaining <= 0) this.failures.splice(index, 1);
    return failure;
  }

  private api(res: ServerResponse, record: RecordedRequest): void {
    const failure = this.takeFailure(record);
    if (failure) {
      const error = { type: failure.status >= 500 ? 'api_error' : 'invalid_request_error', message: 'Injected failure', ...failure.error };
      const headers: Record<string, string> = failure.shouldRetry === undefined ? {} : { 'Stripe-Should-Retry': String(failure.shouldRetry) };
      record.injected = true;
      return this.send(res, record, failure.status, failure.body !== undefined ? failure.body : { error }, headers);
    }
    const key = record.apiKey;
    if (!key) {
      return this.send(res, record, 401, {
        error: { type: 'invalid_request_error', message: 'You did not provide an API key. You need to provide your API key in the Authorization header.' },
      });
    }
    if (!/^(sk|rk)_(test|live)_[A-Za-z0-9]{8,}$/.test(key) || this.revokedKeys.has(key)) {
      return this.send(res, record, 401, {
        error: { type: 'invalid_request_error', code: 'api_key_expired', message: `Invalid API Key provided: ${key.slice(0, 8)}****${key.slice(-4)}` },
      });
    }
    const route = this.routes.find((r) => r.method === record.method && r.pattern.test(record.path));
    if (!route) {
      return this.send(res, record, 404, {
        error: { type: 'invalid_request_error', message: `Unrecognized request URL (${record.method}: ${record.path}).` },
      });
    }

    // Same key + same request → the first answer again; same key + other parameters → refused.
    const cacheKey = record.method === 'POST' && record.idempotencyKey ? `${key}|${record.stripeAccount ?? ''}|${record.idempotencyKey}` : null;
    const fingerprint = `${record.method} ${record.path} ${record.rawBody}`;
    if (cacheKey) {
      const cached = this.idempotency.get(cacheKey);
      if (cached) {
        if (cached.fingerprint !== fingerprint) {
          return this.send(res, record, 400, {
            error: {
              type: 'idempotency_error',
              message: `Keys for idempotent requests can only be used with the same parameters they were first used with. Try using a key other than '${record.idempotencyKey}' if you meant to execute a different request.`,
            },
          });
        }
        record.replayed = true;
        return this.send(res, record, cached.status, cached.body, { 'Idempotent-Replayed': 'true' });
      }
    }

    const account = record.stripeAccount ? { id: record.stripeAccount, livemode: this.accountFor(key).livemode } : this.accountFor(key);
    let status = 200;
    let body: unknown;
    try {
      const params = route.pattern.exec(record.path)!.slice(1);
      // Deep copies: later changes to stored objects must not alter what a request was answered.
      body = JSON.parse(JSON.stringify(route.handler({ account, body: record.body, query: record.query, params })));
    } catch (error) {
      if (!(error instanceof FakeStripeError)) throw error;
      status = error.status;
      body = JSON.parse(JSON.stringify({ error: error.body }));
    }
    if (cacheKey) this.idempotency.set(cacheKey, { fingerprint, status, body });
    this.send(res, record, status, body);
  }

  // --- OAuth (the proxy's connect pages) ----------------------------------------------------------

  private oauthAuthorize(res: ServerResponse, record: RecordedRequest, url: URL): void {
    const redirectUri = url.searchParams.get('redirect_uri');
    if (record.method !== 'GET' || !redirectUri) return this.send(res, record, 400, { error: 'invalid_request', error_description: 'redirect_uri is required' });
    const target = new URL(redirectUri);
    const state = url.searchParams.get('state');
    if (this.oauthDecision === 'deny') {
      target.searchParams.set('error', 'access_denied');
      target.searchParams.set('error_description', 'The user denied your request');
    } else {
      const grant = this.issueOAuthCode({ livemode: url.searchParams.get('mode') === 'live' });
      target.searchParams.set('code', grant.code);
      target.searchParams.set('scope', 'read_write');
    }
    if (state !== null) target.searchParams.set('state', state);
    record.status = 302;
    res.writeHead(302, { Location: target.toString() });
    res.end();
  }

  private oauthToken(res: ServerResponse, record: RecordedRequest): void {
    const failure = this.takeFailure(record);
    if (failure) {
      record.injected = true;
      return this.send(res, record, failure.status, failure.body !== undefined ? failure.body : { error: 'server_error', error_description: 'Injected failure' });
    }
    if (record.method !== 'POST') return this.send(res, record, 404, { error: 'invalid_request', error_description: 'POST only' });
    const grantType = record.body.grant_type;
    if (grantType !== 'authorization_code') {
      return this.send(res, record, 400, { error: 'unsupported_grant_type', error_description: `Unsupported grant type: ${String(grantType)}` });
    }
    const code = typeof record.body.code === 'string' ? record.body.code : '';
    const grant = this.grants.get(code);
    if (!grant || grant.used) {
      return this.send(res, record, 400, { error: 'invalid_grant', error_description: `Authorization code does not exist: ${code}` });
    }
    grant.used = true;
    this.send(res, record, 200, {
      access_token: grant.accessToken,
      livemode: grant.livemode,
      refresh_token: `rt_${randomBytes(16).toString('hex')}`,
      token_type: 'bearer',
      stripe_publishable_key: grant.publishableKey,
      stripe_user_id: grant.accountId,
      scope: 'read_write',
    });
  }

  // --- the API's routes -----------------------------------------------------------------------------

  private defineRoutes(): void {
    const r = this.resources;
    const id = '([A-Za-z0-9_]+)';
    const add = (method: string, path: string, handler: Handler) => this.routes.push({ method, pattern: new RegExp(`^${path}$`), handler });

    // The account the key acts for (the SDK's `accounts.retrieve(null)`).
    // (At the pinned API version the account object carries no `livemode`; the balance does.)
    add('GET', '/v1/account', ({ account }) => accountFields(account));
    add('GET', '/v1/balance', ({ account }) => balanceFields(account.livemode));
    add('POST', '/v1/customers', ({ account, body }) => r.createCustomer(account, body));
    add('GET', '/v1/customers', ({ account, query }) => r.listCustomers(account, query));
    add('GET', `/v1/customers/${id}`, ({ account, params }) => r.retrieveCustomer(account, params[0]));
    add('POST', `/v1/customers/${id}`, ({ account, body, params }) => r.updateCustomer(account, params[0], body));

    add('POST', '/v1/products', ({ account, body }) => r.createProduct(account, body));
    add('GET', `/v1/products/${id}`, ({ account, params }) => r.retrieveProduct(account, params[0]));
    add('POST', '/v1/prices', ({ account, body }) => r.createPrice(account, body));
    add('GET', `/v1/prices/${id}`, ({ account, params }) => r.retrievePrice(account, params[0]));

    add('POST', '/v1/payment_intents', ({ account, body }) => r.createPaymentIntent(account, body));
    add('GET', `/v1/payment_intents/${id}`, ({ account, params, query }) => r.retrievePaymentIntent(account, params[0], query));
    add('POST', `/v1/payment_intents/${id}`, ({ account, body, params }) => r.updatePaymentIntent(account, params[0], body));
    add('POST', `/v1/payment_intents/${id}/confirm`, ({ account, body, params }) => r.confirmPaymentIntent(account, params[0], body));
    add('POST', `/v1/payment_intents/${id}/capture`, ({ account, body, params }) => r.capturePaymentIntent(account, params[0], body));
    add('POST', `/v1/payment_intents/${id}/cancel`, ({ account, body, params }) => r.cancelPaymentIntent(account, params[0], body));

    add('POST', '/v1/setup_intents', ({ account, body }) => r.createSetupIntent(account, body));
    add('GET', `/v1/setup_intents/${id}`, ({ account, params }) => r.retrieveSetupIntent(account, params[0]));
    add('POST', `/v1/setup_intents/${id}/confirm`, ({ account, body, params }) => r.confirmSetupIntent(account, params[0], body));
    add('POST', `/v1/setup_intents/${id}/cancel`, ({ account, body, params }) => r.cancelSetupIntent(account, params[0], body));

    add('POST', '/v1/subscriptions', ({ account, body }) => r.createSubscription(account, body));
    add('GET', `/v1/subscriptions/${id}`, ({ account, params, query }) => r.retrieveSubscription(account, params[0], query));
    add('POST', `/v1/subscriptions/${id}`, ({ account, body, params }) => r.updateSubscription(account, params[0], body));
    add('DELETE', `/v1/subscriptions/${id}`, ({ account, params }) => r.cancelSubscription(account, params[0]));
    add('GET', `/v1/invoices/${id}`, ({ account, params, query }) => r.retrieveInvoice(account, params[0], query));
    add('POST', `/v1/invoices/${id}/pay`, ({ account, body, params }) => r.payInvoice(account, params[0], body));
    add('GET', '/v1/invoice_payments', ({ account, query }) => r.listInvoicePayments(account, query));

    const m = this.moneyAfter;
    add('POST', '/v1/refunds', ({ account, body }) => m.createRefund(account, body));
    add('GET', '/v1/refunds', ({ account, query }) => m.listRefunds(account, query));
    add('GET', `/v1/refunds/${id}`, ({ account, params }) => m.retrieveRefund(account, params[0]));
    add('GET', '/v1/disputes', ({ account, query }) => m.listDisputes(account, query));
    add('GET', `/v1/disputes/${id}`, ({ account, params }) => m.retrieveDispute(account, params[0]));
    add('GET', '/v1/events', ({ account, query }) => m.listEvents(account, query));

    add('POST', '/v1/webhook_endpoints', ({ account, body }) => r.createWebhookEndpoint(account, body));
    add('GET', '/v1/webhook_endpoints', ({ account, query }) => r.listWebhookEndpoints(account, query));
    add('GET', `/v1/webhook_endpoints/${id}`, ({ account, params }) => r.retrieveWebhookEndpoint(account, params[0]));
    add('POST', `/v1/webhook_endpoints/${id}`, ({ account, body, params }) => r.updateWebhookEndpoint(account, params[0], body));
    add('DELETE', `/v1/webhook_endpoints/${id}`, ({ account, params }) => r.deleteWebhookEndpoint(account, params[0]));
  }
}

/** Starts a fake on a local port (random by default). Stop it with `await fake.stop()`. */
export async function startFakeGatewayA(options: FakeGatewayAOptions = {}, port = 0): Promise<FakeGatewayA> {
  return new FakeGatewayA(options).start(port);
}
