import { Injectable, Logger } from '@nestjs/common';
import { Clock } from '../../../common/clock/index.js';
import { GATEWAY_MODES, type AftermathSweep, type PaymentAftermath, type ProviderAftermathReader } from '../../gateways/index.js';
import { PaymentQueriesService, type PaymentRecord } from '../../payments/index.js';
import { OptionsService } from '../../settings/index.js';
import { type GatewayAAccount, GatewayAClientFactory } from '../client/gateway-a-client.factory.js';
import { toGatewayError } from '../client/gateway-a-errors.js';
import { InstallationScope } from '../client/installation-scope.js';
import { gatewayAOption } from '../gateway-a-options.js';
import {
  disputeItem,
  eventItem,
  type GatewayADispute,
  type GatewayAEventIds,
  type GatewayARefund,
  parseDispute,
  parseList,
  parseRefund,
  refundItem,
} from './gateway-a-aftermath-answers.js';

const GATEWAY = 'gateway_a';
/** The event types that say a refund or a dispute changed (read from GET /v1/events; the webhook endpoint keeps its 12 events). */
export const AFTERMATH_EVENT_TYPES = [
  'charge.refunded',
  'charge.refund.updated',
  'charge.dispute.created',
  'charge.dispute.updated',
  'charge.dispute.closed',
  'charge.dispute.funds_withdrawn',
  'charge.dispute.funds_reinstated',
] as const;
/** Each sweep reads again this far before its cursor: an event stored late with an earlier `created` is not missed (a second pass changes nothing). */
export const AFTERMATH_OVERLAP_S = 5 * 60;
/** The gateway keeps events 30 days: a first sweep starts there. */
const FIRST_SWEEP_S = 30 * 86_400;
/**
 * Bounds of one sweep per mode: `maxPages` event pages of `pageSize`; past them the window is
 * narrowed and the rest read by the next runs. An object so a test can lower them.
 */
export const AFTERMATH_LIMITS = { pageSize: 100, maxPages: 10 };
const PAGE = 100;
/** Refunds or disputes listed per payment (`reconcile --payment`), pages of 100. */
const MAX_PER_PAYMENT_PAGES = 5;

/**
 * Where a mode's sweep stands, in the gateway's event time (seconds): events created at or after
 * `after − overlap` are read. `resumeAfter`, when set, is the last event the previous sweep read
 * before its bound: the list goes on after it (the gateway's own list cursor; a time cannot say
 * it, events share their second), and `newest` is where `after` goes once that window is done.
 */
interface AftermathCursor {
  after: number;
  resumeAfter: string | null;
  newest: number;
}

/**
 * Refunds and disputes made at gateway A outside this service (the dashboard, the payer's bank),
 * read back with the credentials of each connected mode: the sweep takes only ids from the listed
 * events (never their objects), re-reads each refund or dispute at the pinned API version, and
 * keeps only those of a payment intent one of this installation's payments holds. One payment at
 * once: its refunds and disputes listed by payment intent.
 */
@Injectable()
export class GatewayAAftermathReader implements ProviderAftermathReader {
  private readonly logger = new Logger('GatewayAAftermath');

  constructor(
    private readonly clients: GatewayAClientFactory,
    private readonly payments: PaymentQueriesService,
    private readonly options: OptionsService,
    private readonly scope: InstallationScope,
    private readonly clock: Clock,
  ) {}

  async readPayment(paymentId: number): Promise<PaymentAftermath | null> {
    const payment = await this.payments.findById(paymentId);
    const intent = payment ? refundTargetOf(payment) : null;
    if (!payment || payment.gateway !== GATEWAY || !intent) return null;
    const account = await this.clients.forMode(payment.mode);
    try {
      const refunds = await this.listAll(account, 'refunds.list', (startingAfter) => account.client.refunds.list({ payment_intent: intent, limit: PAGE, ...(startingAfter ? { starting_after: startingAfter } : {}) }), refundItem(this.scope.id), (refund) => refund.providerRefundId);
      const disputes = await this.listAll(account, 'disputes.list', (startingAfter) => account.client.disputes.list({ payment_intent: intent, limit: PAGE, ...(startingAfter ? { starting_after: startingAfter } : {}) }), disputeItem(payment.mode), (dispute) => dispute.providerDisputeId);
      return { paymentId: payment.id, refunds: refunds.filter((refund) => refund.paymentIntent === intent), disputes: disputes.filter((dispute) => dispute.paymentIntent === intent) };
    } catch (error) {
      throw toGatewayError(error);
    }
  }

  async sweep(): Promise<AftermathSweep> {
    const byPayment = new Map<number, PaymentAftermath>();
    const commits: Array<() => Promise<void>> = [];
    let read = 0;
    let bounded = false;
    for (const mode of GATEWAY_MODES) {
      const account = await this.clients.findForMode(mode);
      if (!account) continue;
      try {
        const result = await this.sweepMode(account, byPayment);
        read += result.read;
        bounded ||= result.bounded;
        commits.push(result.commit);
      } catch (error) {
        throw toGatewayError(error);
      }
    }
    return {
      payments: [...byPayment.values()],
      read,
      bounded,
      commit: async () => {
        for (const commit of commits) await commit();
      },
    };
  }

