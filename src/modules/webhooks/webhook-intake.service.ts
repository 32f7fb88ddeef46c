import { Injectable, Logger } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { Clock } from '../../common/clock/index.js';
import { DomainError, isDatabaseDown, UnavailableError } from '../../common/errors/index.js';
import { Metrics } from '../../common/metrics/index.js';
import type { GatewayMode } from '../gateways/index.js';
import { WebhookActionApplier } from './actions/webhook-action-applier.js';
import type { WebhookAction } from './actions/webhook-action.js';
import type { EffectResult } from './actions/webhook-action.js';
import type { WebhookEventEntity } from './webhook-event.entity.js';
import { WebhookEventRepository } from './webhook-event.repository.js';
import type { WebhookReceiptDto } from './webhook-receipt.dto.js';
import type { WebhookVerdict } from './webhook-verifiers.js';

/** The least the event store needs of an event. */
export interface ParsedWebhookEvent {
  id: string;
  type: string;
}

/**
 * One provider callback's knowledge of its events: how to read one from the verified bytes (once,
 * into the slice's typed event) and what it asks of payments (a `WebhookAction`). The intake owns
 * the rest: store once, claim, apply the action (`WebhookActionApplier`), mark the outcome.
 */
export interface WebhookEventSource<E extends ParsedWebhookEvent, M extends GatewayMode | null = GatewayMode> {
  /** The event store's `provider` of these events (a gateway id, or `generic` for section B's route). */
  readonly provider: string;
  /** The event in the authentic bytes; throws InvalidEventError (400) when they hold none this route takes. */
  parse(rawBody: Buffer, mode: M): E;
  /** What the event asks of payments, decided from the event alone: no record is read, nothing is written. */
  actionOf(event: E, mode: M): WebhookAction;
  /** The event's payment-log context (its ids and type) for a record of `mode`. */
  logContext(event: E, mode: GatewayMode | null): Record<string, unknown>;
}

export interface IntakeTiming {
  /**
   * How long a claim lasts unless renewed; the claimant renews it every third of this while it
   * applies the event, so a slow apply keeps it and a dead claimant (killed, or its Galera node cut
   * off) gives it up within this time. Longer than a Galera view change holds commits (≤ 15 s).
   */
  claimTtlMs: number;
  /** How long a concurrent delivery waits for the claimant's outcome before asking for a retry. */
  waitForClaimMs: number;
  pollMs: number;
}

export const DEFAULT_INTAKE_TIMING: IntakeTiming = { claimTtlMs: 30_000, waitForClaimMs: 10_000, pollMs: 50 };

const FINISHED: ReadonlySet<string> = new Set(['processed', 'ignored', 'rejected']);

/**
 * The one intake of provider events (docs/decisions.md §8), after the SignedWebhookGuard verified the
 * delivery: parse → record once → claim → apply → mark the outcome.
 *
 * Exactly once: one delivery claims the event row (a conditional update) and applies it; a
 * concurrent delivery of the same event, on this instance or another, waits for that outcome and
 * answers `duplicate`, and never a 200 before the event is applied: if the claimant fails it
 * gives the event back (status `received`) and its own delivery is answered 503/502 so that the
 * provider retries, and a waiting delivery then claims it itself. The claimant renews its claim
 * while it applies; one that dies (or loses its database node) holds it until it lapses, at most
 * `claimTtlMs`; meanwhile redeliveries answer 503 (retry later), and the first after it applies the event.
 */
@Injectable()
export class WebhookIntakeService {
  private readonly logger = new Logger('WebhookIntake');
  /** This instance's name in claims (diagnostics only; uniqueness comes from the conditional update). */
  private readonly instance = `${hostname().slice(0, 30)}:${process.pid}`;
  timing: IntakeTiming = DEFAULT_INTAKE_TIMING;

  constructor(
    private readonly events: WebhookEventRepository,
    private readonly clock: Clock,
    private readonly metrics: Metrics,
    private readonly actions: WebhookActionApplier,
  ) {}

