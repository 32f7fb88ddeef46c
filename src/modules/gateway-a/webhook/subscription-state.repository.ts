import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { locksRows } from '../../../database/index.js';
import { SubscriptionStateEntity } from './subscription-state.entity.js';

export interface SubscriptionEventFacts {
  gateway: string;
  subscriptionRef: string;
  paymentId: number;
  status: string;
  eventId: string;
  eventCreatedAt: Date;
}

/** Statuses a subscription never leaves at the gateway. */
const FINAL_STATUSES = new Set(['canceled', 'incomplete_expired']);

/**
 * How far along a subscription is; breaks ties between events created in the same second
 * (`created` has one-second resolution, and `customer.subscription.created` (incomplete) and
 * `.updated` (active) are often sent within one).
 */
function progress(status: string): number {
  if (FINAL_STATUSES.has(status)) return 2;
  return status === 'incomplete' ? 0 : 1;
}

/**
 * Decides whether a subscription event may set the stored status: not when a newer event was
 * applied before, nor after a final status. The same event again is allowed (a redelivery after
 * a failure re-applies it).
 */
export function isCurrentSubscriptionEvent(stored: Pick<SubscriptionStateEntity, 'status' | 'eventId' | 'eventCreatedAt'> | null, event: SubscriptionEventFacts): boolean {
  if (!stored) return true;
  if (stored.eventId === event.eventId) return true;
  if (FINAL_STATUSES.has(stored.status)) return false;
  const storedAt = stored.eventCreatedAt.getTime();
  const eventAt = event.eventCreatedAt.getTime();
  if (eventAt !== storedAt) return eventAt > storedAt;
  return progress(event.status) >= progress(stored.status);
}

/** The last applied subscription event per provider subscription. Runs inside the caller's transaction. */
@Injectable()
export class SubscriptionStateRepository {
  /**
   * Records `event` as the subscription's latest when it is current (see isCurrentSubscriptionEvent)
   * and answers whether it was. Call it while holding the payment's row lock, which orders the
   * events of one subscription. The stored state is read under the lock too (FOR UPDATE where the
   * driver has it): a plain read inside the transaction may be a snapshot from before the event
   * this one waited for (TiDB), and would let an older event overwrite a newer one.
   */
  async claimIfCurrent(manager: EntityManager, event: SubscriptionEventFacts): Promise<boolean> {
    const repository = manager.getRepository(SubscriptionStateEntity);
    const stored = await repository.findOne({
      where: { gateway: event.gateway, subscriptionRef: event.subscriptionRef },
      ...(locksRows(manager) ? { lock: { mode: 'pessimistic_write' as const } } : {}),
    });
    if (!isCurrentSubscriptionEvent(stored, event)) return false;
    const values = { paymentId: event.paymentId, status: event.status, eventId: event.eventId, eventCreatedAt: event.eventCreatedAt, updatedAt: new Date() };
    if (stored) await repository.update({ id: stored.id }, values);
    else await repository.insert({ gateway: event.gateway, subscriptionRef: event.subscriptionRef, ...values });
    return true;
  }

  find(manager: EntityManager, gateway: string, subscriptionRef: string): Promise<SubscriptionStateEntity | null> {
    return manager.getRepository(SubscriptionStateEntity).findOne({ where: { gateway, subscriptionRef } });
  }
}
