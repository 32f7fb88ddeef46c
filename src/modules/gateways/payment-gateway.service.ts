import { Inject, Injectable } from '@nestjs/common';
import type { AuthenticatedUser } from '../../common/auth/index.js';
import { InvalidParamsError } from '../../common/errors/index.js';
import { APP_CONFIG, type AppConfig } from '../../config/index.js';
import { OptionsService } from '../settings/index.js';
import { type CheckoutGateway, type GatewayMode, gatewayOfMethod, isMethodOf, type MethodWithSettings } from '../../common/gateway-catalog/index.js';
import { GatewayRegistry } from './gateway-registry.service.js';
import { gatewayOption, GatewayStateService } from './gateway-state.service.js';
import type { ConnectCallbackInput, CredentialSettingsInput, OAuthConnect, WebhookSettingsInput } from './payment-gateway.port.js';
import type { ConnectKeysResultDto, CredentialSettingsDto, DeviceWalletSettingsDto, GatewayStatusDto, PaymentMethodSettingsDto, WebhookSettingsDto } from './payment-gateway.dto.js';

export interface DeviceWalletSettings {
  domain_verification: boolean;
  domains: string[];
}

/**
 * The admin's `/payment-gateway/*` routes: mode, active methods, webhook settings, per-method
 * settings, disconnect and the OAuth connect flow. Everything gateway-specific is the adapter's;
 * this service only routes to it through the registry.
 */
