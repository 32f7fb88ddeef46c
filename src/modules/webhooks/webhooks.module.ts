import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { CheckoutModule } from '../checkout/index.js';
import { GatewaysModule } from '../gateways/index.js';
import { PaymentsModule } from '../payments/index.js';
import { GatewayAEventEffectsService } from './gateway-a-event-effects.service.js';
import { GatewayAWebhookController } from './gateway-a-webhook.controller.js';
import { GatewayAWebhookService } from './gateway-a-webhook.service.js';
import { SubscriptionStateEntity } from './subscription-state.entity.js';
import { SubscriptionStateRepository } from './subscription-state.repository.js';

/** Provider webhooks: signature checks, the event store, and the effects of events on payments. */
@Module({
  imports: [TypeOrmModule.forFeature([SubscriptionStateEntity]), GatewaysModule, PaymentsModule, CheckoutModule],
  controllers: [GatewayAWebhookController],
  providers: [GatewayAWebhookService, GatewayAEventEffectsService, SubscriptionStateRepository],
})
export class WebhooksModule {}
