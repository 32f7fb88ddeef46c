import { Injectable } from '@nestjs/common';
import { CHECKOUT_GATEWAYS, type CheckoutGateway, gatewayCatalog } from '../../common/gateway-catalog/index.js';
import type { AdminCharges, OAuthConnect, PaymentGatewayAdapter } from './payment-gateway.port.js';

/**
 * The capabilities a gateway-neutral route reaches without naming a gateway: at most one adapter
 * may offer each, so the route's gateway is the one that registered it (a second is a boot error,
 * never a silent pick).
 */
const SOLE_CAPABILITIES = {
  oauthConnect: 'GET /payment-gateway/connect',
  keyConnect: 'POST /payment-gateway/connect-keys',
  credentialSettings: 'POST /payment-gateway/save-settings',
  adminCharges: 'POST /payment/process',
} as const satisfies Partial<Record<keyof PaymentGatewayAdapter, string>>;
type SoleCapability = keyof typeof SOLE_CAPABILITIES;

/**
 * The adapters of the gateway slices, by gateway id. A slice registers its adapter in its
 * module's `onModuleInit`, so every adapter is in place before the application serves a request.
 */
@Injectable()
export class GatewayRegistry {
  private readonly adapters = new Map<CheckoutGateway, PaymentGatewayAdapter>();
  private readonly providers = new Map<SoleCapability, PaymentGatewayAdapter>();

  register(adapter: PaymentGatewayAdapter): void {
    if (!gatewayCatalog.has(adapter.id)) throw new Error(`An adapter for ${adapter.id}, which no slice registered in the gateway catalog (@GatewaySlice)`);
    if (this.adapters.has(adapter.id)) throw new Error(`A second adapter for ${adapter.id}`);
    const offered = (Object.keys(SOLE_CAPABILITIES) as SoleCapability[]).filter((capability) => adapter[capability]);
    for (const capability of offered) {
      const other = this.providers.get(capability);
      if (other) {
        throw new Error(`${adapter.id} and ${other.id} both offer ${capability}: ${SOLE_CAPABILITIES[capability]} names no gateway, so one gateway at most may offer it`);
      }
    }
    this.adapters.set(adapter.id, adapter);
    for (const capability of offered) this.providers.set(capability, adapter);
  }

  /** The adapter of a catalog gateway; a missing one is a wiring mistake, not a client error. */
  get(gateway: CheckoutGateway): PaymentGatewayAdapter {
    const adapter = this.adapters.get(gateway);
    if (!adapter) throw new Error(`No adapter is registered for ${gateway}`);
    return adapter;
  }

  /**
   * The adapter of a stored record's gateway, or null when none is registered (a record of a
   * gateway this build no longer has): for callers that answer that case themselves.
   */
  find(gateway: string): PaymentGatewayAdapter | null {
    return this.adapters.get(gateway as CheckoutGateway) ?? null;
  }

  /** Every registered adapter, in catalog order. */
  all(): PaymentGatewayAdapter[] {
    return CHECKOUT_GATEWAYS.filter((gateway) => this.adapters.has(gateway)).map((gateway) => this.adapters.get(gateway)!);
  }

  /** The gateway that offers the OAuth connect flow (the connect routes name no gateway). */
  oauthConnect(): OAuthConnect | null {
    return this.providers.get('oauthConnect')?.oauthConnect ?? null;
  }

  /** The gateway whose credentials the admin enters (POST /payment-gateway/save-settings names no gateway). */
  credentialSettings(): PaymentGatewayAdapter | null {
    return this.providers.get('credentialSettings') ?? null;
  }

  /** The gateway that connects with the merchant's own API keys (POST /payment-gateway/connect-keys names no gateway). */
  keyConnect(): PaymentGatewayAdapter | null {
    return this.providers.get('keyConnect') ?? null;
  }

  /** The admin charges of the gateway that offers them, when `paymentMethod` is one of its tokens. */
  adminChargesFor(paymentMethod: string): AdminCharges | null {
    const charges = this.providers.get('adminCharges')?.adminCharges;
    return charges?.accepts(paymentMethod) ? charges : null;
  }
}
