import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { EntityManager, Repository } from 'typeorm';
import { isDuplicateKeyError, runStatement } from '../../database/index.js';
import type { GatewayMode } from '../gateways/index.js';
import { WebhookEventEntity, type WebhookEventOutcome } from './webhook-event.entity.js';

export interface IncomingWebhookEvent {
  /** Who sent it: a gateway id (`gateway_a`, `gateway_b`) */
  provider: string;
  eventId: string;
  type: string;
  /** The callback's mode; null on a route without one (section B `/webhook/receive`). */
  mode: GatewayMode | null;
}

export type RecordOutcome = { recorded: true; event: WebhookEventEntity } | { recorded: false; existing: WebhookEventEntity | null };

const MAX_REASON = 255;

/** What an admin sees of an event's fate: its stored outcome, or whether it is still to be applied. */
export const WEBHOOK_EVENT_OUTCOMES = ['processed', 'ignored', 'rejected', 'failed', 'pending'] as const;
export type WebhookEventListOutcome = (typeof WEBHOOK_EVENT_OUTCOMES)[number];

export interface WebhookEventFilter {
  provider?: string;
  mode?: GatewayMode;
  outcome?: WebhookEventListOutcome;
  eventType?: string;
  paymentId?: number;
  /** First received at or after */
  receivedFrom?: Date;
  /** First received before (not at) */
  receivedBefore?: Date;
}

/** The list outcome of a stored event (see WEBHOOK_EVENT_OUTCOMES). */
export function listOutcomeOf(event: Pick<WebhookEventEntity, 'status' | 'reason'>): WebhookEventListOutcome {
  if (event.status === 'received' || event.status === 'processing') return event.reason ? 'failed' : 'pending';
  return event.status;
}

/**
 * The webhook event store (docs/decisions.md §8): every accepted event once; a redelivery changes nothing.
 * An event is claimed by the one delivery that applies it (a conditional update, so concurrent
 * deliveries on any number of instances cannot both win), then gets its outcome.
 */
@Injectable()
export class WebhookEventRepository {
  /** The statements of every delivery, fixed texts instead of the query builder (docs/benchmarks.md). */
  private readonly sql: { insert: string; claim: string; renew: string; outcome: string; outcomeOfOwner: string };

  constructor(@InjectRepository(WebhookEventEntity) private readonly events: Repository<WebhookEventEntity>) {
    const table = `\`${events.metadata.tableName}\``;
    const outcome = `UPDATE ${table} SET \`status\` = ?, \`payment_id\` = ?, \`processed_at\` = ?, \`claimed_by\` = NULL, \`claim_expires_at\` = NULL, \`reason\` = ? WHERE \`id\` = ?`;
    this.sql = {
      insert:
        `INSERT INTO ${table} (\`provider\`, \`event_id\`, \`event_type\`, \`mode\`, \`status\`, \`payment_id\`, \`received_at\`, \`processed_at\`, \`claimed_by\`, \`claim_expires_at\`, \`reason\`)` +
        ' VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
      claim:
        `UPDATE ${table} SET \`status\` = 'processing', \`claimed_by\` = ?, \`claim_expires_at\` = ?` +
        " WHERE `id` = ? AND (`status` = 'received' OR (`status` = 'processing' AND `claim_expires_at` < ?))",
      renew: `UPDATE ${table} SET \`claim_expires_at\` = ? WHERE \`id\` = ? AND \`status\` = 'processing' AND \`claimed_by\` = ?`,
      outcome,
      outcomeOfOwner: `${outcome} AND \`claimed_by\` = ?`,
    };
  }

  /**
   * Inserts the event unless (provider, event id) is already stored. The unique key decides, so
   * concurrent deliveries of one event record it exactly once. Pass the transaction's manager to
   * record the event and its effect atomically. With `claim`, the new row is stored already
   * claimed by that owner (`processing` until `expiresAt`), so the delivery that recorded it needs
   * no separate claim statement; a row that was stored before is returned as it is.
   */
  async recordEventOnce(event: IncomingWebhookEvent, manager?: EntityManager, now = new Date(), claim?: { owner: string; expiresAt: Date }): Promise<RecordOutcome> {
    const row = Object.assign(new WebhookEventEntity(), {
      provider: event.provider,
      eventId: event.eventId,
      eventType: event.type,
      mode: event.mode,
      status: claim ? 'processing' : 'received',
      paymentId: null,
      receivedAt: now,
      processedAt: null,
      claimedBy: claim?.owner ?? null,
      claimExpiresAt: claim?.expiresAt ?? null,
      reason: null,
    } satisfies Omit<WebhookEventEntity, 'id'>);
    try {
      const { insertId } = await runStatement(manager ?? this.events.manager, this.sql.insert, [
        row.provider,
        row.eventId,
        row.eventType,
        row.mode,
        row.status,
        row.paymentId,
        row.receivedAt,
        row.processedAt,
        row.claimedBy,
        row.claimExpiresAt,
        row.reason,
      ]);
      row.id = insertId;
      return { recorded: true, event: row };
    } catch (error) {
      if (!isDuplicateKeyError(error)) throw error;
      return { recorded: false, existing: await this.repo(manager).findOne({ where: { provider: event.provider, eventId: event.eventId } }) };
    }
  }

  /**
   * Claims an unfinished event for `owner` until `expiresAt`: true for exactly one caller while the
   * event is `received`, or `processing` under a claim that has lapsed (its delivery died).
   */
  async claim(id: number, owner: string, now: Date, expiresAt: Date): Promise<boolean> {
    const { affected } = await runStatement(this.events.manager, this.sql.claim, [owner, expiresAt, id, now]);
    return affected > 0;
  }

