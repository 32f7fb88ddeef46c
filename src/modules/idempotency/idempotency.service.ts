import { Injectable, Logger } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { Clock } from '../../common/clock/index.js';
import { CryptoService } from '../../common/crypto/index.js';
import { clientKey } from '../../common/rate-limit/index.js';
import type { IdempotencyKeyEntity } from './idempotency-key.entity.js';
import { type IdempotencyClaim, IdempotencyKeyRepository, type IdempotencySlot } from './idempotency-key.repository.js';
import { requestHash } from './idempotency-request.js';
import { IdempotencyInProgressError, IdempotencyMismatchError } from './idempotency.errors.js';

/** How long a finished key answers repeats, from its first request. */
export const IDEMPOTENCY_RETENTION_MS = 24 * 60 * 60_000;
/** How long a running first request holds its key: past it a crashed request no longer blocks the key. */
export const IDEMPOTENCY_LEASE_MS = 60_000;
/** Expired rows deleted per purge; a full batch makes the next claim purge again. */
export const IDEMPOTENCY_PURGE_BATCH = 500;
const PURGE_INTERVAL_MS = 60_000;

/** The ids a result is found again by (`{payment_id: 12, intent_id: 'pi_…'}`): never a secret. */
export type IdempotencyResult = Record<string, string | number>;

/**
 * What the guard learnt about a request's key before the rate limiter ran: who sent it where, and
 * the finished row it found (then the request is a repeat, or a mismatch, never a creation).
 */
export interface IdempotentCall {
  slot: IdempotencySlot;
  finished: IdempotencyKeyEntity | null;
  /** Set once the answer came from the stored result (the `Idempotent-Replayed` header). */
  replayed: boolean;
}

/** A call bound to the validated request body it protects. */
export interface IdempotentRequest {
  call: IdempotentCall;
  requestHash: string;
}

/** The call of a request that sent `Idempotency-Key`, bound to its validated body; null without the header. */
export function idempotentRequest(call: IdempotentCall | null, body: object): IdempotentRequest | null {
  return call ? { call, requestHash: requestHash(body) } : null;
}

/** Records the result ids inside the caller's transaction, so they commit with what it created. */
export type IdempotencyCompletion = (result: IdempotencyResult, manager: EntityManager) => Promise<void>;

export interface IdempotentOperation<R> {
  /** Does the work; may call `complete` inside its transaction (null without a key). */
  execute(complete: IdempotencyCompletion | null): Promise<R>;
  /** The ids to keep of a result `execute` answered (when it did not complete itself). */
  resultIds(result: R): IdempotencyResult;
  /** The answer to a repeat, from the kept ids, without creating anything. */
  replay(stored: IdempotencyResult): Promise<R>;
}

/**
 * `Idempotency-Key` on the public creating POSTs: a repeat of a request (same client key as the
 * rate limiter's, same route, same key, same canonical body) within 24 hours answers as the first
 * did without running it again; one still running answers 409; another body 422. Only successes
 * are kept: a failed first request releases its key (its refusal wrote nothing, so a repeat simply
 * runs again). Stored: the client's HMAC, the route, the key, the body's hash, the result's ids.
 */
@Injectable()
export class IdempotencyService {
  private readonly logger = new Logger(IdempotencyService.name);
  private nextPurgeAt = 0;

  constructor(
    private readonly keys: IdempotencyKeyRepository,
    private readonly crypto: CryptoService,
    private readonly clock: Clock,
  ) {}

  /** The guard's look-up: a running first request is 409 at once; a finished one makes this a repeat. */
  async begin(route: string, key: string, ip: string | undefined): Promise<IdempotentCall> {
    // The client as the rate limiter keys it (IPv4, or the IPv6 /64), as an HMAC: no address is stored.
    return this.lookUp(this.crypto.hmacCandidates('idempotency-client', clientKey(ip)), route, key);
  }

