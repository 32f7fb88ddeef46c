import { Inject, Injectable, Logger } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import type Stripe from 'stripe';
import { DataSource, type EntityManager } from 'typeorm';
import { InvalidParamsError } from '../../../common/errors/index.js';
import { APP_CONFIG, type AppConfig, CHECKOUT_VERSION } from '../../../config/index.js';
import { Clock } from '../../../common/clock/index.js';
import type { GatewayMode } from '../../gateways/index.js';
import { OptionsService } from '../../settings/index.js';
import { type GatewayAWebhookEndpoint, MalformedGatewayAAnswer, parseDeletedWebhookEndpoint, parseWebhookEndpoint } from '../client/gateway-a-answers.js';
import { GatewayAClientFactory, type StripeClient } from '../client/gateway-a-client.factory.js';
import { InstallationScope } from '../client/installation-scope.js';
import { CheckoutPausedError, describeGatewayFailure, gatewayStatusOf } from '../client/gateway-a-errors.js';
import { gatewayAOption } from '../gateway-a-options.js';
import { GATEWAY_A_WEBHOOK_EVENTS, type GatewayAWebhookRecord, gatewayAWebhookUrl, isContractEventSet } from './webhook-contract.js';

export type ContractStatus = 'unconfigured' | 'unverified' | 'verified' | 'failed';

/** The webhook state of a mode as the admin sees it: the secret only as a mask. */
export interface WebhookContractView {
  mode: GatewayMode;
  management: 'automatic' | 'manual' | null;
  status: ContractStatus;
  checkout_paused: boolean;
  endpoint_id: string | null;
  signing_secret: string | null;
  verified_at: string | null;
  last_error: string | null;
}

export type EndpointCheck =
  | { ok: true; endpoint: GatewayAWebhookEndpoint }
  /** `retryable`: the read itself failed (network, 5xx, an answer that is no endpoint), the endpoint may well be fine. */
  | { ok: false; reason: string; retryable?: boolean; endpoint?: GatewayAWebhookEndpoint };

/**
 * The gateway-A event contract per mode (docs/decisions.md §7): provisioning a managed endpoint with the
 * 12 events of docs/interface.md, reading it back, the manual path, and the pause of checkout until verified.
 * Gateway calls are never made inside a database transaction: call first, then persist.
 */