  /** Extends `owner`'s claim to `expiresAt`: false when the claim is no longer its own (it lapsed and was taken, or the outcome is stored). */
  async renewClaim(id: number, owner: string, expiresAt: Date): Promise<boolean> {
    const { affected } = await runStatement(this.events.manager, this.sql.renew, [expiresAt, id, owner]);
    return affected > 0;
  }

  /** Gives an unfinished event back (the attempt failed) so that a redelivery applies it. */
  async release(id: number, owner: string, reason: string): Promise<void> {
    await this.events.update(
      { id, claimedBy: owner, status: 'processing' },
      { status: 'received', claimedBy: null, claimExpiresAt: null, reason: reason.slice(0, MAX_REASON) },
    );
  }

  /** The outcome of an applied event; `owner` must still hold the claim when one is given. */
  async markOutcome(
    id: number,
    status: WebhookEventOutcome,
    paymentId: number | null,
    manager?: EntityManager,
    now = new Date(),
    reason: string | null = null,
    owner?: string,
  ): Promise<void> {
    const values = [status, paymentId, now, reason?.slice(0, MAX_REASON) ?? null, id];
    await runStatement(manager ?? this.events.manager, owner ? this.sql.outcomeOfOwner : this.sql.outcome, owner ? [...values, owner] : values);
  }

  /**
   * Received events for the admin's list, newest first: by provider, mode and outcome (`failed`:
   * unfinished after a failed attempt, `pending`: unfinished otherwise).
   */
  /**
   * A page of the filtered events, newest first (received_at, then id): after `after` (keyset: an
   * index range however deep), else from `offset`.
   */
  page(filter: WebhookEventFilter, position: { offset: number; after?: { receivedAt: Date; id: number } | null }, limit: number): Promise<WebhookEventEntity[]> {
    const query = this.filtered(filter).orderBy('event.received_at', 'DESC').addOrderBy('event.id', 'DESC').limit(limit);
    if (position.after) {
      query.andWhere('(event.received_at < :afterAt OR (event.received_at = :afterAt AND event.id < :afterId))', { afterAt: position.after.receivedAt, afterId: position.after.id });
    } else if (position.offset > 0) query.offset(position.offset);
    return query.getMany();
  }

  /**
   * How many events the filter matches, counted up to `cap` + 1 (a bounded read of index entries);
   * past it, unfiltered, the table's size from the statistics (MariaDB) or an exact count (SQLite),
   * filtered, `cap` (at least that many), `estimated` then true but for SQLite's exact count.
   */
  async countUpTo(filter: WebhookEventFilter, cap: number): Promise<{ total: number; estimated: boolean }> {
    const [inner, parameters] = this.filtered(filter).select('1', 'one').limit(cap + 1).getQueryAndParameters();
    const rows = await this.events.manager.query<Array<{ n: number | string }>>(`SELECT COUNT(*) AS n FROM (${inner}) bounded`, parameters);
    const counted = Number(rows[0]?.n ?? 0);
    if (counted <= cap) return { total: counted, estimated: false };
    if (Object.values(filter).some((value) => value !== undefined)) return { total: cap, estimated: true };
    const type = this.events.manager.connection.options.type;
    if (type !== 'mysql' && type !== 'mariadb') return { total: await this.events.count(), estimated: false };
    const stats = await this.events.manager.query<Array<{ n: number | string | null }>>(
      'SELECT TABLE_ROWS AS n FROM information_schema.TABLES WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME = ?',
      [this.events.metadata.tableName],
    );
    return { total: Math.max(cap + 1, Number(stats[0]?.n ?? 0)), estimated: true };
  }

  private filtered(filter: WebhookEventFilter) {
    const query = this.events.createQueryBuilder('event');
    if (filter.provider) query.andWhere('event.provider = :provider', { provider: filter.provider });
    if (filter.mode) query.andWhere('event.mode = :mode', { mode: filter.mode });
    if (filter.eventType !== undefined) query.andWhere('event.event_type = :eventType', { eventType: filter.eventType });
    if (filter.paymentId !== undefined) query.andWhere('event.payment_id = :paymentId', { paymentId: filter.paymentId });
    if (filter.receivedFrom !== undefined) query.andWhere('event.received_at >= :receivedFrom', { receivedFrom: filter.receivedFrom });
    if (filter.receivedBefore !== undefined) query.andWhere('event.received_at < :receivedBefore', { receivedBefore: filter.receivedBefore });
    if (filter.outcome === 'failed' || filter.outcome === 'pending') {
      query.andWhere('event.status IN (:...unfinished)', { unfinished: ['received', 'processing'] });
      query.andWhere(filter.outcome === 'failed' ? 'event.reason IS NOT NULL' : 'event.reason IS NULL');
    } else if (filter.outcome) {
      query.andWhere('event.status = :status', { status: filter.outcome });
    }
    return query;
  }

  findById(id: number): Promise<WebhookEventEntity | null> {
    return this.events.findOne({ where: { id } });
  }

  async find(provider: string, eventId: string): Promise<WebhookEventEntity | null> {
    return this.events.findOne({ where: { provider, eventId } });
  }

  private repo(manager?: EntityManager): Repository<WebhookEventEntity> {
    return manager ? manager.getRepository(WebhookEventEntity) : this.events;
  }
}
