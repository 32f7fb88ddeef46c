import { Module } from '@nestjs/common';
import { GatewaysModule } from '../gateways/index.js';
import { SettingsModule } from '../settings/index.js';
import { GatewayBAdapter } from './gateway-b.adapter.js';

/**
 * Gateway B (the wallet gateway, PayPal Orders v2), one vertical slice in the shape of gateway A:
 * its stored credentials and webhook id behind the gateway port. Nothing but the application
 * module imports it.
 */
@Module({
  imports: [GatewaysModule, SettingsModule],
  providers: [GatewayBAdapter],
})
export class GatewayBModule {}