@Injectable()
export class PaymentGatewayService {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly state: GatewayStateService,
    private readonly registry: GatewayRegistry,
    private readonly options: OptionsService,
  ) {}

  async status(gateway: CheckoutGateway): Promise<GatewayStatusDto> {
    const adapter = this.registry.get(gateway);
    const mode = await this.state.getMode(gateway);
    return {
      gateway,
      mode,
      is_connected: (await adapter.isConnected(mode)) ? 1 : 0,
      is_live: mode === 'live' ? 1 : 0,
      active_payment_methods: await this.state.getActiveMethods(gateway),
      checkout_paused: await adapter.checkoutPaused(mode),
    };
  }

  async setMode(gateway: CheckoutGateway, mode: GatewayMode): Promise<GatewayStatusDto> {
    await this.state.setMode(gateway, mode);
    return this.status(gateway);
  }

  async setPaymentMethods(gateway: CheckoutGateway, methods: string[]): Promise<GatewayStatusDto> {
    const foreign = methods.filter((method) => !isMethodOf(gateway, method));
    if (foreign.length > 0) throw new InvalidParamsError({ methods: `${foreign.join(', ')} is not a payment method of ${gateway}` });
    const proOnly = methods.filter((method) => this.registry.get(gateway).proOnlyMethods.includes(method));
    if (proOnly.length > 0 && this.config.plan !== 'pro') {
      throw new InvalidParamsError({ methods: `${proOnly.join(', ')} (bank debit) requires the Pro plan` });
    }
    await this.state.setActiveMethods(gateway, methods);
    return this.status(gateway);
  }

  /** Disconnects the gateway in its current mode (the adapter retires what it created at the provider). */
  async disconnect(gateway: CheckoutGateway): Promise<GatewayStatusDto> {
    await this.registry.get(gateway).disconnect(await this.state.getMode(gateway));
    return this.status(gateway);
  }

  async saveWebhookSettings(gateway: CheckoutGateway, mode: GatewayMode, input: WebhookSettingsInput): Promise<WebhookSettingsDto> {
    const view = await this.registry.get(gateway).saveWebhookSettings(mode, input);
    return { gateway, mode, ...view };
  }

  /** Saves the credentials of the gateway that takes admin-entered credentials, for its current mode. */
  async saveCredentialSettings(input: CredentialSettingsInput): Promise<CredentialSettingsDto> {
    const adapter = this.registry.credentialSettings();
    if (!adapter?.credentialSettings) throw new Error('No gateway takes credentials through save-settings');
    const mode = await this.state.getMode(adapter.id);
    const view = await adapter.credentialSettings.save(mode, { email: input.email, client_id: input.client_id, secret: input.secret });
    return { gateway: adapter.id, mode, ...view, is_connected: (await adapter.isConnected(mode)) ? 1 : 0 };
  }

  /**
   * Connects a mode with the merchant's own keys: the same path as the CLI's `gateway-a:connect`
   * (the adapter checks the keys with the provider, stores them as its OAuth callback does and
   * provisions the mode's webhook contract; refused keys store nothing). Any plan, as the CLI: on
   * the free plan the answer says what that means.
   */
  async connectWithKeys(user: AuthenticatedUser, input: { mode: GatewayMode; publishable_key: string; secret_key: string }): Promise<ConnectKeysResultDto> {
    const adapter = this.registry.keyConnect();
    if (!adapter?.keyConnect) throw new Error('No gateway connects with the merchant\'s own keys');
    const result = await adapter.keyConnect.connectWithKeys(input.mode, { publishableKey: input.publishable_key, secretKey: input.secret_key }, `admin:${user.id}`);
    const siteMode = await this.state.getMode(adapter.id);
    const notes: string[] = [];
    if (this.config.plan === 'free') {
      notes.push(`CHECKOUT_PLAN=free sends ${adapter.label} calls through CHECKOUT_PROXY_URL with the platform fee; your own keys are meant for CHECKOUT_PLAN=pro.`);
    }
    if (result.webhook.status !== 'verified') {
      notes.push(`The webhook endpoint could not be set up: ${adapter.label} checkout stays paused in ${input.mode} mode. Connect again, or configure the webhook manually (POST /payment-gateway/save-webhook-settings).`);
    }
    if (siteMode !== input.mode) notes.push(`${adapter.label} takes payments in ${siteMode} mode; POST /payment-gateway/set-mode switches it to ${input.mode}.`);
    return {
      gateway: adapter.id,
      mode: input.mode,
      account_id: result.accountId,
      is_connected: (await adapter.isConnected(input.mode)) ? 1 : 0,
      webhook: { status: result.webhook.status, endpoint_id: result.webhook.endpointId, last_error: result.webhook.lastError },
      checkout_paused: await adapter.checkoutPaused(input.mode),
      site_mode: siteMode,
      notes,
    };
  }

  async savePaymentMethodSettings(gateway: CheckoutGateway, method: MethodWithSettings, settings: DeviceWalletSettingsDto): Promise<PaymentMethodSettingsDto> {
    if (!isMethodOf(gateway, method)) throw new InvalidParamsError({ gateway: `${method} is not a payment method of ${gateway}` });
    if (settings.domain_verification && settings.domains.length === 0) {
      throw new InvalidParamsError({ 'settings.domains': 'at least one domain is required when domain_verification is on' });
    }
    const stored: DeviceWalletSettings = { domain_verification: settings.domain_verification, domains: [...settings.domains] };
    await this.options.set(gatewayOption.methodSettings(gateway, method), stored);
    return { gateway, method, settings: stored };
  }

  /** Stored settings of a configurable method, or null when never saved. */
  async getPaymentMethodSettings(method: MethodWithSettings): Promise<DeviceWalletSettings | null> {
    return this.options.get<DeviceWalletSettings | null>(gatewayOption.methodSettings(gatewayOfMethod(method), method), null);
  }

  authorizeUrl(user: AuthenticatedUser, mode: GatewayMode): string {
    return this.connectFlow().authorizeUrl(user, mode);
  }

  completeConnect(query: ConnectCallbackInput): Promise<string> {
    return this.connectFlow().completeConnect(query);
  }

  private connectFlow(): OAuthConnect {
    const flow = this.registry.oauthConnect();
    if (!flow) throw new Error('No gateway offers an OAuth connect flow');
    return flow;
  }
}
