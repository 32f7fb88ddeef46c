import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { EntityManager, Repository } from 'typeorm';
import { isDuplicateKeyError } from '../../database/index.js';
import type { GatewayMode } from '../gateways/index.js';
import { WebhookEventEntity, type WebhookEventStatus } from './webhook-event.entity.js';

export interface IncomingWebhookEvent {
  /** Who sent it: a gateway id (`gateway_a`, `gateway_b`) */
  provider: string;
  eventId: string;
  type: string;
  mode: GatewayMode;
}

export type RecordOutcome = { recorded: true; event: WebhookEventEntity } | { recorded: false; existing: WebhookEventEntity | null };

/** The webhook event store (decisions §8): every accepted event once; a redelivery changes nothing. */
@Injectable()
export class WebhookEventRepository {
  constructor(@InjectRepository(WebhookEventEntity) private readonly events: Repository<WebhookEventEntity>) {}

  /**
   * Inserts the event unless (provider, event id) is already stored. The unique key decides, so
   * concurrent deliveries of one event record it exactly once. Pass the transaction's manager to
   * record the event and its effect atomically.
   */
  async recordEventOnce(event: IncomingWebhookEvent, manager?: EntityManager, now = new Date()): Promise<RecordOutcome> {
    const repo = this.repo(manager);
    const row = repo.create({
      provider: event.provider,
      eventId: event.eventId,
      eventType: event.type,
      mode: event.mode,
      status: 'received',
      paymentId: null,
      receivedAt: now,
      processedAt: null,
    });
    try {
      await repo.insert(row);
      return { recorded: true, event: row };
    } catch (error) {
      if (!isDuplicateKeyError(error)) throw error;
      return { recorded: false, existing: await repo.findOne({ where: { provider: event.provider, eventId: event.eventId } }) };
    }
  }

  async markOutcome(id: number, status: Exclude<WebhookEventStatus, 'received'>, paymentId: number | null, manager?: EntityManager, now = new Date()): Promise<void> {
    await this.repo(manager).update({ id }, { status, paymentId, processedAt: now });
  }

  async find(provider: string, eventId: string): Promise<WebhookEventEntity | null> {
    return this.events.findOne({ where: { provider, eventId } });
  }

  private repo(manager?: EntityManager): Repository<WebhookEventEntity> {
    return manager ? manager.getRepository(WebhookEventEntity) : this.events;
  }
}
