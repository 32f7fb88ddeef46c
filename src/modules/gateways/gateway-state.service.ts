import { Injectable } from '@nestjs/common';
import { CHECKOUT_ALIAS } from '../../config/app-config.js';
import { type CheckoutGateway, GATEWAY_METHODS } from '../forms/index.js';
import { OptionsService } from '../settings/index.js';

export type GatewayMode = 'test' | 'live';
export const GATEWAY_MODES: readonly GatewayMode[] = ['test', 'live'];

/** Option names of the per-gateway, per-mode state (all prefixed with CHECKOUT_ALIAS). */
export const gatewayOption = {
  mode: (gateway: CheckoutGateway) => `${CHECKOUT_ALIAS}_${gateway}_mode`,
  activeMethods: (gateway: CheckoutGateway) => `${CHECKOUT_ALIAS}_${gateway}_payment_methods`,
  /** gateway A connect credentials: `user_id`, `public_key`, `secret_key` (secret_key sealed). */
  gatewayA: (mode: GatewayMode, field: 'user_id' | 'public_key' | 'secret_key') => `${CHECKOUT_ALIAS}_gateway_a_${mode}_${field}`,
  /** gateway B credentials: `email`, `client_id`, `secret` (secret sealed). */
  gatewayB: (mode: GatewayMode, field: 'email' | 'client_id' | 'secret') => `${CHECKOUT_ALIAS}_gateway_b_${mode}_${field}`,
  /** gateway A webhook signing secret of a mode (sealed; `whsec_...`). */
  gatewayAWebhookSecret: (mode: GatewayMode) => `${CHECKOUT_ALIAS}_gateway_a_${mode}_webhook_secret`,
  /** gateway A webhook state of a mode (GatewayAWebhookRecord: management, endpoint, contract status). */
  gatewayAWebhook: (mode: GatewayMode) => `${CHECKOUT_ALIAS}_gateway_a_${mode}_webhook`,
  /** gateway B Webhook ID of a mode (sealed). */
  gatewayBWebhookId: (mode: GatewayMode) => `${CHECKOUT_ALIAS}_gateway_b_${mode}_webhook_id`,
  /** Settings of one payment method (e.g. device-wallet domain verification). */
  methodSettings: (gateway: CheckoutGateway, method: string) => `${CHECKOUT_ALIAS}_${gateway}_${method}_settings`,
  /** Progress of the 1.5.2 → 1.5.3 in-place webhook update (WebhookUpgradeProgress). */
  gatewayAWebhookUpgrade: () => `${CHECKOUT_ALIAS}_gateway_a_webhook_upgrade`,
};

const DEFAULT_METHODS: Record<CheckoutGateway, string[]> = { gateway_a: ['ccard'], gateway_b: ['standard_checkout'] };

/**
 * Which mode each gateway is in, whether it is connected for a mode, and which of its payment
 * methods are active. The payment guard reads this; the gateway admin routes write it.
 */
@Injectable()
export class GatewayStateService {
  constructor(private readonly options: OptionsService) {}

  async getMode(gateway: CheckoutGateway): Promise<GatewayMode> {
    return this.options.get<GatewayMode>(gatewayOption.mode(gateway), 'test');
  }

  async setMode(gateway: CheckoutGateway, mode: GatewayMode): Promise<void> {
    await this.options.set(gatewayOption.mode(gateway), mode);
  }

  async getActiveMethods(gateway: CheckoutGateway): Promise<string[]> {
    return this.options.get<string[]>(gatewayOption.activeMethods(gateway), DEFAULT_METHODS[gateway]);
  }

  async setActiveMethods(gateway: CheckoutGateway, methods: string[]): Promise<void> {
    const allowed: readonly string[] = GATEWAY_METHODS[gateway];
    await this.options.set(gatewayOption.activeMethods(gateway), [...new Set(methods)].filter((method) => allowed.includes(method)));
  }

  /** Connected = the credentials the gateway needs for that mode are all stored. */
  async isConnected(gateway: CheckoutGateway, mode: GatewayMode): Promise<boolean> {
    const names =
      gateway === 'gateway_a'
        ? [gatewayOption.gatewayA(mode, 'user_id'), gatewayOption.gatewayA(mode, 'public_key'), gatewayOption.gatewayA(mode, 'secret_key')]
        : [gatewayOption.gatewayB(mode, 'email'), gatewayOption.gatewayB(mode, 'client_id'), gatewayOption.gatewayB(mode, 'secret')];
    const stored = await this.options.getMany(names);
    return names.every((name) => stored.has(name));
  }
}
