import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { PluginModule } from '../plugin/index.js';
import { SettingsModule } from '../settings/index.js';
import { Clock } from './clock.js';
import { GatewayACustomerEntity, GatewayACustomerRepository, GatewayAPriceEntity, GatewayAPriceRepository, GatewayAProductEntity, GatewayAProductRepository } from './gateway-a/cache/index.js';
import { GatewayAClientFactory } from './gateway-a/gateway-a-client.factory.js';
import { GatewayAConnectService } from './gateway-a/gateway-a-connect.service.js';
import { GatewayAContractService } from './gateway-a/gateway-a-contract.service.js';
import { UsedConnectStateEntity } from './gateway-a/used-connect-state.entity.js';
import { UsedConnectStateRepository } from './gateway-a/used-connect-state.repository.js';
import { GatewayAWebhookUpgradeTask } from './gateway-a/webhook-upgrade.task.js';
import { GatewayStateService } from './gateway-state.service.js';
import { PaymentGatewayController } from './payment-gateway.controller.js';
import { PaymentGatewayService } from './payment-gateway.service.js';
import { TaskLeaseEntity } from './tasks/task-lease.entity.js';
import { TaskLeaseRepository } from './tasks/task-lease.repository.js';
import { WebhookEventEntity } from './webhook-events/webhook-event.entity.js';
import { WebhookEventRepository } from './webhook-events/webhook-event.repository.js';

/**
 * Gateway state (mode, methods, credentials), the gateway-A adapter (SDK clients, connect flow,
 * webhook contract, 1.5.3 upgrade task), the admin `/payment-gateway/*` routes and the webhook
 * event store.
 */
@Module({
  imports: [SettingsModule, PluginModule, TypeOrmModule.forFeature([UsedConnectStateEntity, TaskLeaseEntity, WebhookEventEntity, GatewayACustomerEntity, GatewayAProductEntity, GatewayAPriceEntity])],
  controllers: [PaymentGatewayController],
  providers: [
    Clock,
    GatewayStateService,
    GatewayAClientFactory,
    GatewayAContractService,
    GatewayAConnectService,
    GatewayAWebhookUpgradeTask,
    PaymentGatewayService,
    UsedConnectStateRepository,
    TaskLeaseRepository,
    WebhookEventRepository,
    GatewayACustomerRepository,
    GatewayAProductRepository,
    GatewayAPriceRepository,
  ],
  exports: [
    Clock,
    GatewayStateService,
    GatewayAClientFactory,
    GatewayAContractService,
    GatewayAWebhookUpgradeTask,
    PaymentGatewayService,
    TaskLeaseRepository,
    WebhookEventRepository,
    GatewayACustomerRepository,
    GatewayAProductRepository,
    GatewayAPriceRepository,
  ],
})
export class GatewaysModule {}
