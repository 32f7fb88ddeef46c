import { Inject, Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { InvalidParamsError } from '../../common/errors/index.js';
import { APP_CONFIG, type AppConfig } from '../../config/index.js';
import type { CheckoutGateway } from '../forms/index.js';
import { GATEWAY_METHODS } from '../forms/index.js';
import { OptionsService } from '../settings/index.js';
import { GatewayAClientFactory } from './gateway-a/gateway-a-client.factory.js';
import { GatewayAContractService } from './gateway-a/gateway-a-contract.service.js';
import { type GatewayMode, gatewayOption, GatewayStateService } from './gateway-state.service.js';
import type {
  ConfigurableMethod,
  DeviceWalletSettingsDto,
  GatewayStatusDto,
  PaymentMethodSettingsDto,
  SaveWebhookSettingsDto,
  WebhookSettingsDto,
} from './payment-gateway.dto.js';

/** Methods only the Pro plan may activate: bank debit (decisions §10, spec "Bank debit: Pro-only"). */
const PRO_ONLY_METHODS = new Set(['sepa']);

export interface DeviceWalletSettings {
  domain_verification: boolean;
  domains: string[];
}

/**
 * The admin's gateway routes (except the connect flow): mode, active methods, webhook settings,
 * per-method settings and disconnect. Everything is stored in options under `gatewayOption` names.
 */
@Injectable()
export class PaymentGatewayService {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly state: GatewayStateService,
    private readonly options: OptionsService,
    private readonly contract: GatewayAContractService,
    private readonly clients: GatewayAClientFactory,
    private readonly dataSource: DataSource,
  ) {}

  async status(gateway: CheckoutGateway): Promise<GatewayStatusDto> {
    const mode = await this.state.getMode(gateway);
    return {
      gateway,
      mode,
      is_connected: (await this.state.isConnected(gateway, mode)) ? 1 : 0,
      is_live: mode === 'live' ? 1 : 0,
      active_payment_methods: await this.state.getActiveMethods(gateway),
      checkout_paused: gateway === 'gateway_a' ? !(await this.contract.isCheckoutAvailable(mode)) : null,
    };
  }

  async setMode(gateway: CheckoutGateway, mode: GatewayMode): Promise<GatewayStatusDto> {
    await this.state.setMode(gateway, mode);
    return this.status(gateway);
  }

  async setPaymentMethods(gateway: CheckoutGateway, methods: string[]): Promise<GatewayStatusDto> {
    const allowed: readonly string[] = GATEWAY_METHODS[gateway];
    const foreign = methods.filter((method) => !allowed.includes(method));
    if (foreign.length > 0) throw new InvalidParamsError({ methods: `${foreign.join(', ')} is not a payment method of ${gateway}` });
    const proOnly = methods.filter((method) => PRO_ONLY_METHODS.has(method));
    if (proOnly.length > 0 && this.config.plan !== 'pro') {
      throw new InvalidParamsError({ methods: `${proOnly.join(', ')} (bank debit) requires the Pro plan` });
    }
    await this.state.setActiveMethods(gateway, methods);
    return this.status(gateway);
  }

  /**
   * Disconnects the gateway in its current mode: credentials and the mode's webhook state go.
   * Gateway A: the endpoint this service created is retired at the gateway first (best effort;
   * a manual endpoint is never touched).
   */
  async disconnect(gateway: CheckoutGateway): Promise<GatewayStatusDto> {
    const mode = await this.state.getMode(gateway);
    if (gateway === 'gateway_a') {
      const record = await this.contract.getRecord(mode);
      if (record?.management === 'automatic' && record.endpoint_id) {
        const account = await this.clients.findForMode(mode, { maxNetworkRetries: 0, timeoutMs: 5_000 });
        if (account && (!record.account_id || record.account_id === account.accountId)) {
          await this.contract.retireManagedEndpoint(account.client, record.endpoint_id);
        }
      }
      await this.dataSource.transaction(async (manager) => {
        await this.options.delete(
          [gatewayOption.gatewayA(mode, 'user_id'), gatewayOption.gatewayA(mode, 'public_key'), gatewayOption.gatewayA(mode, 'secret_key')],
          manager,
        );
        await this.contract.clear(mode, manager);
      });
    } else {
      await this.options.delete([
        gatewayOption.gatewayB(mode, 'email'),
        gatewayOption.gatewayB(mode, 'client_id'),
        gatewayOption.gatewayB(mode, 'secret'),
        gatewayOption.gatewayBWebhookId(mode),
      ]);
    }
    return this.status(gateway);
  }

  async saveWebhookSettings(input: SaveWebhookSettingsDto): Promise<WebhookSettingsDto> {
    if (input.gateway === 'gateway_a') {
      if (input.webhook_id !== undefined) throw new InvalidParamsError({ webhook_id: 'webhook_id is for gateway_b' });
      const view = await this.contract.saveManual(input.mode, { signingSecret: input.signing_secret, complete: input.manual_configuration_complete });
      const { mode, ...rest } = view;
      return { gateway: 'gateway_a', mode, ...rest };
    }
    const misplaced = (['signing_secret', 'manual_configuration_complete'] as const).filter((field) => input[field] !== undefined);
    if (misplaced.length > 0) throw new InvalidParamsError(Object.fromEntries(misplaced.map((field) => [field, `${field} is for gateway_a`])));
    await this.options.setSecret(gatewayOption.gatewayBWebhookId(input.mode), input.webhook_id!);
    return { gateway: 'gateway_b', mode: input.mode, webhook_id: await this.options.getSecretMask(gatewayOption.gatewayBWebhookId(input.mode)) };
  }

  async savePaymentMethodSettings(method: ConfigurableMethod, settings: DeviceWalletSettingsDto): Promise<PaymentMethodSettingsDto> {
    if (settings.domain_verification && settings.domains.length === 0) {
      throw new InvalidParamsError({ 'settings.domains': 'at least one domain is required when domain_verification is on' });
    }
    const stored: DeviceWalletSettings = { domain_verification: settings.domain_verification, domains: [...settings.domains] };
    await this.options.set(gatewayOption.methodSettings('gateway_a', method), stored);
    return { gateway: 'gateway_a', method, settings: stored };
  }

  /** Stored settings of a configurable method, or null when never saved. */
  async getPaymentMethodSettings(method: ConfigurableMethod): Promise<DeviceWalletSettings | null> {
    return this.options.get<DeviceWalletSettings | null>(gatewayOption.methodSettings('gateway_a', method), null);
  }
}
