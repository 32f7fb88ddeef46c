import { Inject, Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import type { EntityManager } from 'typeorm';
import { APP_CONFIG, type AppConfig, CHECKOUT_NAME, CHECKOUT_VERSION } from '../../config/index.js';
import { Outbox, type OutboxDelivery, type OutboxHandler, OutboxWorker, PermanentOutboxError } from '../outbox/index.js';

export const FEATURES_API_TIMEOUT_MS = 5_000;
/** The outbox topic of a tagging answer to forward. */
export const FEATURES_API_TOPIC = 'features_api_forward';

export interface FeatureInterest {
  area: string;
  tags: readonly string[];
  emailAddress: string;
  firstName: string;
  lastName: string;
}

/** The form-encoded body the features API receives: `area`, one `tags[]` per tag, `email_address`, `first_name`, `last_name`. */
export function featureInterestBody(interest: FeatureInterest): URLSearchParams {
  const body = new URLSearchParams();
  body.append('area', interest.area);
  for (const tag of interest.tags) body.append('tags[]', tag);
  body.append('email_address', interest.emailAddress);
  body.append('first_name', interest.firstName);
  body.append('last_name', interest.lastName);
  return body;
}

/** Answers worth another attempt: the remote was busy or broken, not refusing the request itself. */
function retryable(status: number): boolean {
  return status === 408 || status === 425 || status === 429 || status >= 500;
}

/**
 * Sends a stored tagging answer to FEATURES_API_URL, as the original plugin sent it to its vendor,
 * through the outbox: the answer to forward is written in the transaction that stores it, and
 * the outbox worker posts it (timeout, no redirects), retrying an unreachable, timed-out, 408,
 * 425, 429 or 5xx remote with backoff; another answer (a 4xx refusal) fails it at once. Never
 * delays or fails the admin's request. Each answer carries an `Idempotency-Key` header (the same
 * on every attempt), so the one resend a crash between the post and its mark can cause is
 * recognisable. The outcome is logged without the URL (it may carry a key) or the person's details.
 */
@Injectable()
export class FeaturesApiForwarder implements OnModuleInit, OutboxHandler<FeatureInterest> {
  readonly topic = FEATURES_API_TOPIC;
  private readonly logger = new Logger(FeaturesApiForwarder.name);

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly outbox: Outbox,
    private readonly worker: OutboxWorker,
  ) {}

  onModuleInit(): void {
    this.worker.register(this);
  }

  get enabled(): boolean {
    return Boolean(this.config.featuresApiUrl);
  }

  /** Inside the transaction that stores the answer: it is forwarded once that commits. Nothing when FEATURES_API_URL is unset. */
  async schedule(manager: EntityManager, interest: FeatureInterest): Promise<void> {
    if (!this.config.featuresApiUrl) return;
    await this.outbox.add(manager, { topic: this.topic, key: randomUUID(), payload: interest });
  }

  /** Resolves once every forward due now has been attempted (tests). */
  async idle(): Promise<void> {
    await this.worker.drain();
  }

  async handle(delivery: OutboxDelivery<FeatureInterest>): Promise<void> {
    const interest = delivery.payload;
    const url = this.config.featuresApiUrl;
    if (!url) {
      this.logger.warn({ area: interest.area }, 'FEATURES_API_URL is no longer set: feature interest not forwarded');
      return;
    }
    const started = Date.now();
    let response: Response;
    try {
      response = await fetch(url, {
        method: 'POST',
        headers: {
          'Content-Type': 'application/x-www-form-urlencoded',
          Accept: 'application/json',
          'User-Agent': `${CHECKOUT_NAME}/${CHECKOUT_VERSION}`,
          'Idempotency-Key': delivery.key,
        },
        body: featureInterestBody(interest),
        redirect: 'manual',
        signal: AbortSignal.timeout(FEATURES_API_TIMEOUT_MS),
      });
    } catch (error) {
      // The timeout rejects with a DOMException (not an Error subclass on every Node release): read the name.
      const name = (error as { name?: unknown } | null)?.name;
      const reason = name === 'TimeoutError' || name === 'AbortError' ? 'timeout' : 'unreachable';
      const cause = (error as { cause?: { code?: unknown } }).cause?.code;
      const code = typeof cause === 'string' ? cause : undefined;
      this.logger.warn({ area: interest.area, reason, code, attempt: delivery.attempt, duration_ms: Date.now() - started }, 'feature interest not forwarded');
      throw new Error(`features API ${reason}${code ? ` (${code})` : ''}`, { cause: error });
    }
    await response.body?.cancel().catch(() => undefined);
    const fields = { area: interest.area, status: response.status, attempt: delivery.attempt, duration_ms: Date.now() - started };
    if (response.ok) {
      this.logger.log(fields, 'feature interest forwarded');
      return;
    }
    this.logger.warn(fields, 'features API refused the feature interest');
    const reason = `features API answered ${response.status}`;
    throw retryable(response.status) ? new Error(reason) : new PermanentOutboxError(reason);
  }
}
