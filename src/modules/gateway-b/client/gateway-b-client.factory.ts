import { Inject, Injectable } from '@nestjs/common';
import { createHash } from 'node:crypto';
import { Clock } from '../../../common/clock/index.js';
import { ConflictError } from '../../../common/errors/index.js';
import { Metrics } from '../../../common/metrics/index.js';
import type { GatewayMode } from '../../gateways/index.js';
import { OptionsService } from '../../settings/index.js';
import { APP_CONFIG, type AppConfig } from '../../../config/index.js';
import { GATEWAY_B_CONFIG, type GatewayBConfig } from '../gateway-b.config.js';
import { gatewayBOption } from '../gateway-b-options.js';
import { GatewayBClient } from './gateway-b-client.js';

/** 409 `checkout_invalid_state`: the mode has no stored client id and secret. */
export class GatewayBNotConnectedError extends ConflictError {
  constructor(mode: GatewayMode) {
    super('checkout_invalid_state', `Gateway B is not connected in ${mode} mode.`);
  }
}

/** Clients kept at once: a few modes × credential changes; the oldest goes first. */
const MAX_CLIENTS = 8;

/**
 * Builds the gateway-B clients: one per mode and credentials, aimed at the mode's base URL
 * (GATEWAY_B_API_BASE_TEST / _LIVE), each attempt limited by GATEWAY_TIMEOUT_MS. A client owns its access-token
 * cache, so clients are kept (by mode, base URL, client id and a digest of the secret) and the
 * token lives across requests until it expires; new credentials get a new client.
 */
@Injectable()
export class GatewayBClientFactory {
  private readonly clients = new Map<string, GatewayBClient>();

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(GATEWAY_B_CONFIG.token) private readonly ownConfig: GatewayBConfig,
    private readonly options: OptionsService,
    private readonly clock: Clock,
    private readonly metrics: Metrics,
  ) {}

  baseUrl(mode: GatewayMode): string {
    return mode === 'live' ? this.ownConfig.apiBaseLive : this.ownConfig.apiBaseTest;
  }

  /** The client for these credentials in `mode` (reused while it is cached). */
  forCredentials(mode: GatewayMode, clientId: string, clientSecret: string): GatewayBClient {
    const key = this.keyOf(mode, clientId, clientSecret);
    const cached = this.clients.get(key);
    if (cached) {
      // Most recently used last, so the oldest is evicted first.
      this.clients.delete(key);
      this.clients.set(key, cached);
      return cached;
    }
    const client = new GatewayBClient({ baseUrl: this.baseUrl(mode), clientId, clientSecret }, {
      timeoutMs: this.config.gatewayTimeoutMs,
      clock: this.clock,
      timer: (operation, call) => this.metrics.timeProviderCall('gateway_b', operation, call),
    });
    this.clients.set(key, client);
    while (this.clients.size > MAX_CLIENTS) this.clients.delete(this.clients.keys().next().value as string);
    return client;
  }

  /** Drops the client of these credentials (they were refused). */
  forget(mode: GatewayMode, clientId: string, clientSecret: string): void {
    this.clients.delete(this.keyOf(mode, clientId, clientSecret));
  }

  /** The client of the mode's stored credentials, or null when the mode is not connected. */
  async findForMode(mode: GatewayMode): Promise<GatewayBClient | null> {
    const clientId = await this.options.get<string | null>(gatewayBOption.credential(mode, 'client_id'), null);
    const secret = await this.options.getSecret(gatewayBOption.credential(mode, 'secret'));
    if (!clientId || !secret) return null;
    return this.forCredentials(mode, clientId, secret);
  }

  async forMode(mode: GatewayMode): Promise<GatewayBClient> {
    const client = await this.findForMode(mode);
    if (!client) throw new GatewayBNotConnectedError(mode);
    return client;
  }

  private keyOf(mode: GatewayMode, clientId: string, clientSecret: string): string {
    return createHash('sha256').update(JSON.stringify([mode, this.baseUrl(mode), clientId, clientSecret])).digest('base64url');
  }
}
