import { Inject, Injectable, Logger, type OnModuleDestroy } from '@nestjs/common';
import { APP_CONFIG, type AppConfig, CHECKOUT_NAME, CHECKOUT_VERSION } from '../../config/index.js';

export const FEATURES_API_TIMEOUT_MS = 5_000;

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

/**
 * Sends a stored tagging answer to FEATURES_API_URL, as the original plugin sent it to its vendor:
 * fire-and-forget after the database commit, with a timeout, never failing the admin's request.
 * The outcome is logged without the URL (it may carry a key) or the person's details.
 */
@Injectable()
export class FeaturesApiForwarder implements OnModuleDestroy {
  private readonly logger = new Logger(FeaturesApiForwarder.name);
  private readonly inFlight = new Set<Promise<void>>();

  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  get enabled(): boolean {
    return Boolean(this.config.featuresApiUrl);
  }

  /** Starts the delivery and returns at once; nothing is sent when FEATURES_API_URL is unset. */
  forward(interest: FeatureInterest): void {
    if (!this.config.featuresApiUrl) return;
    const delivery: Promise<void> = this.deliver(this.config.featuresApiUrl, interest).finally(() => this.inFlight.delete(delivery));
    this.inFlight.add(delivery);
  }

  /** Resolves once every delivery started so far has finished (shutdown, tests). */
  async idle(): Promise<void> {
    await Promise.allSettled([...this.inFlight]);
  }

  async onModuleDestroy(): Promise<void> {
    await this.idle();
  }

  private async deliver(url: string, interest: FeatureInterest): Promise<void> {
    const started = Date.now();
    try {
      const response = await fetch(url, {
        method: 'POST',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded', Accept: 'application/json', 'User-Agent': `${CHECKOUT_NAME}/${CHECKOUT_VERSION}` },
        body: featureInterestBody(interest),
        redirect: 'manual',
        signal: AbortSignal.timeout(FEATURES_API_TIMEOUT_MS),
      });
      await response.body?.cancel().catch(() => undefined);
      const fields = { area: interest.area, status: response.status, duration_ms: Date.now() - started };
      if (response.ok) this.logger.log(fields, 'feature interest forwarded');
      else this.logger.warn(fields, 'features API refused the feature interest');
    } catch (error) {
      // The timeout rejects with a DOMException (not an Error subclass on every Node release): read the name.
      const name = (error as { name?: unknown } | null)?.name;
      const reason = name === 'TimeoutError' || name === 'AbortError' ? 'timeout' : 'unreachable';
      const code = (error as { cause?: { code?: unknown } }).cause?.code;
      this.logger.warn({ area: interest.area, reason, code: typeof code === 'string' ? code : undefined, duration_ms: Date.now() - started }, 'feature interest not forwarded');
    }
  }
}