  private async sweepMode(account: GatewayAAccount, byPayment: Map<number, PaymentAftermath>): Promise<{ read: number; bounded: boolean; commit: () => Promise<void> }> {
    const mode = account.mode;
    const nowS = Math.floor(this.clock.now().getTime() / 1000);
    const cursor = await this.options.get<AftermathCursor | null>(gatewayAOption.aftermathCursor(mode), null);
    const after = cursor?.after ?? nowS - FIRST_SWEEP_S;
    const events: GatewayAEventIds[] = [];
    let hasMore = true;
    let startingAfter: string | undefined = cursor?.resumeAfter ?? undefined;
    for (let page = 0; page < AFTERMATH_LIMITS.maxPages && hasMore; page++) {
      const created = { gte: after - AFTERMATH_OVERLAP_S };
      const list = parseList(
        await account.client.events.list({ types: [...AFTERMATH_EVENT_TYPES], created, limit: AFTERMATH_LIMITS.pageSize, ...(startingAfter ? { starting_after: startingAfter } : {}) }),
        'events.list',
        eventItem,
      );
      events.push(...list.items);
      hasMore = list.hasMore && list.items.length > 0;
      startingAfter = list.items.at(-1)?.id;
    }
    // Ids only: each refund and dispute is read back; a refund event without one names its intent.
    const refundIds = new Set(events.flatMap((event) => (event.refund ? [event.refund] : [])));
    const disputeIds = new Set(events.flatMap((event) => (event.dispute ? [event.dispute] : [])));
    const intents = new Set(events.flatMap((event) => (event.type === 'charge.refunded' && event.paymentIntent ? [event.paymentIntent] : [])));
    let read = events.length;
    const ours = new Map<string, PaymentRecord | null>();
    const paymentOf = async (intent: string): Promise<PaymentAftermath | null> => {
      if (!ours.has(intent)) {
        const payment = await this.payments.findByRefundTarget(GATEWAY, intent);
        ours.set(intent, payment && payment.mode === mode ? payment : null);
      }
      const payment = ours.get(intent);
      if (!payment) return null;
      let entry = byPayment.get(payment.id);
      if (!entry) byPayment.set(payment.id, (entry = { paymentId: payment.id, refunds: [], disputes: [] }));
      return entry;
    };
    const addRefund = async (refund: GatewayARefund) => {
      const entry = await paymentOf(refund.paymentIntent);
      if (entry && !entry.refunds.some((known) => known.providerRefundId === refund.providerRefundId)) entry.refunds.push(refund);
    };
    const addDispute = async (dispute: GatewayADispute) => {
      const entry = await paymentOf(dispute.paymentIntent);
      if (entry && !entry.disputes.some((known) => known.providerDisputeId === dispute.providerDisputeId)) entry.disputes.push(dispute);
    };
    for (const intent of intents) {
      // Only an intent of this installation is read further.
      if (!(await paymentOf(intent))) continue;
      const refunds = await this.listAll(account, 'refunds.list', (next) => account.client.refunds.list({ payment_intent: intent, limit: PAGE, ...(next ? { starting_after: next } : {}) }), refundItem(this.scope.id), (refund) => refund.providerRefundId);
      read += refunds.length;
      for (const refund of refunds) if (refund.paymentIntent === intent) await addRefund(refund);
    }
    for (const id of refundIds) {
      await addRefund(parseRefund(await account.client.refunds.retrieve(id), 'refunds.retrieve', this.scope.id));
      read += 1;
    }
    for (const id of disputeIds) {
      await addDispute(parseDispute(await account.client.disputes.retrieve(id), 'disputes.retrieve', mode));
      read += 1;
    }
    const bounded = hasMore;
    const newestRead = Math.max(cursor?.newest ?? after, ...events.map((event) => event.created));
    const next: AftermathCursor = bounded
      ? // The newest part of the window was read: the list goes on after the last event read.
        { after, resumeAfter: events.at(-1)!.id, newest: newestRead }
      : { after: Math.max(after, newestRead), resumeAfter: null, newest: Math.max(after, newestRead) };
    if (bounded) this.logger.warn({ mode, events: events.length }, 'refund and dispute events past the sweep bound: the rest is read by the next runs');
    return { read, bounded, commit: () => this.options.set(gatewayAOption.aftermathCursor(mode), next) };
  }

  /** Every page of a list, at most MAX_PER_PAYMENT_PAGES. */
  private async listAll<T>(_account: GatewayAAccount, operation: string, page: (startingAfter?: string) => Promise<unknown>, item: Parameters<typeof parseList<T>>[2], idOf: (item: T) => string): Promise<T[]> {
    const all: T[] = [];
    let next: string | undefined;
    for (let index = 0; index < MAX_PER_PAYMENT_PAGES; index++) {
      const list = parseList(await page(next), operation, item);
      all.push(...list.items);
      if (!list.hasMore || list.items.length === 0) break;
      next = idOf(list.items.at(-1)!);
    }
    return all;
  }
}

/**
 * The payment intent that took a payment's money: a subscription's payments are refunded on their
 * invoice's intent (`provider_charge_ref`, stored when `invoice.paid` is applied), others on their own.
 */
function refundTargetOf(payment: PaymentRecord): string | null {
  const ref = payment.provider_charge_ref ?? payment.provider_payment_ref;
  return ref && ref.startsWith('pi_') ? ref : null;
}
