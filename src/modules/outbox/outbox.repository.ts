import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { type EntityManager, In, LessThanOrEqual, type Repository } from 'typeorm';
import { isDuplicateKeyError, runStatement, selectRows } from '../../database/index.js';
import { OutboxItemEntity, type OutboxStatus } from './outbox-item.entity.js';

const MAX_ERROR = 255;

export interface NewOutboxItem {
  topic: string;
  key: string;
  payload: unknown;
}

export interface OutboxBacklog {
  items: Array<{ topic: string; status: string; count: number }>;
  /** When the oldest item that is due now became due; null when none is due. */
  oldestDueAt: Date | null;
}

export interface FailedOutboxTopic {
  topic: string;
  count: number;
  lastFailedId: number;
}

/**
 * The outbox table. Every change of an item after it is written is a conditional UPDATE read by
 * its affected rows: a claim wins only on an unclaimed (or lapsed) due item, and the outcome of an
 * attempt is stored only by the worker that still holds the claim. Same statements on SQLite and
 * MySQL/MariaDB (the webhook event claims work the same way).
 */
@Injectable()
export class OutboxRepository {
  private readonly table: string;
  private readonly sql: Record<'insert' | 'claim' | 'renew' | 'progress' | 'sent' | 'retry' | 'failed', string>;

  constructor(@InjectRepository(OutboxItemEntity) private readonly items: Repository<OutboxItemEntity>) {
    this.table = `\`${items.metadata.tableName}\``;
    const t = this.table;
    const ofOwner = 'WHERE `id` = ? AND `claimed_by` = ?';
    this.sql = {
      insert:
        `INSERT INTO ${t} (\`topic\`, \`item_key\`, \`payload\`, \`status\`, \`attempts\`, \`progress\`, \`next_attempt_at\`, \`claimed_by\`, \`claim_expires_at\`, \`last_error\`, \`created_at\`, \`updated_at\`, \`finished_at\`)` +
        " VALUES (?, ?, ?, 'pending', 0, NULL, ?, NULL, NULL, NULL, ?, ?, NULL)",
      // One attempt is counted per claim, so an item that kills its worker every time still runs out of attempts.
      claim:
        `UPDATE ${t} SET \`claimed_by\` = ?, \`claim_expires_at\` = ?, \`attempts\` = \`attempts\` + 1, \`updated_at\` = ?` +
        " WHERE `id` = ? AND `status` = 'pending' AND `next_attempt_at` <= ? AND (`claim_expires_at` IS NULL OR `claim_expires_at` < ?)",
      renew: `UPDATE ${t} SET \`claim_expires_at\` = ? ${ofOwner} AND \`status\` = 'pending'`,
      progress: `UPDATE ${t} SET \`progress\` = ?, \`updated_at\` = ? ${ofOwner} AND \`status\` = 'pending'`,
      sent: `UPDATE ${t} SET \`status\` = 'sent', \`claimed_by\` = NULL, \`claim_expires_at\` = NULL, \`last_error\` = NULL, \`finished_at\` = ?, \`updated_at\` = ? ${ofOwner}`,
      retry: `UPDATE ${t} SET \`claimed_by\` = NULL, \`claim_expires_at\` = NULL, \`next_attempt_at\` = ?, \`last_error\` = ?, \`updated_at\` = ? ${ofOwner}`,
      failed: `UPDATE ${t} SET \`status\` = 'failed', \`claimed_by\` = NULL, \`claim_expires_at\` = NULL, \`last_error\` = ?, \`finished_at\` = ?, \`updated_at\` = ? ${ofOwner}`,
    };
  }

  /**
   * Writes an item through the caller's EntityManager (its transaction), due at `now`. The same
   * (topic, key) written again is kept once: false then.
   */
  async insert(manager: EntityManager, item: NewOutboxItem, now: Date): Promise<boolean> {
    try {
      await runStatement(manager, this.sql.insert, [item.topic, item.key, JSON.stringify(item.payload ?? null), now, now, now]);
      return true;
    } catch (error) {
      if (isDuplicateKeyError(error)) return false;
      throw error;
    }
  }

