import { Injectable } from '@nestjs/common';
import type { GatewayMode } from '../../../src/modules/gateways/index.js';
import { MAX_INT } from '../../../src/modules/payments/index.js';
import { InstallationService } from '../../../src/modules/settings/index.js';
import { InvalidEventError, nothingToDo, outsideContract, type WebhookAction, type WebhookEventSource } from '../../../src/modules/webhooks/index.js';
import { type GatewayXCharge, readCharge } from '../gateway-x-client.js';
import { GATEWAY_X } from '../gateway-x.slice.js';

/** A gateway X event, parsed once from the verified bytes. */
export interface GatewayXEvent {
  id: string;
  type: string;
  /** The event's charge; null when its object is none (stored and ignored) */
  charge: GatewayXCharge | null;
}

/**
 * Gateway X's events for the shared intake: `charge.succeeded` asks for the payment to succeed,
 * `charge.failed` for it to fail with the provider's reason; anything else is outside the
 * contract. Only a charge that carries this installation's id is acted on; the core ties it to the
 * payment named by its metadata, which must hold that charge, and the amount must match.
 */
@Injectable()
export class GatewayXEventSource implements WebhookEventSource<GatewayXEvent> {
  readonly provider = GATEWAY_X;

  constructor(private readonly installation: InstallationService) {}

  parse(rawBody: Buffer): GatewayXEvent {
    let body: unknown;
    try {
      body = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(rawBody));
    } catch {
      body = null;
    }
    const event = typeof body === 'object' && body !== null ? (body as Record<string, unknown>) : {};
    if (typeof event.id !== 'string' || !/^xevt_[a-f0-9]{1,64}$/.test(event.id) || typeof event.type !== 'string' || event.type.length > 64) {
      throw new InvalidEventError('checkout_invalid_event', 'The body is not a gateway X event (id and type are required).');
    }
    const data = event.data as { object?: unknown } | undefined;
    return { id: event.id, type: event.type, charge: readCharge(data?.object) };
  }

  actionOf(event: GatewayXEvent, mode: GatewayMode): WebhookAction {
    if (event.type !== 'charge.succeeded' && event.type !== 'charge.failed') return outsideContract('event type outside the contract');
    const charge = event.charge;
    if (!charge) return nothingToDo('the charge cannot be read');
    const paymentId = /^[1-9]\d{0,9}$/.test(charge.metadata.payment_id ?? '') ? Number(charge.metadata.payment_id) : null;
    if (paymentId === null || paymentId > MAX_INT || charge.metadata.installation !== this.installation.id()) return nothingToDo('the charge was not made by this installation');
    const subject = {
      find: { paymentId },
      of: { gateway: GATEWAY_X, mode },
      holds: { field: 'provider_payment_ref' as const, ref: charge.id, other: 'the record holds another charge', none: 'the record holds no charge' },
    };
    const verify = (payment: { amount: number; currency: string }) =>
      charge.amount === payment.amount && charge.currency === payment.currency ? null : { reject: 'amount or currency differs from the record', details: { event_amount: charge.amount, event_currency: charge.currency } };
    if (event.type === 'charge.failed') {
      return { kind: 'payment_failed', subject, verify, reason: charge.failure ? { code: charge.failure.code, decline_code: null, message: charge.failure.message } : null };
    }
    return { kind: 'payment_succeeded', subject, verify, amountReceived: charge.amount };
  }

  logContext(event: GatewayXEvent, mode: GatewayMode | null): Record<string, unknown> {
    return { source: 'webhook:gateway_x', event_id: event.id, event_type: event.type, mode, object_id: event.charge?.id ?? null };
  }
}
