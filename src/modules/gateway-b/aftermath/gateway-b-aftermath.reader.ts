import { Injectable } from '@nestjs/common';
import { Clock } from '../../../common/clock/index.js';
import { DomainError } from '../../../common/errors/index.js';
import type { AftermathSweep, PaymentAftermath, ProviderAftermathReader } from '../../gateways/index.js';
import { PaymentQueriesService, type PaymentRecord, type PaymentSweepCursor } from '../../payments/index.js';
import { OptionsService } from '../../settings/index.js';
import { CHECKOUT_ALIAS } from '../../../config/index.js';
import { GatewayBClientFactory } from '../client/gateway-b-client.factory.js';
import { toGatewayBFailure } from '../client/gateway-b-failures.js';
import { GATEWAY_B_REFUND_DAYS, GatewayBRefunds } from '../refunds/gateway-b-refunds.js';
import { GatewayBDisputes } from './gateway-b-disputes.js';

const GATEWAY = 'gateway_b';
/**
 * Captured payments re-read per sweep (one order read and one dispute list each, plus one read per
 * dispute listed). Every payment of the 180-day refund window is read again every ceil(payments in
 * the window / capturesPerSweep) sweeps: with the default reconciliation interval of 5 minutes and
 * 20 a sweep, 5,760 captured payments a day are covered daily. An object so a test can lower it.
 */
export const GATEWAY_B_AFTERMATH_LIMITS = { capturesPerSweep: 20, pendingPerSweep: 20 };
/**
 * The rolling cursor, `{ created_at, id }` of the last payment read. Not the option of the releases
 * that went by id (`…_gateway_b_aftermath_cursor`, a bare id): during a rolling deploy an instance
 * of either release reads only its own form (the old option is left as it is).
 */
const CURSOR_OPTION = `${CHECKOUT_ALIAS}_gateway_b_aftermath_position`;

/** The cursor as the option stores it: the last payment read (its creation time, ISO 8601, and id); null: from the window's start. */
interface StoredCursor {
  created_at: string;
  id: number;
}

/** The stored cursor, or null to start from the window's start: also for a value that does not read as a cursor. */
function cursorOf(stored: unknown): PaymentSweepCursor | null {
  if (typeof stored !== 'object' || stored === null) return null;
  const { created_at: createdAt, id } = stored as Partial<StoredCursor>;
  const at = typeof createdAt === 'string' ? new Date(createdAt) : null;
  if (!at || Number.isNaN(at.getTime()) || !Number.isSafeInteger(id) || (id as number) < 1) return null;
  return { createdAt: at, id: id as number };
}

/**
 * Refunds and disputes made at gateway B outside this service, read back with the payment's mode
 * credentials: refunds from the order the payment holds (`purchase_units[].payments.refunds`,
 * through the refunds capability's own order read), disputes from Customer Disputes v1 by the
 * payment's capture (`GatewayBDisputes`). The provider sends no event this service subscribes to
 * for them: a rolling cursor over the captured payments of the refund window re-reads a bounded
 * number of them per sweep (and a verified refund, reversal or dispute event has its payment
 * read at once). Payments holding a pending refund are read first on every sweep (bounded too), so
 * a pending refund settles, and gives back or spends what it holds, by the next sweep. A provider
 * failure is thrown as the service's 502/503.
 */
@Injectable()
export class GatewayBAftermathReader implements ProviderAftermathReader {
  constructor(
    private readonly refunds: GatewayBRefunds,
    private readonly disputes: GatewayBDisputes,
    private readonly clients: GatewayBClientFactory,
    private readonly payments: PaymentQueriesService,
    private readonly options: OptionsService,
    private readonly clock: Clock,
  ) {}

  async readPayment(paymentId: number): Promise<PaymentAftermath | null> {
    const payment = await this.payments.findById(paymentId);
    if (!payment || payment.gateway !== GATEWAY || !payment.provider_payment_ref || !payment.provider_capture_ref) return null;
    return this.read(payment);
  }

  async sweep(justMoved: ReadonlySet<number> = new Set()): Promise<AftermathSweep> {
    const since = new Date(this.clock.now().getTime() - GATEWAY_B_REFUND_DAYS * 86_400_000);
    const after = cursorOf(await this.options.get<unknown>(CURSOR_OPTION, null));
    const limit = GATEWAY_B_AFTERMATH_LIMITS.capturesPerSweep;
    // Pending refunds hold their amount: read their payments on every sweep, not only when the cursor comes round.
    const pending = await this.payments.findHoldingPendingRefunds({ gateway: GATEWAY, limit: GATEWAY_B_AFTERMATH_LIMITS.pendingPerSweep });
    const batch = await this.payments.findCaptured({ gateway: GATEWAY, since, after, limit });
    const found: PaymentAftermath[] = [];
    const done = new Set<number>(justMoved);
    for (const payment of [...pending, ...batch]) {
      // Its order was read a moment ago to complete it (or in this sweep): its refunds are read on the cursor's next pass.
      if (done.has(payment.id)) continue;
      done.add(payment.id);
      try {
        found.push(await this.read(payment));
      } catch (error) {
        // A mode no longer connected (409): its payments cannot be read; the others still are.
        if (error instanceof DomainError && error.status === 409) continue;
        throw error;
      }
    }
    // A short batch reached the window's end: the next sweep starts over from its beginning (the oldest payment of the window, by creation time then id).
    const last = batch[batch.length - 1];
    const next: StoredCursor | null = batch.length < limit ? null : { created_at: last.created_at, id: last.id };
    return { payments: found, read: pending.length + batch.length, bounded: batch.length === limit, commit: () => this.options.set(CURSOR_OPTION, next) };
  }

  private async read(payment: PaymentRecord): Promise<PaymentAftermath> {
    try {
      return await this.readAll(payment);
    } catch (error) {
      throw toGatewayBFailure(error);
    }
  }

  private async readAll(payment: PaymentRecord): Promise<PaymentAftermath> {
    const listed = await this.refunds.list({
      payment_id: payment.id,
      mode: payment.mode,
      currency: payment.currency,
      amount_received: payment.amount_received ?? 0,
      application_fee_amount: payment.application_fee_amount,
      provider_payment_ref: payment.provider_payment_ref,
      provider_charge_ref: payment.provider_charge_ref,
      provider_capture_ref: payment.provider_capture_ref,
      created_at: payment.created_at,
    });
    const refunded = listed.filter((refund) => refund.status === 'succeeded').reduce((sum, refund) => sum + refund.amount, 0);
    const disputes = await this.disputesOf(payment, refunded, this.clock.now());
    return { paymentId: payment.id, refunds: listed, disputes };
  }

  /** The payment's disputes (Customer Disputes v1, by its capture), with what the order's refunds gave back. */
  private async disputesOf(payment: PaymentRecord, refunded: number, now: Date): Promise<PaymentAftermath['disputes']> {
    const client = await this.clients.forMode(payment.mode);
    const target = { id: payment.id, mode: payment.mode, currency: payment.currency, captureId: payment.provider_capture_ref!, amountReceived: payment.amount_received ?? 0, refunded };
    return (await this.disputes.read(client, target, now)).disputes;
  }
}
