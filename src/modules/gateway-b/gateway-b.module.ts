import { GatewayBAftermathReader } from './aftermath/gateway-b-aftermath.reader.js';
import { GatewayBDisputes } from './aftermath/gateway-b-disputes.js';
import { GatewayBRefunds } from './refunds/gateway-b-refunds.js';
import { Module } from '@nestjs/common';
import { ClockModule } from '../../common/clock/index.js';
import { GatewaySlice, GatewaysModule } from '../gateways/index.js';
import { IdempotencyModule } from '../idempotency/index.js';
import { PaymentsModule } from '../payments/index.js';
import { SettingsModule } from '../settings/index.js';
import { WebhooksModule } from '../webhooks/index.js';
import { GatewayBCaptureService } from './checkout/gateway-b-capture.service.js';
import { GatewayBCheckoutController } from './checkout/gateway-b-checkout.controller.js';
import { GatewayBOrdersService } from './checkout/gateway-b-orders.service.js';
import { GatewayBClientFactory } from './client/gateway-b-client.factory.js';
import { GatewayBFailures } from './client/gateway-b-failures.js';
import { GatewayBScope } from './client/gateway-b-scope.js';
import { GatewayBCredentialsService } from './credentials/gateway-b-credentials.service.js';
import { GatewayBDiagnostics } from './diagnose/gateway-b-diagnostics.js';
import { GatewayBAdapter } from './gateway-b.adapter.js';
import { GATEWAY_B_SLICE } from './gateway-b.slice.js';
import { GatewayBReconciler } from './reconcile/gateway-b-reconciler.js';
import { GatewayBEventSource } from './webhook/gateway-b-event-source.js';
import { GatewayBSignatureVerifier } from './webhook/gateway-b-signature.verifier.js';
import { GatewayBWebhookController } from './webhook/gateway-b-webhook.controller.js';

/**
 * Gateway B (the wallet gateway, PayPal Orders v2 over its REST API), one vertical slice in the
 * shape of gateway A: the REST client per mode and credentials, credentials and Webhook ID behind
 * the gateway port, the public order and capture routes, and the webhook callback with its
 * verifier (PayPal's verify-webhook-signature API) and event source on the shared intake. It
 * reaches the rest of the service through the registry, the payment ledger and the webhook
 * intake; nothing but the application module imports it.
 */
@GatewaySlice(GATEWAY_B_SLICE)
@Module({
  imports: [ClockModule, GatewaysModule, IdempotencyModule, PaymentsModule, SettingsModule, WebhooksModule],
  controllers: [GatewayBCheckoutController, GatewayBWebhookController],
  providers: [
    GatewayBAdapter,
    GatewayBClientFactory,
    GatewayBFailures,
    GatewayBScope,
    GatewayBCredentialsService,
    GatewayBOrdersService,
    GatewayBCaptureService,
    GatewayBReconciler,
    GatewayBDiagnostics,
    GatewayBSignatureVerifier,
    GatewayBEventSource,
    GatewayBRefunds,
    GatewayBAftermathReader,
    GatewayBDisputes,
  ],
})
export class GatewayBModule {}
