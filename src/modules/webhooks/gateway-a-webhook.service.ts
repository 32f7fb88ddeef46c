import { Injectable, Logger } from '@nestjs/common';
import { DomainError } from '../../common/errors/index.js';
import {
  Clock,
  GatewayAContractService,
  type GatewayMode,
  isContractEvent,
  SIGNATURE_TOLERANCE_SECONDS,
  verifyGatewayASignature,
  WebhookEventRepository,
} from '../gateways/index.js';
import { type EffectStatus, GatewayAEventEffectsService } from './gateway-a-event-effects.service.js';
import { parseGatewayAEvent } from './gateway-a-event.js';
import type { GatewayAWebhookReceiptDto } from './gateway-a-webhook.dto.js';

export class InvalidSignatureError extends DomainError {
  constructor() {
    super('checkout_invalid_signature', 400, 'The webhook signature is missing, stale or invalid.');
  }
}

export class InvalidEventError extends DomainError {
  constructor(code: string, message: string) {
    super(code, 400, message);
  }
}

const STORED_STATUS: Record<EffectStatus, 'processed' | 'ignored' | 'failed'> = { processed: 'processed', ignored: 'ignored', rejected: 'failed' };

/**
 * `POST /webhook/gateway-a-callback/{mode}` (decisions §8): signature on the raw bytes, the
 * envelope parsed from those same bytes, livemode = mode, the event stored once, its effect
 * applied, then its outcome stored.
 *
 * Retries: the event row is written first with status `received` and gets its outcome only after
 * the effect. A failure in between (database down → 503, gateway down → 502) leaves it `received`,
 * and the provider's redelivery applies it again; effects are idempotent and never move a record
 * backwards, so applying one twice is harmless. A redelivery of a finished event changes nothing.
 */
@Injectable()
export class GatewayAWebhookService {
  private readonly logger = new Logger(GatewayAWebhookService.name);

  constructor(
    private readonly contracts: GatewayAContractService,
    private readonly events: WebhookEventRepository,
    private readonly effects: GatewayAEventEffectsService,
    private readonly clock: Clock,
  ) {}

  async receive(mode: GatewayMode, rawBody: Buffer | undefined, signature: string | undefined): Promise<GatewayAWebhookReceiptDto> {
    // No raw bytes: the body was not JSON (or form) encoded; it cannot carry a valid signature.
    const body = rawBody ?? Buffer.alloc(0);
    const secret = await this.contracts.getSigningSecret(mode);
    const check = verifyGatewayASignature(body, signature, secret, SIGNATURE_TOLERANCE_SECONDS, this.clock.now().getTime());
    if (!check.valid) {
      this.logger.warn({ mode, reason: check.reason }, 'gateway A webhook refused: signature');
      throw new InvalidSignatureError();
    }
    const parsed = parseGatewayAEvent(body);
    if (!parsed.ok) throw new InvalidEventError('checkout_invalid_event', `The body is not a gateway event: ${parsed.reason}.`);
    const event = parsed.event;
    if (event.livemode !== (mode === 'live')) {
      this.logger.warn({ mode, event_id: event.id, livemode: event.livemode }, 'gateway A webhook refused: livemode');
      throw new InvalidEventError('checkout_livemode_mismatch', `A ${event.livemode ? 'live' : 'test'} event cannot be delivered to the ${mode} endpoint.`);
    }

    const stored = await this.events.recordEventOnce({ provider: 'gateway_a', eventId: event.id, type: event.type, mode }, undefined, this.clock.now());
    let rowId: number;
    if (stored.recorded) rowId = stored.event.id;
    else if (stored.existing && stored.existing.status === 'received') rowId = stored.existing.id; // an earlier attempt did not finish
    else return { received: true, outcome: 'duplicate' };

    if (!isContractEvent(event.type)) {
      this.logger.log({ mode, event_id: event.id, event_type: event.type }, 'gateway A webhook ignored: not a contract event');
      await this.events.markOutcome(rowId, 'ignored', null, undefined, this.clock.now());
      return { received: true, outcome: 'ignored' };
    }
    const effect = await this.effects.apply(event.type, event, mode);
    await this.events.markOutcome(rowId, STORED_STATUS[effect.status], effect.paymentId, undefined, this.clock.now());
    return { received: true, outcome: effect.status };
  }
}
