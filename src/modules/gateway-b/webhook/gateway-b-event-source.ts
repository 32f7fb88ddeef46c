import { Injectable, Logger } from '@nestjs/common';
import type { GatewayMode } from '../../gateways/index.js';
import { MAX_INT } from '../../payments/index.js';
import { InvalidEventError, nothingToDo, outsideContract, type WebhookAction, type WebhookEventSource } from '../../webhooks/index.js';
import { fromGatewayBAmount } from '../client/gateway-b-money.js';
import { GatewayBScope } from '../client/gateway-b-scope.js';
import { type GatewayBCapture, type GatewayBWebhookEvent, MalformedAnswer, parseCaptureResource, parseWebhookEvent } from '../client/gateway-b-wire.js';
import { sameMoney } from '../checkout/order-contract.js';
import { GatewayBAftermathReader } from '../aftermath/gateway-b-aftermath.reader.js';

const GATEWAY = 'gateway_b';
const SOURCE = 'webhook:gateway_b';
/** The capture-completed event (docs/decisions.md §8); every other event type is stored and ignored. */
export const GATEWAY_B_CAPTURE_COMPLETED = 'PAYMENT.CAPTURE.COMPLETED';
/**
 * Events that say a captured payment's money moved afterwards (a refund, a reversal, a dispute),
 * when the merchant's listener sends them: only the capture they name is taken, and the payment
 * holding it is read again from the provider (its order's refunds, its disputes; docs/decisions.md §16).
 */
export const GATEWAY_B_AFTERMATH_EVENTS: readonly string[] = [
  'PAYMENT.CAPTURE.REFUNDED',
  'PAYMENT.CAPTURE.REVERSED',
  'CUSTOMER.DISPUTE.CREATED',
  'CUSTOMER.DISPUTE.UPDATED',
  'CUSTOMER.DISPUTE.RESOLVED',
];
const CAPTURE_ID = /^[A-Z0-9]{1,64}$/;
const CAPTURE_LINK = /\/v2\/payments\/captures\/([A-Z0-9]{1,64})$/;

export interface GatewayBEvent extends GatewayBWebhookEvent {
  /** The store's `type` */
  type: string;
  /**
   * A capture-completed event's capture and the order it belongs to, read once with the event;
   * `unreadable` when its resource is not a capture (stored and ignored, as the contract says);
   * null for the other event types.
   */
  capture: { capture: GatewayBCapture; orderId?: string } | 'unreadable' | null;
}

/**
 * Gateway B's events for the shared webhook intake: parsed from the verified bytes, stored once
 * (provider `gateway_b`, PayPal's event id), and only `PAYMENT.CAPTURE.COMPLETED` acts: it asks
 * for the payment to succeed, and the core applies that only when everything ties it to that
 * record:
 *
 * - the capture's `invoice_id` is this installation's marker for the payment named by its
 *   `custom_id` — otherwise `ignored` (another installation's, or not an order of this service);
 * - that payment exists (else `ignored`), is a gateway-B payment of the URL's mode holding exactly
 *   the order in `supplementary_data.related_ids.order_id` (and no other capture), and the
 *   capture's amount and currency equal the record's — otherwise `rejected`, logged, untouched.
 *
 * The move goes through the status machine (never backwards; a repeat is `processed` again).
 */
@Injectable()
export class GatewayBEventSource implements WebhookEventSource<GatewayBEvent> {
  readonly provider = GATEWAY;
  private readonly logger = new Logger('GatewayBWebhook');

  constructor(
    private readonly scope: GatewayBScope,
    private readonly aftermath: GatewayBAftermathReader,
  ) {}

