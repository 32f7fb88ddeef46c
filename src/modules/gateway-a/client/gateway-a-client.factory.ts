import { Inject, Injectable } from '@nestjs/common';
import type Stripe from 'stripe';
import { ConflictError } from '../../../common/errors/index.js';
import { Metrics } from '../../../common/metrics/index.js';
import { APP_CONFIG, type AppConfig, ConfigError } from '../../../config/index.js';
import type { GatewayMode } from '../../gateways/index.js';
import { OptionsService } from '../../settings/index.js';
import { GATEWAY_A_CONFIG, type GatewayAConfig } from '../gateway-a.config.js';
import { gatewayAOption } from '../gateway-a-options.js';
import { stripeSdk } from './stripe-sdk.js';

export type StripeClient = Stripe.Stripe;

/** Where gateway-A calls go: the free plan's proxy or, on Pro, the gateway's API itself. */
export interface GatewayARoute {
  routing: 'proxy' | 'direct';
  /** The origin, e.g. `https://proxy.checkout.example` */
  origin: string;
  host: string;
  port: number;
  protocol: 'http' | 'https';
}

export interface ClientOptions {
  /** The SDK's own retries of network errors, 409 and 5xx (POSTs carry an idempotency key). */
  maxNetworkRetries?: number;
  timeoutMs?: number;
}

export const DEFAULT_MAX_NETWORK_RETRIES = 2;

/**
 * Calls made while a payer waits (intents, checkout, the re-read before a change): one retry only,
 * so a slow or unreachable gateway is answered with a clear 503 within about two timeouts
 * (GATEWAY_TIMEOUT_MS each) instead of holding the payer's request.
 */
export const PAYER_WAITING: ClientOptions = { maxNetworkRetries: 1 };

/** A mode's connected account: its gateway user id and a client keyed with its secret key. */
export interface GatewayAAccount {
  mode: GatewayMode;
  accountId: string;
  client: StripeClient;
}

/** 409 `checkout_invalid_state` (docs/decisions.md §2): the mode has no stored credentials. */
export class GatewayNotConnectedError extends ConflictError {
  constructor(mode: GatewayMode) {
    super('checkout_invalid_state', `Gateway A is not connected in ${mode} mode.`);
  }
}

/** The SDK reaches an origin through `host`/`port`/`protocol`; it cannot take a path prefix. */
export function parseGatewayOrigin(url: string, variable: string): Omit<GatewayARoute, 'routing'> {
  const parsed = new URL(url);
  if (parsed.pathname !== '/' || parsed.search || parsed.hash || parsed.username || parsed.password) {
    throw new ConfigError(variable, 'must be an origin (scheme, host and optional port) without a path');
  }
  const protocol = parsed.protocol === 'http:' ? 'http' : 'https';
  return { origin: parsed.origin, host: parsed.hostname, port: parsed.port ? Number(parsed.port) : protocol === 'http' ? 80 : 443, protocol };
}

/**
 * Builds `stripe` SDK clients aimed by configuration: CHECKOUT_PROXY_URL on the free plan,
 * GATEWAY_A_API_BASE on Pro (docs/decisions.md §7). The API version is the SDK's pinned one.
 */
@Injectable()
export class GatewayAClientFactory {
  readonly route: GatewayARoute;
  /** The OAuth pages and token exchange are always the proxy's (it holds the platform identity). */
  readonly proxy: Omit<GatewayARoute, 'routing'>;
  private readonly clients = new Map<string, StripeClient>();
  /** GATEWAY_TIMEOUT_MS: one attempt's limit, retries get their own. */
  private readonly timeoutMs: number;

  constructor(
    @Inject(APP_CONFIG) config: AppConfig,
    @Inject(GATEWAY_A_CONFIG.token) ownConfig: GatewayAConfig,
    private readonly options: OptionsService,
    private readonly metrics: Metrics,
  ) {
    this.timeoutMs = config.gatewayTimeoutMs;
    this.proxy = parseGatewayOrigin(ownConfig.proxyUrl, 'CHECKOUT_PROXY_URL');
    this.route =
      config.plan === 'free'
        ? { routing: 'proxy', ...this.proxy }
        : { routing: 'direct', ...parseGatewayOrigin(ownConfig.apiBase, 'GATEWAY_A_API_BASE') };
  }

  /** The API version every client speaks and every provisioned endpoint is pinned to. */
  get apiVersion(): string {
    return stripeSdk().API_VERSION;
  }

  /** A client acting with one secret key. Clients are reused per key and options. */
  forSecretKey(secretKey: string, options: ClientOptions = {}): StripeClient {
    const maxNetworkRetries = options.maxNetworkRetries ?? DEFAULT_MAX_NETWORK_RETRIES;
    const timeout = options.timeoutMs ?? this.timeoutMs;
    const cacheKey = `${maxNetworkRetries}:${timeout}:${secretKey}`;
    let client = this.clients.get(cacheKey);
    if (!client) {
      const Sdk = stripeSdk();
      client = new Sdk(secretKey, {
        host: this.route.host,
        port: this.route.port,
        protocol: this.route.protocol,
        maxNetworkRetries,
        timeout,
        telemetry: false,
        appInfo: { name: 'checkout-api' },
      });
      // Each HTTP attempt the SDK made, timed by the SDK itself (a connection that never answered is not reported).
      client.on('response', (event: { method: string; path: string; status: number; elapsed: number }) => this.metrics.observeProviderCall('gateway_a', providerOperation(event.method, event.path), event.elapsed / 1000, event.status >= 400));
      this.clients.set(cacheKey, client);
    }
    return client;
  }

  /** The connected account of a mode, or GatewayNotConnectedError. */
  async forMode(mode: GatewayMode, options: ClientOptions = {}): Promise<GatewayAAccount> {
    const account = await this.findForMode(mode, options);
    if (!account) throw new GatewayNotConnectedError(mode);
    return account;
  }

  async findForMode(mode: GatewayMode, options: ClientOptions = {}): Promise<GatewayAAccount | null> {
    const accountId = await this.options.get<string | null>(gatewayAOption.credential(mode, 'user_id'), null);
    const secretKey = await this.options.getSecret(gatewayAOption.credential(mode, 'secret_key'));
    if (!accountId || !secretKey) return null;
    return { mode, accountId, client: this.forSecretKey(secretKey, options) };
  }
}

/**
 * The metrics' operation of a gateway A request: method and path with every id segment (one with
 * a digit, past the version) as `{id}`: `POST /v1/payment_intents/{id}/confirm`.
 */
export function providerOperation(method: string, path: string): string {
  const segments = path.split('?')[0].split('/').map((segment, index) => (index > 1 && /\d/.test(segment) ? '{id}' : segment));
  return `${method} ${segments.join('/')}`;
}
