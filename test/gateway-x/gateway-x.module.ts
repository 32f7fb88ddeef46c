import { type DynamicModule, Module } from '@nestjs/common';
import { ClockModule } from '../../src/common/clock/index.js';
import { GatewaySlice, GatewaysModule } from '../../src/modules/gateways/index.js';
import { PaymentsModule } from '../../src/modules/payments/index.js';
import { SettingsModule } from '../../src/modules/settings/index.js';
import { WebhooksModule } from '../../src/modules/webhooks/index.js';
import { GatewayXChargesService } from './checkout/gateway-x-charges.service.js';
import { GatewayXCheckoutController } from './checkout/gateway-x-checkout.controller.js';
import { GatewayXAdapter } from './gateway-x.adapter.js';
import { GatewayXClient } from './gateway-x-client.js';
import { GATEWAY_X_PROVIDER, type GatewayXProvider } from './gateway-x-options.js';
import { GATEWAY_X_SLICE } from './gateway-x.slice.js';
import { GatewayXEventSource } from './webhook/gateway-x-event-source.js';
import { GatewayXSignatureVerifier } from './webhook/gateway-x-signature.verifier.js';
import { GatewayXWebhookController } from './webhook/gateway-x-webhook.controller.js';

/**
 * The test-only gateway X (test/gateway-x/README.md): a whole gateway slice outside src/, added to
 * a test's application with `startTestApp(env, { modules: [GatewayXModule.register({ url })] })`.
 * It proves a gateway is one folder: its catalog entry, adapter, checkout route, browser driver and
 * webhook reach every gateway list, the hosted page and the webhook intake without a line changed
 * elsewhere.
 */
@GatewaySlice(GATEWAY_X_SLICE)
@Module({})
export class GatewayXModule {
  /** The slice, talking to the provider at `provider.url` (the fake's address). */
  static register(provider: GatewayXProvider): DynamicModule {
    return {
      module: GatewayXModule,
      imports: [ClockModule, GatewaysModule, PaymentsModule, SettingsModule, WebhooksModule],
      controllers: [GatewayXCheckoutController, GatewayXWebhookController],
      providers: [
        { provide: GATEWAY_X_PROVIDER, useValue: provider },
        GatewayXClient,
        GatewayXAdapter,
        GatewayXChargesService,
        GatewayXSignatureVerifier,
        GatewayXEventSource,
      ],
    };
  }
}