  parse(rawBody: Buffer): GatewayBEvent {
    let event: GatewayBWebhookEvent;
    try {
      event = parseWebhookEvent(JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(rawBody)));
    } catch (error) {
      if (!(error instanceof SyntaxError || error instanceof MalformedAnswer || error instanceof TypeError)) throw error;
      throw new InvalidEventError('checkout_invalid_event', 'The body is not a gateway B event (id, event_type and resource are required).');
    }
    return { ...event, type: event.event_type, capture: event.event_type === GATEWAY_B_CAPTURE_COMPLETED ? readCapture(event.resource) : null };
  }

  actionOf(event: GatewayBEvent, mode: GatewayMode): WebhookAction {
    if (GATEWAY_B_AFTERMATH_EVENTS.includes(event.event_type)) return this.aftermathChanged(event, mode);
    if (event.event_type !== GATEWAY_B_CAPTURE_COMPLETED) {
      this.logger.log({ mode, event_id: event.id, event_type: event.event_type }, 'gateway B webhook ignored: not the capture-completed event');
      return outsideContract('event type outside the contract');
    }
    if (event.capture === null || event.capture === 'unreadable') return nothingToDo('the capture cannot be read');
    const { capture, orderId } = event.capture;
    const paymentId = /^[1-9]\d{0,9}$/.test(capture.custom_id ?? '') ? Number(capture.custom_id) : null;
    if (paymentId === null || paymentId > MAX_INT || capture.invoice_id !== this.scope.invoiceId(paymentId)) {
      return nothingToDo('the order was not created by this installation');
    }
    return {
      kind: 'payment_succeeded',
      subject: {
        find: { paymentId },
        of: { gateway: GATEWAY, mode },
        holds: { field: 'provider_payment_ref', ref: orderId ?? null, other: 'the record holds another order', none: 'the record holds another order' },
        unknown: 'ignored',
      },
      amountReceived: minorOrZero(capture),
      providerCaptureRef: capture.id,
      verify: (payment) => {
        if (payment.provider_capture_ref && payment.provider_capture_ref !== capture.id) return { reject: 'the record holds another capture' };
        if (!sameMoney(capture.amount, payment.amount, payment.currency)) {
          return { reject: 'amount or currency differs from the record', details: { event_amount: capture.amount?.value ?? null, event_currency: capture.amount?.currency_code ?? null } };
        }
        if (capture.status !== 'COMPLETED') return { reject: `the capture is ${capture.status}` };
        return null;
      },
    };
  }

  /**
   * A refund, reversal or dispute event: its body is not trusted beyond the capture id it names
   * (a refund's `up` link, a reversed capture's id, a dispute's `seller_transaction_id`); the
   * payment holding that capture in this gateway and mode is read again (its order's refunds and
   * its disputes by that capture).
   */
  private aftermathChanged(event: GatewayBEvent, mode: GatewayMode): WebhookAction {
    const captureId = capturedNamed(event);
    if (!captureId) return nothingToDo('the event names no capture');
    return {
      kind: 'aftermath_changed',
      subject: {
        find: { providerCaptureRef: captureId },
        of: { gateway: GATEWAY, mode },
        holds: { field: 'provider_capture_ref', ref: captureId, other: 'the record holds another capture', none: 'the record holds no capture' },
        unknown: 'ignored',
      },
      reread: (payment) => this.aftermath.readPayment(payment.id),
    };
  }

  logContext(event: GatewayBEvent, mode: GatewayMode | null): Record<string, unknown> {
    const resourceId = typeof event.resource.id === 'string' ? event.resource.id.slice(0, 64) : null;
    return { source: SOURCE, event_id: event.id, event_type: event.event_type, mode, object_id: resourceId };
  }
}

/**
 * The capture an aftermath event names, or null. A refund's `up` link names its capture; a
 * reversal names it either way (its resource a refund with that link, or the reversed capture
 * itself): only the id is taken, the payment holding it is read again.
 */
function capturedNamed(event: GatewayBEvent): string | null {
  const resource = event.resource;
  if (event.event_type === 'PAYMENT.CAPTURE.REFUNDED') return upCapture(resource);
  if (event.event_type === 'PAYMENT.CAPTURE.REVERSED') return upCapture(resource) ?? (typeof resource.id === 'string' && CAPTURE_ID.test(resource.id) ? resource.id : null);
  const transactions = Array.isArray(resource.disputed_transactions) ? (resource.disputed_transactions as unknown[]) : [];
  const first = (transactions[0] ?? {}) as { seller_transaction_id?: unknown };
  return typeof first.seller_transaction_id === 'string' && CAPTURE_ID.test(first.seller_transaction_id) ? first.seller_transaction_id : null;
}

/** The capture a resource's `up` link points to, or null. */
function upCapture(resource: Record<string, unknown>): string | null {
  const links = Array.isArray(resource.links) ? (resource.links as unknown[]) : [];
  for (const link of links) {
    const { rel, href } = (link ?? {}) as { rel?: unknown; href?: unknown };
    const match = rel === 'up' && typeof href === 'string' ? CAPTURE_LINK.exec(href) : null;
    if (match) return match[1];
  }
  return null;
}

function readCapture(resource: Record<string, unknown>): GatewayBEvent['capture'] {
  try {
    return parseCaptureResource(resource);
  } catch (error) {
    if (!(error instanceof MalformedAnswer)) throw error;
    return 'unreadable';
  }
}

/** The capture's amount in minor units; 0 when it cannot be read (the check of the amount rejects such a capture first). */
function minorOrZero(capture: GatewayBCapture): number {
  try {
    return capture.amount ? fromGatewayBAmount(capture.amount).minor : 0;
  } catch {
    return 0;
  }
}
