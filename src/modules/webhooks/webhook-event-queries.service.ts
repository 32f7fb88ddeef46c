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
  /** X-WP-Total is an estimate (past EVENT_LIST_EXACT_COUNT_CAP matches) */
  estimated: boolean;
  /** The last event's position when more follow (the next page's cursor) */
  next: { createdAt: Date; id: number } | null;
}

/** How many matching events the admin list counts exactly; past it, X-WP-Total is an estimate. */
export const EVENT_LIST_EXACT_COUNT_CAP = 10_000;

/** Reads of the event store for other modules (the store's repository and entity stay inside `webhooks/`). */
@Injectable()
export class WebhookEventQueries {
  constructor(private readonly events: WebhookEventRepository) {}

  /** Newest first: after `after` (keyset, the position of the previous page's last event), else from `offset`. */
  async page(filter: WebhookEventFilter, position: { offset: number; after?: { createdAt: Date; id: number } | null }, limit: number): Promise<WebhookEventPage> {
    const rows = await this.events.page(filter, { offset: position.offset, after: position.after ? { receivedAt: position.after.createdAt, id: position.after.id } : null }, limit + 1);
    const more = rows.length > limit;
    if (more) rows.pop();
    const last = rows[rows.length - 1];
    const { total, estimated } = await this.events.countUpTo(filter, EVENT_LIST_EXACT_COUNT_CAP);
    return {
      total,
      estimated,
      next: more && last ? { createdAt: last.receivedAt, id: last.id } : null,
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
