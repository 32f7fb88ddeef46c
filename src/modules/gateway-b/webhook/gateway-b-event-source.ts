import { Injectable, Logger } from '@nestjs/common';
import { isDuplicateKeyError } from '../../../database/index.js';
import type { GatewayMode } from '../../gateways/index.js';
import { MAX_INT, PaymentLedgerService, PaymentQueriesService, type PaymentRecord, type TransitionOutcome } from '../../payments/index.js';
import { type EffectResult, InvalidEventError, type WebhookEventSource } from '../../webhooks/index.js';
import { fromGatewayBAmount } from '../client/gateway-b-money.js';
import { GatewayBScope } from '../client/gateway-b-scope.js';
import { type GatewayBCapture, type GatewayBWebhookEvent, MalformedAnswer, parseCaptureResource, parseWebhookEvent } from '../client/gateway-b-wire.js';
import { sameMoney } from '../checkout/order-contract.js';

const GATEWAY = 'gateway_b';
const SOURCE = 'webhook:gateway_b';
/** The capture-completed event (docs/decisions.md §8); every other event type is stored and ignored. */
export const GATEWAY_B_CAPTURE_COMPLETED = 'PAYMENT.CAPTURE.COMPLETED';

export interface GatewayBEvent extends GatewayBWebhookEvent {
  /** The store's `type` */
  type: string;
}

/**
 * Gateway B's events for the shared webhook intake: parsed from the verified bytes, stored once
 * (provider `gateway_b`, PayPal's event id), and only `PAYMENT.CAPTURE.COMPLETED` applied. It
 * completes a record only when everything ties it to that record:
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
    private readonly ledger: PaymentLedgerService,
    private readonly payments: PaymentQueriesService,
    private readonly scope: GatewayBScope,
  ) {}

  parse(rawBody: Buffer): GatewayBEvent {
    let event: GatewayBWebhookEvent;
    try {
      event = parseWebhookEvent(JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(rawBody)));
    } catch (error) {
      if (!(error instanceof SyntaxError || error instanceof MalformedAnswer || error instanceof TypeError)) throw error;
      throw new InvalidEventError('checkout_invalid_event', 'The body is not a gateway B event (id, event_type and resource are required).');
    }
    return { ...event, type: event.event_type };
  }

  async apply(event: GatewayBEvent, mode: GatewayMode): Promise<EffectResult> {
    if (event.event_type !== GATEWAY_B_CAPTURE_COMPLETED) {
      this.logger.log({ mode, event_id: event.id, event_type: event.event_type }, 'gateway B webhook ignored: not the capture-completed event');
      return { status: 'ignored', paymentId: null, reason: 'event type outside the contract' };
    }
    let capture: GatewayBCapture;
    let orderId: string | undefined;
    try {
      ({ capture, orderId } = parseCaptureResource(event.resource));
    } catch (error) {
      if (!(error instanceof MalformedAnswer)) throw error;
      return this.ignore(event, mode, 'the capture cannot be read');
    }
    const paymentId = /^[1-9]\d{0,9}$/.test(capture.custom_id ?? '') ? Number(capture.custom_id) : null;
    if (paymentId === null || paymentId > MAX_INT || capture.invoice_id !== this.scope.invoiceId(paymentId)) {
      return this.ignore(event, mode, 'the order was not created by this installation');
    }
    const payment = await this.payments.findById(paymentId);
    if (!payment) return this.ignore(event, mode, 'names no known payment');
    if (payment.gateway !== GATEWAY || payment.mode !== mode) return this.reject(event, payment, `the record is a ${payment.gateway} ${payment.mode} payment`);
    if (!orderId || payment.provider_payment_ref !== orderId) return this.reject(event, payment, 'the record holds another order');
    if (payment.provider_capture_ref && payment.provider_capture_ref !== capture.id) return this.reject(event, payment, 'the record holds another capture');
    if (!sameMoney(capture.amount, payment.amount, payment.currency)) {
      return this.reject(event, payment, 'amount or currency differs from the record', { event_amount: capture.amount?.value ?? null, event_currency: capture.amount?.currency_code ?? null });
    }
    if (capture.status !== 'COMPLETED') return this.reject(event, payment, `the capture is ${capture.status}`);
    return this.complete(event, payment, capture);
  }

  private async complete(event: GatewayBEvent, payment: PaymentRecord, capture: GatewayBCapture): Promise<EffectResult> {
    let outcome: TransitionOutcome;
    try {
      ({ outcome } = await this.ledger.transition(payment.id, 'completed', {
        source: SOURCE,
        reason: event.event_type,
        patch: { amountReceived: fromGatewayBAmount(capture.amount!).minor, providerCaptureRef: capture.id },
        tolerateRefusal: true,
      }));
    } catch (error) {
      if (!isDuplicateKeyError(error)) throw error;
      return this.reject(event, payment, 'the capture is linked to another payment');
    }
    if (outcome === 'applied' || outcome === 'unchanged') return { status: 'processed', paymentId: payment.id };
    return { status: 'ignored', paymentId: payment.id, reason: `a ${payment.status} payment does not become completed` };
  }

  private async reject(event: GatewayBEvent, payment: PaymentRecord, why: string, details: Record<string, unknown> = {}): Promise<EffectResult> {
    await this.ledger.log({
      paymentId: payment.id,
      level: 'warning',
      event: 'webhook_contract_mismatch',
      message: `${event.event_type} not applied: ${why}.`,
      context: { ...context(event, payment.mode), ...details },
    });
    return { status: 'rejected', paymentId: payment.id, reason: why };
  }

  private async ignore(event: GatewayBEvent, mode: GatewayMode, why: string): Promise<EffectResult> {
    await this.ledger.log({ paymentId: null, level: 'info', event: 'webhook_ignored', message: `${event.event_type} ignored: ${why}.`, context: context(event, mode) });
    return { status: 'ignored', paymentId: null, reason: why };
  }
}

function context(event: GatewayBEvent, mode: GatewayMode): Record<string, unknown> {
  const resourceId = typeof event.resource.id === 'string' ? event.resource.id.slice(0, 64) : null;
  return { source: SOURCE, event_id: event.id, event_type: event.event_type, mode, object_id: resourceId };
}