  /** Ids of items of `topics` due at `now` and not claimed by a live worker, oldest due first. */
  async findDue(topics: readonly string[], now: Date, limit: number): Promise<number[]> {
    if (topics.length === 0) return [];
    const rows = await selectRows<{ id: number | string }>(
      this.items.manager,
      `SELECT \`id\` FROM ${this.table} WHERE \`status\` = 'pending' AND \`next_attempt_at\` <= ? AND (\`claim_expires_at\` IS NULL OR \`claim_expires_at\` < ?)` +
        ` AND \`topic\` IN (${topics.map(() => '?').join(', ')}) ORDER BY \`next_attempt_at\`, \`id\` LIMIT ?`,
      [now, now, ...topics, limit],
    );
    return rows.map((row) => Number(row.id));
  }

  /** Claims a due item for `owner` until `expiresAt`: the item when this caller won, null otherwise. */
  async claim(id: number, owner: string, now: Date, expiresAt: Date): Promise<OutboxItemEntity | null> {
    const { affected } = await runStatement(this.items.manager, this.sql.claim, [owner, expiresAt, now, id, now, now]);
    if (affected === 0) return null;
    return this.findById(id);
  }

  /** Extends `owner`'s claim; false when it is no longer theirs. */
  async renew(id: number, owner: string, expiresAt: Date): Promise<boolean> {
    return (await runStatement(this.items.manager, this.sql.renew, [expiresAt, id, owner])).affected > 0;
  }

  async saveProgress(id: number, owner: string, steps: readonly string[], now: Date): Promise<boolean> {
    return (await runStatement(this.items.manager, this.sql.progress, [JSON.stringify(steps), now, id, owner])).affected > 0;
  }

  async markSent(id: number, owner: string, now: Date): Promise<boolean> {
    return (await runStatement(this.items.manager, this.sql.sent, [now, now, id, owner])).affected > 0;
  }

  async retryAt(id: number, owner: string, nextAttemptAt: Date, error: string, now: Date): Promise<boolean> {
    return (await runStatement(this.items.manager, this.sql.retry, [nextAttemptAt, error.slice(0, MAX_ERROR), now, id, owner])).affected > 0;
  }

  async markFailed(id: number, owner: string, error: string, now: Date): Promise<boolean> {
    return (await runStatement(this.items.manager, this.sql.failed, [error.slice(0, MAX_ERROR), now, now, id, owner])).affected > 0;
  }

  /** Failed items per topic (the dashboard's notification). */
  async failedByTopic(): Promise<FailedOutboxTopic[]> {
    const rows = await selectRows<{ topic: string; n: number | string; last_id: number | string }>(
      this.items.manager,
      `SELECT \`topic\`, COUNT(*) AS n, MAX(\`id\`) AS last_id FROM ${this.table} WHERE \`status\` = ? GROUP BY \`topic\` ORDER BY \`topic\``,
      ['failed' satisfies OutboxStatus],
    );
    return rows.map((row) => ({ topic: row.topic, count: Number(row.n), lastFailedId: Number(row.last_id) }));
  }

  /** Items per topic and status, and the due time of the oldest pending item due at `now` (metrics). */
  async backlog(now: Date): Promise<OutboxBacklog> {
    const rows = await selectRows<{ topic: string; status: string; n: number | string }>(
      this.items.manager,
      `SELECT \`topic\`, \`status\`, COUNT(*) AS n FROM ${this.table} GROUP BY \`topic\`, \`status\``,
      [],
    );
    const oldest = await this.items.findOne({ select: { id: true, nextAttemptAt: true }, where: { status: 'pending', nextAttemptAt: LessThanOrEqual(now) }, order: { nextAttemptAt: 'ASC' } });
    return { items: rows.map((row) => ({ topic: row.topic, status: row.status, count: Number(row.n) })), oldestDueAt: oldest?.nextAttemptAt ?? null };
  }

  /** Deletes items sent before `before` (their work is done; the payload may hold personal data). */
  async purgeSent(before: Date): Promise<number> {
    return (await runStatement(this.items.manager, `DELETE FROM ${this.table} WHERE \`status\` = 'sent' AND \`finished_at\` < ?`, [before])).affected;
  }

  /** The status and finish time of the items of `topic` with these keys (absent keys: none, or purged after sending). */
  async statusOf(manager: EntityManager, topic: string, keys: readonly string[]): Promise<Map<string, { status: OutboxStatus; finishedAt: Date | null }>> {
    if (keys.length === 0) return new Map();
    const rows = await manager.find(OutboxItemEntity, { select: { key: true, status: true, finishedAt: true }, where: { topic, key: In([...keys]) } });
    return new Map(rows.map((row) => [row.key, { status: row.status, finishedAt: row.finishedAt }]));
  }

  findById(id: number): Promise<OutboxItemEntity | null> {
    return this.items.findOne({ where: { id } });
  }
}