  /**
   * The same look-up for a route whose keys belong to a caller rather than a client address (an
   * admin route: `scope` names the user and the object, e.g. `user:3:payment:42`), done by the
   * handler once the caller is authenticated.
   */
  async beginScoped(route: string, key: string, scope: string): Promise<IdempotentCall> {
    return this.lookUp(this.crypto.hmacCandidates('idempotency-scope', scope), route, key);
  }

  /**
   * The key's live row under the client hash of the current secret, else (during a rotation) under
   * CHECKOUT_SECRET_PREVIOUS's: a retry across the switch still finds the key its first try stored.
   */
  private async lookUp(clientHashes: Buffer[], route: string, key: string): Promise<IdempotentCall> {
    const now = this.clock.now();
    const slots = clientHashes.map((hash): IdempotencySlot => ({ clientHash: hash.toString('hex'), route, idempotencyKey: key }));
    for (const slot of slots) {
      const row = await this.keys.findLive(slot, now);
      if (!row) continue;
      if (row.state === 'running') throw new IdempotencyInProgressError();
      return { slot, finished: row, replayed: false };
    }
    return { slot: slots[0], finished: null, replayed: false };
  }

  async run<R>(request: IdempotentRequest | null, operation: IdempotentOperation<R>): Promise<R> {
    if (!request) return operation.execute(null);
    const { call } = request;
    if (call.finished) return this.replay(request, call.finished, operation);

    const now = this.clock.now();
    await this.purgeIfDue(now);
    const outcome = await this.keys.claim(call.slot, request.requestHash, now, IDEMPOTENCY_LEASE_MS);
    if (!outcome.claimed) {
      // Another request took the key since the guard looked: it runs (409) or has finished (a repeat).
      if (!outcome.existing || outcome.existing.state === 'running') throw new IdempotencyInProgressError();
      return this.replay(request, outcome.existing, operation);
    }

    const { claim } = outcome;
    let completedInside = false;
    const complete: IdempotencyCompletion = async (result, manager) => {
      // A lost claim (our lease lapsed and another request took the key) rolls the creation back.
      if (!(await this.keys.complete(claim, result, this.retainedUntil(claim), manager))) throw new IdempotencyInProgressError();
      completedInside = true;
    };
    let result: R;
    try {
      result = await operation.execute(complete);
    } catch (error) {
      // A committed completion cleared the lease token, so this deletes only a key still ours.
      await this.keys.release(claim).catch((releaseError: unknown) => this.logger.warn(`Could not release an idempotency key: ${describe(releaseError)}`));
      throw error;
    }
    if (!completedInside && !(await this.keys.complete(claim, operation.resultIds(result), this.retainedUntil(claim)))) {
      this.logger.warn(`An idempotency key of ${claim.slot.route} lapsed before its request finished; a repeat may run it again.`);
    }
    return result;
  }

  private async replay<R>(request: IdempotentRequest, row: IdempotencyKeyEntity, operation: IdempotentOperation<R>): Promise<R> {
    if (row.requestHash !== request.requestHash) throw new IdempotencyMismatchError();
    const result = await operation.replay(JSON.parse(row.result ?? '{}') as IdempotencyResult);
    request.call.replayed = true;
    return result;
  }

  private retainedUntil(claim: IdempotencyClaim): Date {
    return new Date(claim.claimedAt.getTime() + IDEMPOTENCY_RETENTION_MS);
  }

  /** At most one bounded purge a minute per process, more while a backlog remains; never fails the request. */
  private async purgeIfDue(now: Date): Promise<void> {
    if (now.getTime() < this.nextPurgeAt) return;
    this.nextPurgeAt = now.getTime() + PURGE_INTERVAL_MS;
    try {
      if ((await this.keys.purgeExpired(now, IDEMPOTENCY_PURGE_BATCH)) === IDEMPOTENCY_PURGE_BATCH) this.nextPurgeAt = 0;
    } catch (error) {
      this.logger.warn(`Could not purge expired idempotency keys: ${describe(error)}`);
    }
  }
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
