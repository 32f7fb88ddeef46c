import { Injectable } from '@nestjs/common';
import type { GatewayMode } from '../gateways/index.js';
import { listOutcomeOf, WebhookEventRepository, type WebhookEventFilter, type WebhookEventListOutcome } from './webhook-event.repository.js';

/** A stored provider event as an admin sees it (no payload is stored). */
export interface WebhookEventView {
  id: number;
  /** A gateway id, or `generic` for section B's route */
  provider: string;
  eventId: string;
  eventType: string;
  mode: GatewayMode | null;
  outcome: WebhookEventListOutcome;
  /** Why it was ignored, rejected or failed */
  reason: string | null;
  paymentId: number | null;
  receivedAt: Date;
  processedAt: Date | null;
}

export interface WebhookEventPage {
  events: WebhookEventView[];
  total: number;
}

/** Reads of the event store for other modules (the store's repository and entity stay inside `webhooks/`). */
@Injectable()
export class WebhookEventQueries {
  constructor(private readonly events: WebhookEventRepository) {}

  /** Newest first. */
  async page(filter: WebhookEventFilter, offset: number, limit: number): Promise<WebhookEventPage> {
    const [rows, total] = await this.events.page(filter, offset, limit);
    return {
      total,
      events: rows.map((row) => ({
        id: row.id,
        provider: row.provider,
        eventId: row.eventId,
        eventType: row.eventType,
        mode: row.mode as GatewayMode | null,
        outcome: listOutcomeOf(row),
        reason: row.reason,
        paymentId: row.paymentId,
        receivedAt: row.receivedAt,
        processedAt: row.processedAt,
      })),
    };
  }
}
