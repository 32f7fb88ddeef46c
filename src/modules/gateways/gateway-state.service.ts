import { Injectable } from '@nestjs/common';
import { CHECKOUT_ALIAS } from '../../config/index.js';
import { OptionsService } from '../settings/index.js';
import { type CheckoutGateway, gatewayMethods, type GatewayMode, isMethodOf } from '../../common/gateway-catalog/index.js';
import { GatewayRegistry } from './gateway-registry.service.js';

/** Option names of the gateway-neutral state (all prefixed with CHECKOUT_ALIAS); credentials are the slices' own. */
export const gatewayOption = {
  mode: (gateway: CheckoutGateway) => `${CHECKOUT_ALIAS}_${gateway}_mode`,
  activeMethods: (gateway: CheckoutGateway) => `${CHECKOUT_ALIAS}_${gateway}_payment_methods`,
  /** Settings of one payment method (e.g. device-wallet domain verification). */
  methodSettings: (gateway: CheckoutGateway, method: string) => `${CHECKOUT_ALIAS}_${gateway}_${method}_settings`,
};

/**
 * Which mode each gateway is in, whether it is connected for a mode (its adapter knows which
 * credentials that takes), and which of its payment methods are active. The payment guard reads
 * this; the gateway admin routes write it.
 */
@Injectable()
export class GatewayStateService {
  constructor(
    private readonly options: OptionsService,
    private readonly registry: GatewayRegistry,
  ) {}

  async getMode(gateway: CheckoutGateway): Promise<GatewayMode> {
    return this.options.get<GatewayMode>(gatewayOption.mode(gateway), 'test');
  }

  async setMode(gateway: CheckoutGateway, mode: GatewayMode): Promise<void> {
    await this.options.set(gatewayOption.mode(gateway), mode);
  }

  /** Active methods; a gateway never configured offers its first method (cards, the wallet's standard checkout). */
  async getActiveMethods(gateway: CheckoutGateway): Promise<string[]> {
    return this.options.get<string[]>(gatewayOption.activeMethods(gateway), [gatewayMethods(gateway)[0]]);
  }

  async setActiveMethods(gateway: CheckoutGateway, methods: string[]): Promise<void> {
    await this.options.set(gatewayOption.activeMethods(gateway), [...new Set(methods)].filter((method) => isMethodOf(gateway, method)));
  }

  isConnected(gateway: CheckoutGateway, mode: GatewayMode): Promise<boolean> {
    return this.registry.get(gateway).isConnected(mode);
  }

  /**
   * What the public payment routes check, read in one options query: the gateway's current mode,
   * whether it is connected in that mode (the same answer as `isConnected`) and its active methods
   * (the same answers as `getMode` and `getActiveMethods`). Nothing is cached: every call reads the
   * stored values, so a change made by another instance counts at once.
   */
  async checkoutState(gateway: CheckoutGateway): Promise<{ mode: GatewayMode; connected: boolean; activeMethods: string[] }> {
    const adapter = this.registry.get(gateway);
    const modeName = gatewayOption.mode(gateway);
    const methodsName = gatewayOption.activeMethods(gateway);
    const credentials = { test: adapter.connectionOptions('test'), live: adapter.connectionOptions('live') };
    const stored = await this.options.getMany([modeName, methodsName, ...credentials.test, ...credentials.live]);
    const mode = (stored.has(modeName) ? stored.get(modeName) : 'test') as GatewayMode;
    const activeMethods = (stored.has(methodsName) ? stored.get(methodsName) : [gatewayMethods(gateway)[0]]) as string[];
    const needed = mode === 'test' || mode === 'live' ? credentials[mode] : adapter.connectionOptions(mode);
    return { mode, connected: needed.every((name) => stored.has(name)), activeMethods };
  }
}
