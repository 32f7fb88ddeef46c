import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ClockModule } from '../../common/clock/index.js';
import { CryptoModule } from '../../common/crypto/index.js';
import { FormsModule } from '../forms/index.js';
import { GatewaySlice, GatewaysModule } from '../gateways/index.js';
import { IdempotencyModule } from '../idempotency/index.js';
import { PaymentsModule } from '../payments/index.js';
import { PluginModule } from '../plugin/index.js';
import { SettingsModule } from '../settings/index.js';
import { TasksModule } from '../tasks/index.js';
import { WebhooksModule } from '../webhooks/index.js';
import { GatewayAAdminController } from './admin/gateway-a-admin.controller.js';
import { GatewayAAdminService } from './admin/gateway-a-admin.service.js';
import { GatewayACustomerEntity } from './catalog/gateway-a-customer.entity.js';
import { GatewayACustomerRepository, GatewayAPriceRepository, GatewayAProductRepository } from './catalog/gateway-a-cache.repository.js';
import { GatewayACatalogService } from './catalog/gateway-a-catalog.service.js';
import { GatewayAPriceEntity } from './catalog/gateway-a-price.entity.js';
import { GatewayAProductEntity } from './catalog/gateway-a-product.entity.js';
import { GatewayACheckoutController } from './checkout/gateway-a-checkout.controller.js';
import { GatewayACheckoutService } from './checkout/gateway-a-checkout.service.js';
import { GatewayAIntentsService } from './checkout/gateway-a-intents.service.js';
import { GatewayASubscriptionsService } from './checkout/gateway-a-subscriptions.service.js';
import { GatewayAClientFactory } from './client/gateway-a-client.factory.js';
import { GatewayAFailures } from './client/gateway-a-failures.js';
import { GatewayARefunds } from './refunds/gateway-a-refunds.js';
import { InstallationScope } from './client/installation-scope.js';
import { GatewayAConnectService } from './connect/gateway-a-connect.service.js';
import { GatewayADiagnostics } from './diagnose/gateway-a-diagnostics.js';
import { UsedConnectStateEntity } from './connect/used-connect-state.entity.js';
import { UsedConnectStateRepository } from './connect/used-connect-state.repository.js';
import { GatewayAAdapter } from './gateway-a.adapter.js';
import { GATEWAY_A_SLICE } from './gateway-a.slice.js';
import { GatewayAReconciler } from './reconcile/gateway-a-reconciler.js';
import { GatewayAAftermathReader } from './aftermath/gateway-a-aftermath.reader.js';
import { GatewayASubscriptionCancellation } from './subscriptions/gateway-a-subscription-cancellation.js';
import { GatewayASubscriptionCardUpdate } from './subscriptions/gateway-a-subscription-card-update.js';
import { GatewayAContractService } from './webhook/gateway-a-contract.service.js';
import { GatewayAEventSource } from './webhook/gateway-a-event-source.js';
import { GatewayACards } from './checkout/gateway-a-cards.js';
import { GatewayASignatureVerifier } from './webhook/gateway-a-signature.verifier.js';
import { GatewayAWebhookController } from './webhook/gateway-a-webhook.controller.js';
import { SubscriptionStateEntity } from './webhook/subscription-state.entity.js';
import { SubscriptionStateRepository } from './webhook/subscription-state.repository.js';
import { GatewayAWebhookUpgradeTask } from './webhook/webhook-upgrade.task.js';

/**
 * Gateway A (the card gateway, Stripe through the official SDK), one vertical slice: the SDK
 * clients (free-plan proxy or direct), the OAuth connect flow, the customer/product/price
 * catalog tables, public intents and checkout, section B's gateway-A routes, the webhook
 * callback with its signature verifier, event contract, event effects and the 1.5.3 upgrade
 * task. It reaches the rest of the service through the gateway port (registry), the payment
 * ledger and the webhook intake; nothing but the application module imports it.
 */
@GatewaySlice(GATEWAY_A_SLICE)
@Module({
  imports: [
    TypeOrmModule.forFeature([UsedConnectStateEntity, GatewayACustomerEntity, GatewayAProductEntity, GatewayAPriceEntity, SubscriptionStateEntity]),
    ClockModule,
    CryptoModule,
    FormsModule,
    GatewaysModule,
    IdempotencyModule,
    PaymentsModule,
    PluginModule,
    SettingsModule,
    TasksModule,
    WebhooksModule,
  ],
  controllers: [GatewayACheckoutController, GatewayAAdminController, GatewayAWebhookController],
  providers: [
    GatewayAAdapter,
    GatewayAClientFactory,
    GatewayAFailures,
    GatewayARefunds,
    InstallationScope,
    GatewayAConnectService,
    UsedConnectStateRepository,
    GatewayACustomerRepository,
    GatewayAProductRepository,
    GatewayAPriceRepository,
    GatewayACatalogService,
    GatewayAIntentsService,
    GatewayASubscriptionsService,
    GatewayACheckoutService,
    GatewayAAdminService,
    GatewayAContractService,
    GatewayASignatureVerifier,
    GatewayAEventSource,
    GatewayACards,
    SubscriptionStateRepository,
    GatewayAWebhookUpgradeTask,
    GatewayAReconciler,
    GatewayADiagnostics,
    GatewayASubscriptionCancellation,
    GatewayASubscriptionCardUpdate,
    GatewayAAftermathReader,
  ],
})
export class GatewayAModule {}