  /**
   * `mode` is the callback's `{mode}`, or null on a route without one (section B `/webhook/receive`);
   * `verdict` is the route verifier's (webhookVerdictOf). A `stored_event` delivery was not proven
   * authentic: it names an event stored and finished earlier, so it is answered `duplicate`, as a
   * genuine redelivery is, and nothing in its bytes is read or written.
   */
  async receive<E extends ParsedWebhookEvent, M extends GatewayMode | null>(
    source: WebhookEventSource<E, M>,
    mode: M,
    rawBody: Buffer | undefined,
    verdict: WebhookVerdict,
  ): Promise<WebhookReceiptDto> {
    if (verdict === 'stored_event') return { received: true, outcome: 'duplicate' };
    const event = source.parse(rawBody ?? Buffer.alloc(0), mode);
    const owner = `${this.instance}:${randomUUID().slice(0, 8)}`;
    const receivedAt = this.clock.now();
    // A first delivery stores the event already claimed by itself: one statement, not an insert and a claim.
    const claim = { owner, expiresAt: new Date(receivedAt.getTime() + this.timing.claimTtlMs) };
    const stored = await this.events.recordEventOnce({ provider: source.provider, eventId: event.id, type: event.type, mode }, undefined, receivedAt, claim);
    let row: WebhookEventEntity | null = stored.recorded ? stored.event : stored.existing;
    if (!row) throw new UnavailableError();
    const giveUpAt = Date.now() + this.timing.waitForClaimMs;
    while (!stored.recorded) {
      if (FINISHED.has(row.status)) return { received: true, outcome: 'duplicate' };
      const now = this.clock.now();
      if (await this.events.claim(row.id, owner, now, new Date(now.getTime() + this.timing.claimTtlMs))) break;
      // Another delivery is applying it: wait for its outcome rather than answer before it is applied.
      if (Date.now() >= giveUpAt) throw new UnavailableError();
      await new Promise((resolve) => setTimeout(resolve, this.timing.pollMs));
      row = await this.events.findById(row.id);
      if (!row) throw new UnavailableError();
    }

    let effect: EffectResult;
    const renewal = this.renewWhileApplying(row.id, owner, event.id);
    try {
      effect = await this.actions.apply(source.actionOf(event, mode), {
        source: `webhook:${source.provider}`,
        type: event.type,
        mode,
        context: (recordMode) => source.logContext(event, recordMode),
      });
      renewal.stop();
      await this.events.markOutcome(row.id, effect.status, effect.paymentId, undefined, this.clock.now(), effect.reason ?? null, owner);
    } catch (error) {
      renewal.stop();
      const reason = `attempt failed: ${failureCode(error)}`;
      await this.events.release(row.id, owner, reason).catch((releaseError: unknown) => {
        // The claim lapses on its own (claimTtlMs); a redelivery then applies the event.
        this.logger.warn({ event_id: event.id, err: releaseError instanceof Error ? releaseError.message : String(releaseError) }, 'webhook event claim not released');
        if (isDatabaseDown(releaseError)) this.releaseLater(row.id, owner, reason, event.id);
      });
      throw error;
    }
    this.metrics.webhookEvent(source.provider, effect.status);
    return { received: true, outcome: effect.status };
  }

  /**
   * Renews the claim every third of its lease until `stop()`. A renewal that finds the claim gone
   * (a stall longer than the lease let another delivery take it) is logged: the outcome is then
   * stored by whoever holds the claim, and the effects are conditional writes that the second
   * apply finds done. A renewal the database refuses is left to the next one.
   */
  private renewWhileApplying(id: number, owner: string, eventId: string): { stop(): void } {
    let running = true;
    const timer = setInterval(() => {
      this.events.renewClaim(id, owner, new Date(this.clock.now().getTime() + this.timing.claimTtlMs)).then(
        (renewed) => {
          if (!renewed && running) this.logger.warn({ event_id: eventId }, 'webhook event claim lost while applying');
        },
        (error: unknown) => this.logger.warn({ event_id: eventId, err: error instanceof Error ? error.message : String(error) }, 'webhook event claim not renewed'),
      );
    }, this.timing.claimTtlMs / 3);
    timer.unref();
    return {
      stop: () => {
        running = false;
        clearInterval(timer);
      },
    };
  }

  /**
   * A claim whose release failed because the database could not serve (this instance's Galera
   * node cut off from the cluster, a lost connection) is released again in the background, every
   * 0.5 s doubling to 5 s, until it is or the claim lapses: a redelivery waiting on another node
   * (waitForClaimMs) can then apply the event as soon as this node is back, instead of answering
   * 503 for the claim's whole TTL. The release is conditional on this owner, so a late one changes
   * nothing.
   */
  private releaseLater(id: number, owner: string, reason: string, eventId: string): void {
    const giveUpAt = Date.now() + this.timing.claimTtlMs;
    let delay = 500;
    const attempt = () => {
      this.events.release(id, owner, reason).then(
        () => this.logger.log({ event_id: eventId }, 'webhook event claim released after the database came back'),
        (error: unknown) => {
          delay = Math.min(delay * 2, 5_000);
          if (isDatabaseDown(error) && Date.now() + delay < giveUpAt) setTimeout(attempt, delay).unref();
        },
      );
    };
    setTimeout(attempt, delay).unref();
  }

  /**
   * Whether `provider` and `eventId` name an event that is stored and finished (processed, ignored
   * or rejected: a state it never leaves), so that a delivery of it needs no proof to be answered
   * `duplicate`. A store that cannot be read is 503 (the provider delivers again).
   */
  async isFinished(provider: string, eventId: string): Promise<boolean> {
    let row: WebhookEventEntity | null;
    try {
      row = await this.events.find(provider, eventId);
    } catch (error) {
      if (error instanceof DomainError) throw error;
      this.logger.error({ provider, err: error instanceof Error ? error.name : 'unknown' }, 'webhook event store cannot be read');
      throw new UnavailableError();
    }
    return row !== null && FINISHED.has(row.status);
  }
}

/** The error code the delivery was answered with, for the event's reason (never the error's text). */
function failureCode(error: unknown): string {
  if (error instanceof DomainError) return error.code;
  return isDatabaseDown(error) ? 'checkout_unavailable' : 'checkout_internal_error';
}
