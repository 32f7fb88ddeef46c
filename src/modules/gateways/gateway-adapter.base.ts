import type { OnModuleInit } from '@nestjs/common';
import type { GatewayMode } from '../../common/gateway-catalog/index.js';
import type { OptionsService } from '../settings/index.js';
import type { GatewayRegistry } from './gateway-registry.service.js';
import type { PaymentGatewayAdapter } from './payment-gateway.port.js';

/**
 * What every gateway adapter does alike: it registers itself in the GatewayRegistry when its
 * module starts, and it is connected in a mode exactly when every option `connectionOptions(mode)`
 * names is stored (the port's definition of `isConnected`), read in one options query. A slice's
 * adapter extends it (`super(registry, options)`) and implements the rest of PaymentGatewayAdapter.
 */
export abstract class GatewayAdapterBase implements OnModuleInit {
  protected constructor(
    private readonly gatewayRegistry: GatewayRegistry,
    protected readonly options: OptionsService,
  ) {}

  abstract connectionOptions(mode: GatewayMode): readonly string[];

  onModuleInit(this: GatewayAdapterBase & PaymentGatewayAdapter): void {
    this.gatewayRegistry.register(this);
  }

  async isConnected(mode: GatewayMode): Promise<boolean> {
    const names = this.connectionOptions(mode);
    const stored = await this.options.getMany(names);
    return names.every((name) => stored.has(name));
  }
}
