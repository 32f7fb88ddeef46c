import { Injectable } from '@nestjs/common';
import { CHECKOUT_GATEWAYS, type CheckoutGateway } from './gateway-catalog.js';
import type { AdminCharges, OAuthConnect, PaymentGatewayAdapter } from './payment-gateway.port.js';

/**
 * The adapters of the gateway slices, by gateway id. A slice registers its adapter in its
 * module's `onModuleInit`, so every adapter is in place before the application serves a request.
 */
@Injectable()
export class GatewayRegistry {
  private readonly adapters = new Map<CheckoutGateway, PaymentGatewayAdapter>();

  register(adapter: PaymentGatewayAdapter): void {
    if (this.adapters.has(adapter.id)) throw new Error(`A second adapter for ${adapter.id}`);
    this.adapters.set(adapter.id, adapter);
  }

  /** The adapter of a catalog gateway; a missing one is a wiring mistake, not a client error. */
  get(gateway: CheckoutGateway): PaymentGatewayAdapter {
    const adapter = this.adapters.get(gateway);
    if (!adapter) throw new Error(`No adapter is registered for ${gateway}`);
    return adapter;
  }

  /** Every registered adapter, in catalog order. */
  all(): PaymentGatewayAdapter[] {
    return CHECKOUT_GATEWAYS.filter((gateway) => this.adapters.has(gateway)).map((gateway) => this.adapters.get(gateway)!);
  }

  /** The gateway that offers an OAuth connect flow (the connect routes name no gateway). */
  oauthConnect(): OAuthConnect | null {
    return this.all().find((adapter) => adapter.oauthConnect)?.oauthConnect ?? null;
  }

  /** The gateway whose credentials the admin enters (POST /payment-gateway/save-settings names no gateway). */
  credentialSettings(): PaymentGatewayAdapter | null {
    return this.all().find((adapter) => adapter.credentialSettings) ?? null;
  }

  /** The gateway that connects with the merchant's own API keys (POST /payment-gateway/connect-keys names no gateway). */
  keyConnect(): PaymentGatewayAdapter | null {
    return this.all().find((adapter) => adapter.keyConnect) ?? null;
  }

  /** The gateway whose payment-method tokens look like `paymentMethod`. */
  adminChargesFor(paymentMethod: string): AdminCharges | null {
    return this.all().find((adapter) => adapter.adminCharges?.accepts(paymentMethod))?.adminCharges ?? null;
  }
}
