import { Injectable, Logger } from '@nestjs/common';
import { createHash } from 'node:crypto';
import { MoneyFormatError, toMinorUnits } from '../../../common/money/index.js';
import { outsideContract, type WebhookAction } from '../actions/webhook-action.js';
import type { WebhookEventSource } from '../webhook-intake.service.js';
import { InvalidEventError } from '../webhook.errors.js';
import { GENERIC_EVENT_ID } from './generic-webhook.dto.js';

const SOURCE = 'webhook:generic';
/** The one event section B's receive route applies (docs/interface.md, "Events"). */
export const GENERIC_PAYMENT_SUCCEEDED = 'payment_intent.succeeded';

export interface GenericEvent {
  /** The envelope's `id`, or `sha256:<hex of the raw body>` */
  id: string;
  type: string;
  transactionId: string;
  /** Major units as sent (a JSON number or a decimal string) */
  amount: string;
  currency: string;
  /** `amount` in minor units of `currency`, or null when it is not one */
  minorAmount: number | null;
}

/**
 * Section B's `{event, data: {transaction_id, amount, currency}}` envelopes for the shared intake
 * (provider `generic`, no mode). Only `payment_intent.succeeded` acts: it completes the local
 * payment named by `transaction_id` (as in section B's `GET /payment/status`) when it is pending
 * or processing and the amount (major units, converted exactly) and currency equal the record's;
 * amounts or currencies that differ are `rejected` (logged, record untouched); anything else is
 * stored and `ignored`.
 */
@Injectable()
export class GenericEventSource implements WebhookEventSource<GenericEvent, null> {
  readonly provider = 'generic';
  private readonly logger = new Logger('GenericWebhook');

  parse(rawBody: Buffer): GenericEvent {
    let body: unknown;
    try {
      body = JSON.parse(rawBody.toString('utf8'));
    } catch {
      throw invalid();
    }
    if (!isObject(body) || !isObject(body.data)) throw invalid();
    const { id, event, data } = body as { id?: unknown; event?: unknown; data: Record<string, unknown> };
    const amount = typeof data.amount === 'number' || typeof data.amount === 'string' ? String(data.amount) : null;
    if (typeof event !== 'string' || event === '' || typeof data.transaction_id !== 'string' || typeof data.currency !== 'string' || amount === null) throw invalid();
    if (id !== undefined && (typeof id !== 'string' || !GENERIC_EVENT_ID.test(id))) throw invalid();
    return {
      id: id ?? `sha256:${createHash('sha256').update(rawBody).digest('hex')}`,
      type: event.slice(0, 100),
      transactionId: data.transaction_id,
      amount,
      currency: data.currency,
      minorAmount: minorUnits(amount, data.currency),
    };
  }

  actionOf(event: GenericEvent): WebhookAction {
    if (event.type !== GENERIC_PAYMENT_SUCCEEDED) {
      this.logger.log({ event_id: event.id, event_type: event.type }, 'generic webhook ignored: not payment_intent.succeeded');
      return outsideContract('event outside the contract');
    }
    const amount = event.minorAmount;
    return {
      kind: 'payment_succeeded',
      subject: { find: { transactionId: event.transactionId } },
      amountReceived: amount ?? 0,
      verify: (payment) => {
        if (amount === null || amount !== payment.amount || event.currency.toUpperCase() !== payment.currency) {
          return { reject: 'amount or currency differs from the record', details: { event_amount: event.amount.slice(0, 32), event_currency: event.currency.slice(0, 3) } };
        }
        if (payment.status !== 'pending' && payment.status !== 'processing') return { ignore: `the payment is ${payment.status}` };
        return null;
      },
    };
  }

  logContext(event: GenericEvent): Record<string, unknown> {
    return { source: SOURCE, event_id: event.id, event_type: event.type, transaction_id: event.transactionId.slice(0, 255) };
  }
}

/** Major units as sent, in minor units; null when they are not an amount of the currency. */
function minorUnits(amount: string, currency: string): number | null {
  try {
    return toMinorUnits(amount, currency);
  } catch (error) {
    if (!(error instanceof MoneyFormatError)) throw error;
    return null;
  }
}

function invalid(): InvalidEventError {
  return new InvalidEventError('checkout_invalid_event', 'The body is not a webhook envelope ({event, data: {transaction_id, amount, currency}}).');
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
