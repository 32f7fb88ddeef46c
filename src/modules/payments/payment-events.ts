import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { PaymentRecord } from './payment-record.js';

/**
 * What happened to a payment, for modules that tell others about it (outgoing webhooks). `type`
 * is the public event name (`payment.completed`, `subscription.renewed`...); a new kind (a refund,
 * a dispute) is one `announce` call where its move is written, with its own `data` beside the
 * payment (e.g. `{ refund }`).
 */
export interface PaymentEvent {
  type: string;
  payment: PaymentRecord;
  /** Extra members of the event's `data` (never secrets). */
  data?: Record<string, unknown>;
}

/** Called inside the transaction that wrote the move (`manager` is its): write only to the database there. */
export type PaymentEventListener = (manager: EntityManager, event: PaymentEvent) => Promise<void>;

/**
 * The payments module's announcements of its moves, so a module that imports payments can follow
 * them in the same commit without payments importing it (docs/architecture.md). A listener runs in
 * the mover's transaction: a rolled-back move announces nothing, a committed one cannot lose its
 * announcement. On MariaDB the transaction may run again after a conflict: listeners touch only the DB.
 */
@Injectable()
export class PaymentEvents {
  private readonly listeners: PaymentEventListener[] = [];

  /** Registers a listener (its module's `onModuleInit`). */
  listen(listener: PaymentEventListener): void {
    this.listeners.push(listener);
  }

  async announce(manager: EntityManager, event: PaymentEvent): Promise<void> {
    for (const listener of this.listeners) await listener(manager, event);
  }
}

/** The event of a status move that merchants are told of, or null (renewals are the subscription's). */
export function statusEventType(payment: PaymentRecord, to: string): string | null {
  const renewal = payment.parent_payment_id !== null;
  if (to === 'completed') return renewal ? 'subscription.renewed' : 'payment.completed';
  if (to === 'failed') return renewal ? 'subscription.payment_failed' : 'payment.failed';
  return null;
}
