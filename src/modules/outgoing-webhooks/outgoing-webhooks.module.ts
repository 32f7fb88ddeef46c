import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ClockModule } from '../../common/clock/index.js';
import { CryptoModule } from '../../common/crypto/index.js';
import { OutboxModule } from '../outbox/index.js';
import { PaymentsModule } from '../payments/index.js';
import { OutgoingWebhookDeliveries } from './delivery.handler.js';
import { OutgoingEventEntity } from './outgoing-event.entity.js';
import { OutgoingWebhooksController } from './outgoing-webhooks.controller.js';
import { OutgoingWebhooksService } from './outgoing-webhooks.service.js';
import { WebhookDeliveryEntity } from './webhook-delivery.entity.js';
import { WebhookEndpointEntity } from './webhook-endpoint.entity.js';

/**
 * Outgoing webhooks (docs/outgoing-webhooks.md): signed events about payments sent to the merchant's
 * endpoints through the outbox. It imports payments (whose moves it follows through PaymentEvents);
 * payments does not import it.
 */
@Module({
  imports: [TypeOrmModule.forFeature([WebhookEndpointEntity, OutgoingEventEntity, WebhookDeliveryEntity]), ClockModule, CryptoModule, OutboxModule, PaymentsModule],
  controllers: [OutgoingWebhooksController],
  providers: [OutgoingWebhooksService, OutgoingWebhookDeliveries],
  exports: [OutgoingWebhooksService],
})
export class OutgoingWebhooksModule {}
