import { Module } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ClockModule } from '../../common/clock/index.js';
import { SignedWebhookGuard } from './signed-webhook.guard.js';
import { WebhookEventEntity } from './webhook-event.entity.js';
import { WebhookEventRepository } from './webhook-event.repository.js';
import { WebhookIntakeService } from './webhook-intake.service.js';
import { WebhookVerifiers } from './webhook-verifiers.js';

/**
 * Gateway-neutral webhook handling: the event store (every provider event once), the intake
 * pipeline every provider callback uses, and the guard that enforces `@SignedWebhookRoute`
 * with the verifiers the gateway slices register.
 */
@Module({
  imports: [TypeOrmModule.forFeature([WebhookEventEntity]), ClockModule, DiscoveryModule],
  providers: [WebhookEventRepository, WebhookIntakeService, WebhookVerifiers, SignedWebhookGuard],
  exports: [WebhookEventRepository, WebhookIntakeService, WebhookVerifiers, SignedWebhookGuard],
})
export class WebhooksModule {}
