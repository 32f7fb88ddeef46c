import { Injectable, Logger } from '@nestjs/common';
import type { GatewayMode } from '../../gateways/index.js';
import { type EffectResult, InvalidEventError, type WebhookEventSource } from '../../webhooks/index.js';
import { GatewayAEventEffectsService } from './gateway-a-event-effects.service.js';
import { type GatewayAEvent, parseGatewayAEvent } from './gateway-a-event.js';
import { isContractEvent } from './webhook-contract.js';

/**
 * Gateway A's events for the shared webhook intake (docs/decisions.md §8): the envelope parsed from the
 * verified bytes (never a re-serialised body), its livemode equal to the route's mode, and the
 * 12 contract events applied to payments; any other type is stored and ignored.
 */
@Injectable()
export class GatewayAEventSource implements WebhookEventSource<GatewayAEvent> {
  readonly provider = 'gateway_a';
  private readonly logger = new Logger('GatewayAWebhook');

  constructor(private readonly effects: GatewayAEventEffectsService) {}

  parse(rawBody: Buffer, mode: GatewayMode): GatewayAEvent {
    const parsed = parseGatewayAEvent(rawBody);
    if (!parsed.ok) throw new InvalidEventError('checkout_invalid_event', `The body is not a gateway event: ${parsed.reason}.`);
    const { event } = parsed;
    if (event.livemode !== (mode === 'live')) {
      this.logger.warn({ mode, event_id: event.id, livemode: event.livemode }, 'gateway A webhook refused: livemode');
      throw new InvalidEventError('checkout_livemode_mismatch', `A ${event.livemode ? 'live' : 'test'} event cannot be delivered to the ${mode} endpoint.`);
    }
    return event;
  }

  async apply(event: GatewayAEvent, mode: GatewayMode): Promise<EffectResult> {
    if (!isContractEvent(event.type)) {
      this.logger.log({ mode, event_id: event.id, event_type: event.type }, 'gateway A webhook ignored: not a contract event');
      return { status: 'ignored', paymentId: null };
    }
    return this.effects.apply(event.type, event, mode);
  }
}
