import { Injectable } from '@nestjs/common';
import { Clock } from '../../common/clock/index.js';
import type { GatewayMode } from '../gateways/index.js';
import { WebhookEventRepository } from './webhook-event.repository.js';
import type { WebhookReceiptDto } from './webhook-receipt.dto.js';

/**
 * What an event did, stored with it: `processed` (the record moved or learnt something, or already
 * was there), `ignored` (nothing to do: outside the contract, unknown payment, a late event),
 * `rejected` (the event disagrees with the record it names; logged, the record is not moved).
 */
export type EffectStatus = 'processed' | 'ignored' | 'rejected';

export interface EffectResult {
  status: EffectStatus;
  paymentId: number | null;
}

/** The least the event store needs of an event. */
export interface ParsedWebhookEvent {
  id: string;
  type: string;
}

/**
 * One provider callback's knowledge of its events: how to read one from the verified bytes and
 * what it does to payments. The intake owns the rest (store once, mark the outcome).
 */
export interface WebhookEventSource<E extends ParsedWebhookEvent> {
  /** The event store's `provider` of these events (a gateway id). */
  readonly provider: string;
  /** The event in the authentic bytes; throws InvalidEventError (400) when they hold none this route takes. */
  parse(rawBody: Buffer, mode: GatewayMode): E;
  /** Its effect on payments: idempotent and never backwards, so applying it again is harmless. */
  apply(event: E, mode: GatewayMode): Promise<EffectResult>;
}

const STORED_STATUS: Record<EffectStatus, 'processed' | 'ignored' | 'failed'> = { processed: 'processed', ignored: 'ignored', rejected: 'failed' };

/**
 * The one intake of provider events (decisions §8), after the SignedWebhookGuard verified the
 * delivery: parse → record once → apply → mark the outcome.
 *
 * Retries: the event row is written first with status `received` and gets its outcome only after
 * the effect. A failure in between (database down → 503, provider down → 502) leaves it
 * `received`, and the provider's redelivery applies it again; a redelivery of a finished event
 * changes nothing.
 */
@Injectable()
export class WebhookIntakeService {
  constructor(
    private readonly events: WebhookEventRepository,
    private readonly clock: Clock,
  ) {}

  async receive<E extends ParsedWebhookEvent>(source: WebhookEventSource<E>, mode: GatewayMode, rawBody: Buffer | undefined): Promise<WebhookReceiptDto> {
    const event = source.parse(rawBody ?? Buffer.alloc(0), mode);
    const stored = await this.events.recordEventOnce({ provider: source.provider, eventId: event.id, type: event.type, mode }, undefined, this.clock.now());
    let rowId: number;
    if (stored.recorded) rowId = stored.event.id;
    else if (stored.existing && stored.existing.status === 'received') rowId = stored.existing.id; // an earlier attempt did not finish
    else return { received: true, outcome: 'duplicate' };

    const effect = await source.apply(event, mode);
    await this.events.markOutcome(rowId, STORED_STATUS[effect.status], effect.paymentId, undefined, this.clock.now());
    return { received: true, outcome: effect.status };
  }
}
