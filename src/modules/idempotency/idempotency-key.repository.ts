import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { randomUUID } from 'node:crypto';
import { type EntityManager, In, Repository } from 'typeorm';
import { isDuplicateKeyError } from '../../database/index.js';
import { IdempotencyKeyEntity } from './idempotency-key.entity.js';

/** Who sent a key where: the row's unique identity. */
export interface IdempotencySlot {
  clientHash: string;
  route: string;
  idempotencyKey: string;
}

/** A key this request holds: only the holder of `leaseToken` completes or releases it. */
export interface IdempotencyClaim {
  slot: IdempotencySlot;
  leaseToken: string;
  claimedAt: Date;
}

export type ClaimOutcome = { claimed: true; claim: IdempotencyClaim } | { claimed: false; existing: IdempotencyKeyEntity | null };

/**
 * The idempotency keys table. The unique (client, route, key) decides between concurrent first
 * requests on any number of instances sharing the database: one insert wins; an expired row (a
 * lapsed lease or a finished key past its 24 hours) is taken over by a conditional update.
 */
@Injectable()
export class IdempotencyKeyRepository {
  constructor(@InjectRepository(IdempotencyKeyEntity) private readonly keys: Repository<IdempotencyKeyEntity>) {}

  /** The row of `slot` while it holds the key (not expired at `now`), else null. */
  async findLive(slot: IdempotencySlot, now: Date): Promise<IdempotencyKeyEntity | null> {
    const row = await this.keys.findOne({ where: { clientHash: slot.clientHash, route: slot.route, idempotencyKey: slot.idempotencyKey } });
    return row && row.expiresAt.getTime() > now.getTime() ? row : null;
  }

  /** Takes the key for one request until `now + leaseMs`, unless a live row holds it (answered instead). */
  async claim(slot: IdempotencySlot, requestHash: string, now: Date, leaseMs: number): Promise<ClaimOutcome> {
    const leaseToken = randomUUID();
    const fields = { requestHash, state: 'running' as const, leaseToken, result: null, createdAt: now, expiresAt: new Date(now.getTime() + leaseMs) };
    try {
      await this.keys.insert({ ...slot, ...fields });
      return { claimed: true, claim: { slot, leaseToken, claimedAt: now } };
    } catch (error) {
      if (!isDuplicateKeyError(error)) throw error;
    }
    const takeover = await this.keys
      .createQueryBuilder()
      .update()
      .set(fields)
      .where('client_hash = :clientHash AND route = :route AND idempotency_key = :idempotencyKey AND expires_at <= :now', { ...slot, now })
      .execute();
    if ((takeover.affected ?? 0) > 0) return { claimed: true, claim: { slot, leaseToken, claimedAt: now } };
    return { claimed: false, existing: await this.findLive(slot, now) };
  }

  /**
   * Records the result ids and keeps them until `expiresAt`; pass the transaction's manager to
   * commit them with what the request created. False when the claim was lost (its lease lapsed and
   * another request took the key, or the row was purged).
   */
  async complete(claim: IdempotencyClaim, result: Record<string, string | number>, expiresAt: Date, manager?: EntityManager): Promise<boolean> {
    const keys = manager ? manager.getRepository(IdempotencyKeyEntity) : this.keys;
    const updated = await keys
      .createQueryBuilder()
      .update()
      .set({ state: 'completed', leaseToken: null, result: JSON.stringify(result), expiresAt })
      .where('client_hash = :clientHash AND route = :route AND idempotency_key = :idempotencyKey AND lease_token = :leaseToken', { ...claim.slot, leaseToken: claim.leaseToken })
      .execute();
    return (updated.affected ?? 0) > 0;
  }

  /** Frees the key again (the request failed): a repeat runs anew. */
  async release(claim: IdempotencyClaim): Promise<void> {
    await this.keys.delete({ ...claim.slot, leaseToken: claim.leaseToken });
  }

  /** Deletes up to `limit` expired rows, oldest first; answers how many. */
  async purgeExpired(now: Date, limit: number): Promise<number> {
    const rows: Array<{ id: number | string }> = await this.keys
      .createQueryBuilder('key')
      .select('key.id', 'id')
      .where('key.expiresAt <= :now', { now })
      .orderBy('key.expiresAt', 'ASC')
      .limit(limit)
      .getRawMany();
    if (rows.length === 0) return 0;
    await this.keys.delete({ id: In(rows.map((row) => Number(row.id))) });
    return rows.length;
  }
}
