import { Inject, Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import { Clock } from '../../../common/clock/index.js';
import { DomainError, GatewayUnavailableError, RateLimitedError, UnavailableError } from '../../../common/errors/index.js';
import { FailureCounter } from '../../../common/rate-limit/index.js';
import { RedisConnection } from '../../../common/redis/index.js';
import { APP_CONFIG, type AppConfig } from '../../../config/index.js';
import type { GatewayMode } from '../../gateways/index.js';
import { OptionsService } from '../../settings/index.js';
import { InvalidSignatureError, type WebhookDelivery, type WebhookVerdict, type WebhookVerifier, WebhookIntakeService, WebhookVerifiers } from '../../webhooks/index.js';
import { GatewayBClientFactory } from '../client/gateway-b-client.factory.js';
import type { GatewayBClient, GatewayBWebhookVerification } from '../client/gateway-b-client.js';
import { GatewayBError } from '../client/gateway-b-errors.js';
import { GATEWAY_B_TRANSMISSION_HEADERS, isGatewayBWebhookId, readEventBytes, readTransmissionHeaders } from '../client/webhook-postback.js';
import { GATEWAY_B_CONFIG, type GatewayBConfig } from '../gateway-b.config.js';
import { gatewayBOption } from '../gateway-b-options.js';
import { transmissionDistanceMs } from './transmission-time.js';
import { VerdictCache } from './verdict-cache.js';
import { VerificationSlots } from './verification-slots.js';

const PROVIDER = 'gateway_b';
/** Verdicts kept at most (a few hundred bytes each). */
export const MAX_CACHED_VERDICTS = 1000;
/** How long a delivery waits for a verification slot, and how many may wait (VerificationSlots). */
export const VERIFY_SLOT_WAIT_MS = 3000;
export const VERIFY_SLOT_QUEUE_PER_SLOT = 8;
/** Retry-After of a 503 when no slot came free. */
const BUSY_RETRY_AFTER_SECONDS = 10;

type ProviderVerdict = { verified: true } | { verified: false };

/**
 * `@SignedWebhookRoute('gateway_b')` (docs/decisions.md §8; docs/interface.md, "Authentication and capabilities"): the delivery is verified
 * by PayPal's verify-webhook-signature API with the mode's Webhook ID and credentials, the received
 * bytes posted back verbatim. That call spends the merchant's quota, so everything that can be
 * decided without it is decided first, in this order:
 *
 * 1. the five transmission headers present and in PayPal's formats, and the body an event — else
 *    400 `checkout_invalid_signature`;
 * 2. `PAYPAL-TRANSMISSION-TIME` within GATEWAY_B_WEBHOOK_TOLERANCE_SECONDS of now, either way — else 400;
 * 3. the event id already stored and finished → `stored_event`: answered `duplicate` with nothing
 *    read from or written for the unproven bytes (that event was proven when it was stored);
 * 4. the client's failed verifications under RATE_LIMIT_WEBHOOK_VERIFY_FAILURES per window — else
 *    429 `checkout_rate_limited` with Retry-After (PayPal delivers again later);
 * 5. a Webhook ID stored for the mode and the mode connected — else 400;
 * 6. a verdict for the same mode, Webhook ID, five headers and raw body is reused (VerdictCache);
 * 7. a verification slot (GATEWAY_B_WEBHOOK_VERIFY_CONCURRENCY, VerificationSlots) — else 503 with
 *    Retry-After; then the client's count is checked again (its other deliveries may have failed
 *    meanwhile) and the call is made.
 *
 * PayPal answers FAILURE: 400, and the client's failure count grows (a reused FAILURE counts too);
 * a SUCCESS never counts. PayPal cannot be asked, or our stored settings cannot be read: 503, so
 * that PayPal delivers again later.
 */
@Injectable()
export class GatewayBSignatureVerifier implements WebhookVerifier, OnModuleInit {
  readonly scheme = PROVIDER;
  private readonly logger = new Logger('GatewayBWebhook');
  private readonly toleranceMs: number;
  private readonly failures: FailureCounter;
  private readonly verdicts: VerdictCache<ProviderVerdict>;
  private readonly slots: VerificationSlots;

  constructor(
    @Inject(APP_CONFIG) config: AppConfig,
    @Inject(GATEWAY_B_CONFIG.token) ownConfig: GatewayBConfig,
    redis: RedisConnection,
    private readonly clock: Clock,
    private readonly options: OptionsService,
    private readonly clients: GatewayBClientFactory,
    private readonly intake: WebhookIntakeService,
    private readonly verifiers: WebhookVerifiers,
  ) {
    const { limit, ttl } = config.rateLimits.webhookVerifyFailures;
    this.toleranceMs = ownConfig.webhook.toleranceSeconds * 1000;
    this.failures = new FailureCounter('webhook-verify-failures', limit, ttl, redis);
    // A verdict is of no use once its transmission time is out of tolerance: the delivery is refused before the cache.
    this.verdicts = new VerdictCache(2 * this.toleranceMs, MAX_CACHED_VERDICTS);
    const concurrency = ownConfig.webhook.verifyConcurrency;
    this.slots = new VerificationSlots(concurrency, concurrency * VERIFY_SLOT_QUEUE_PER_SLOT, VERIFY_SLOT_WAIT_MS);
  }

  onModuleInit(): void {
    this.verifiers.register(this);
  }

  async verify(delivery: WebhookDelivery): Promise<WebhookVerdict> {
    const mode = delivery.mode;
    if (!mode) throw new InvalidSignatureError();
    const headers: Record<string, string> = {};
    for (const name of GATEWAY_B_TRANSMISSION_HEADERS) {
      const value = delivery.header(name);
      if (value !== undefined) headers[name] = value;
    }
    const transmission = readTransmissionHeaders(headers);
    if (!transmission.ok) return this.refuse(mode, transmission.reason, { headers: transmission.headers });
    const distanceMs = transmissionDistanceMs(transmission.fields.transmission_time, this.clock.now().getTime());
    if (distanceMs === null) return this.refuse(mode, 'invalid_headers', { headers: ['paypal-transmission-time'] });
    if (distanceMs > this.toleranceMs) return this.refuse(mode, 'transmission_time_out_of_tolerance', { seconds_from_now: Math.round(distanceMs / 1000) });
    const received = readEventBytes(delivery.rawBody);
    if (!received) return this.refuse(mode, 'invalid_body');

    if (await this.intake.isFinished(PROVIDER, received.event.id)) return 'stored_event';
    await this.refuseOverLimit(delivery.client);

    const { webhookId, client } = await this.settings(mode);
    if (!webhookId) return this.refuse(mode, 'no_webhook_id');
    if (!isGatewayBWebhookId(webhookId)) return this.refuse(mode, 'invalid_webhook_id');
    if (!client) return this.refuse(mode, 'not_connected');

    const key = VerdictCache.key([mode, webhookId], GATEWAY_B_TRANSMISSION_HEADERS.map((name) => headers[name]), delivery.rawBody);
    const known = this.verdicts.get(key);
    if (known) {
      // Reused (or shared with a copy of this delivery being verified right now): a FAILURE counts again.
      if ((await known).verified) return 'authentic';
      await this.failures.record(delivery.client);
      return this.refuse(mode, 'signature_rejected', { reused: true });
    }
    const asked = this.askProvider(client, { headers, webhookId, rawBody: delivery.rawBody }, delivery.client, mode);
    this.verdicts.set(key, asked);
    if ((await asked).verified) return 'authentic';
    return this.refuse(mode, 'signature_rejected');
  }

  /**
   * One verify-webhook-signature call within a slot; a FAILURE is counted against the sender before
   * the slot passes on, so the next delivery's check sees it. Rejects (and is then not cached) when
   * PayPal cannot be asked.
   */
  private async askProvider(client: GatewayBClient, input: Parameters<GatewayBClient['verifyWebhookSignature']>[0], sender: string, mode: GatewayMode): Promise<ProviderVerdict> {
    if (!(await this.slots.acquire())) {
      this.logger.warn({ mode, in_flight: this.slots.inUse, waiting: this.slots.queued }, 'gateway B webhook: every verification slot is busy; asked to deliver again');
      throw new UnavailableError('Too many webhook deliveries are being verified right now. Please deliver again shortly.', BUSY_RETRY_AFTER_SECONDS);
    }
    try {
      // While this delivery waited for its slot, the sender's other deliveries may have failed.
      await this.refuseOverLimit(sender);
      let verification: GatewayBWebhookVerification;
      try {
        verification = await client.verifyWebhookSignature(input);
      } catch (error) {
        if (!(error instanceof GatewayBError)) throw error;
        this.logger.warn({ mode, err: error.message }, 'gateway B webhook: the signature could not be verified now');
        throw new GatewayUnavailableError();
      }
      if (verification.verified) return { verified: true };
      // The formats were checked before the call; any other refusal made no call and is no verdict.
      if (verification.reason !== 'signature_rejected') throw new InvalidSignatureError();
      await this.failures.record(sender);
      return { verified: false };
    } finally {
      this.slots.release();
    }
  }

  private async refuseOverLimit(sender: string): Promise<void> {
    const retryAfter = await this.failures.retryAfterSeconds(sender);
    if (retryAfter > 0) throw new RateLimitedError(retryAfter);
  }

  /** The mode's Webhook ID and client; a database outage or a secret that no longer opens is 503, never 500. */
  private async settings(mode: GatewayMode): Promise<{ webhookId: string | null; client: GatewayBClient | null }> {
    try {
      return { webhookId: await this.options.getSecret(gatewayBOption.webhookId(mode)), client: await this.clients.findForMode(mode) };
    } catch (error) {
      if (error instanceof DomainError) throw error;
      this.logger.error({ mode, err: error instanceof Error ? error.name : 'unknown' }, 'gateway B webhook: the stored settings cannot be read');
      throw new UnavailableError();
    }
  }

  private refuse(mode: GatewayMode, reason: string, details: Record<string, unknown> = {}): never {
    this.logger.warn({ mode, reason, ...details }, 'gateway B webhook refused: signature');
    throw new InvalidSignatureError();
  }
}