@Injectable()
export class GatewayAContractService {
  private readonly logger = new Logger(GatewayAContractService.name);

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly options: OptionsService,
    private readonly clients: GatewayAClientFactory,
    private readonly clock: Clock,
    private readonly dataSource: DataSource,
    private readonly scope: InstallationScope,
  ) {}

  // --- reads -----------------------------------------------------------------------------------------

  async getRecord(mode: GatewayMode, manager?: EntityManager): Promise<GatewayAWebhookRecord | null> {
    return this.options.get<GatewayAWebhookRecord | null>(gatewayAOption.webhook(mode), null, manager);
  }

  /** The mode's webhook signing secret, for verifying deliveries; null when none is configured. */
  async getSigningSecret(mode: GatewayMode): Promise<string | null> {
    return this.options.getSecret(gatewayAOption.webhookSecret(mode));
  }

  async isCheckoutAvailable(mode: GatewayMode): Promise<boolean> {
    const record = await this.getRecord(mode);
    if (record?.status !== 'verified') return false;
    return (await this.getSigningSecret(mode)) !== null;
  }

  /** Throws 409 `checkout_paused` unless the mode's contract is verified (and a secret is stored). */
  async assertCheckoutAvailable(mode: GatewayMode): Promise<void> {
    if (!(await this.isCheckoutAvailable(mode))) throw new CheckoutPausedError(mode);
  }

  async view(mode: GatewayMode): Promise<WebhookContractView> {
    const record = await this.getRecord(mode);
    const mask = await this.options.getSecretMask(gatewayAOption.webhookSecret(mode));
    const status: ContractStatus = record ? (record.status ?? 'unverified') : 'unconfigured';
    return {
      mode,
      management: record?.management ?? null,
      status,
      checkout_paused: !(status === 'verified' && mask !== null),
      endpoint_id: record?.endpoint_id ?? null,
      signing_secret: mask,
      verified_at: record?.verified_at ?? null,
      last_error: record?.last_error ?? null,
    };
  }

  // --- writes ----------------------------------------------------------------------------------------

  async saveRecord(mode: GatewayMode, record: GatewayAWebhookRecord, manager?: EntityManager): Promise<void> {
    await this.options.set(gatewayAOption.webhook(mode), { ...record, updated_at: this.clock.now().toISOString() }, manager);
  }

  /** Forgets the mode's webhook state and secret (disconnect, or before a fresh connect). */
  async clear(mode: GatewayMode, manager?: EntityManager): Promise<void> {
    await this.options.delete([gatewayAOption.webhook(mode), gatewayAOption.webhookSecret(mode)], manager);
  }

  /**
   * Creates a new managed endpoint for the mode's connected account with exactly the contract's
   * events, stores its id and sealed secret, reads it back and marks the contract verified when
   * url and events match. A failure leaves the credentials alone: the contract is `failed` (so
   * checkout stays paused) and the admin can connect again or configure the webhook manually.
   */
  async provisionAutomatic(mode: GatewayMode): Promise<GatewayAWebhookRecord> {
    const account = await this.clients.forMode(mode);
    const base: GatewayAWebhookRecord = {
      management: 'automatic',
      endpoint_id: null,
      account_id: account.accountId,
      status: 'unverified',
      events_version: null,
      verified_at: null,
      last_error: null,
    };

    let created: GatewayAWebhookEndpoint;
    const url = gatewayAWebhookUrl(this.config, mode);
    const metadata = this.scope.metadata({ checkout_managed: 'true', checkout_version: CHECKOUT_VERSION, checkout_mode: mode });
    try {
      const answer = await account.client.webhookEndpoints.create(
        {
          url,
          enabled_events: [...GATEWAY_A_WEBHOOK_EVENTS],
          api_version: this.clients.apiVersion as Stripe.WebhookEndpointCreateParams.ApiVersion,
          description: `Checkout (${mode} mode)`,
          metadata,
        },
        { idempotencyKey: this.scope.keys.webhookEndpoint(mode, randomUUID()) },
      );
      // No id and no secret is stored unless the answer is the endpoint just created, with its signing secret.
      created = parseWebhookEndpoint(answer, 'webhookEndpoints.create', { url, metadata, secret: true });
    } catch (error) {
      return this.fail(mode, base, describeGatewayFailure(error), error);
    }

    const record: GatewayAWebhookRecord = { ...base, endpoint_id: created.id, events_version: CHECKOUT_VERSION };
    await this.dataSource.transaction(async (manager) => {
      await this.options.setSecret(gatewayAOption.webhookSecret(mode), created.secret!, manager);
      await this.saveRecord(mode, record, manager);
    });

    const check = await this.checkEndpoint(account.client, created.id, mode);
    if (!check.ok) return this.fail(mode, record, check.reason);
    const verified: GatewayAWebhookRecord = { ...record, status: 'verified', verified_at: this.clock.now().toISOString() };
    await this.saveRecord(mode, verified);
    this.logger.log({ mode, endpoint: created.id }, 'gateway A webhook endpoint provisioned and verified');
    return verified;
  }

  /**
   * Reads an endpoint back and checks it against the contract: our URL for the mode, exactly the
   * 12 events, enabled, and the mode's livemode.
   */
  async checkEndpoint(client: StripeClient, endpointId: string, mode: GatewayMode): Promise<EndpointCheck> {
    let endpoint: GatewayAWebhookEndpoint;
    try {
      endpoint = parseWebhookEndpoint(await client.webhookEndpoints.retrieve(endpointId), 'webhookEndpoints.retrieve', { id: endpointId });
    } catch (error) {
      if (error instanceof MalformedGatewayAAnswer) return { ok: false, reason: describeGatewayFailure(error), retryable: true };
      const status = gatewayStatusOf(error);
      if (status === 404) return { ok: false, reason: 'endpoint not found at the gateway' };
      return { ok: false, reason: describeGatewayFailure(error), retryable: status === undefined || status === 429 || status >= 500 };
    }
    if (endpoint.url !== gatewayAWebhookUrl(this.config, mode)) return { ok: false, reason: 'endpoint URL does not match this site', endpoint };
    if (!isContractEventSet(endpoint.enabled_events)) return { ok: false, reason: 'endpoint event list does not match the contract', endpoint };
    if (endpoint.status !== 'enabled') return { ok: false, reason: 'endpoint is disabled', endpoint };
    if (endpoint.livemode !== (mode === 'live')) return { ok: false, reason: `endpoint is not a ${mode}-mode endpoint`, endpoint };
    return { ok: true, endpoint };
  }

  /**
   * Deletes an endpoint this service created and no longer uses (reconnect, disconnect). Only an
   * endpoint whose metadata marks it as ours is touched; failures are logged, never raised.
   */
  async retireManagedEndpoint(client: StripeClient, endpointId: string): Promise<boolean> {
    try {
      const endpoint = parseWebhookEndpoint(await client.webhookEndpoints.retrieve(endpointId), 'webhookEndpoints.retrieve', { id: endpointId });
      if (endpoint.metadata.checkout_managed !== 'true') return false;
      parseDeletedWebhookEndpoint(await client.webhookEndpoints.del(endpointId), 'webhookEndpoints.del', { id: endpointId });
      this.logger.log({ endpoint: endpointId }, 'retired a managed gateway A webhook endpoint');
      return true;
    } catch (error) {
      if (gatewayStatusOf(error) !== 404) this.logger.warn({ endpoint: endpointId, reason: describeGatewayFailure(error) }, 'could not retire a webhook endpoint');
      return false;
    }
  }

  /**
   * The manual path: an admin manages the endpoint at the gateway and gives us its signing secret.
   * `complete: true` verifies the contract (checkout unpaused); the endpoint is never touched.
   */
  async saveManual(mode: GatewayMode, input: { signingSecret?: string; complete?: boolean }): Promise<WebhookContractView> {
    if (input.signingSecret === undefined && input.complete === undefined) {
      throw new InvalidParamsError({ signing_secret: 'signing_secret or manual_configuration_complete is required' });
    }
    const current = await this.getRecord(mode);
    const alreadyManual = current?.management === 'manual';
    const hasSecret = input.signingSecret !== undefined || (alreadyManual && (await this.getSigningSecret(mode)) !== null);
    if (input.complete === true && !hasSecret) {
      throw new InvalidParamsError({ signing_secret: 'the signing secret of the manually configured endpoint is required to complete the configuration' });
    }
    const status = input.complete === true ? 'verified' : input.complete === false ? 'unverified' : alreadyManual ? (current?.status ?? 'unverified') : 'unverified';
    const record: GatewayAWebhookRecord = {
      management: 'manual',
      endpoint_id: null,
      account_id: current?.account_id ?? null,
      status,
      events_version: null,
      verified_at: status === 'verified' ? (input.complete === true ? this.clock.now().toISOString() : (current?.verified_at ?? null)) : null,
      last_error: null,
    };
    await this.dataSource.transaction(async (manager) => {
      if (input.signingSecret !== undefined) await this.options.setSecret(gatewayAOption.webhookSecret(mode), input.signingSecret, manager);
      await this.saveRecord(mode, record, manager);
    });
    return this.view(mode);
  }

  private async fail(mode: GatewayMode, record: GatewayAWebhookRecord, reason: string, error?: unknown): Promise<GatewayAWebhookRecord> {
    const failed: GatewayAWebhookRecord = { ...record, status: 'failed', verified_at: null, last_error: reason };
    await this.saveRecord(mode, failed);
    this.logger.warn({ mode, reason, status: gatewayStatusOf(error) }, 'gateway A webhook contract not verified; checkout stays paused');
    return failed;
  }
}
