import { Inject, Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import { Clock } from '../../common/clock/index.js';
import { APP_CONFIG, type AppConfig } from '../../config/index.js';
import { type OutboxDelivery, type OutboxHandler, OutboxWorker, PermanentOutboxError, retryDelayMs } from '../outbox/index.js';
import { SIGNATURE_HEADER, signatureHeader } from './event-signature.js';
import { sendEvent } from './event-sender.js';
import { type DeliveryDue, eventBody, OUTGOING_WEBHOOK_TOPIC, OutgoingWebhooksService } from './outgoing-webhooks.service.js';

/** A delivery stops this long after its first attempt (then it is failed and the dashboard says so). */
export const DELIVERY_WINDOW_MS = 3 * 24 * 3600_000;

/**
 * Sends one delivery (outbox topic `outgoing_webhook`): the event's body signed with the endpoint's
 * secrets, 10 s at most, a 2xx answer is success. Retries follow OUTBOX_RETRY_BASE_SECONDS doubling
 * to OUTBOX_RETRY_MAX_SECONDS, by time rather than by count: the attempt whose next wait would end
 * more than 3 days after the first attempt is the last one, and its failure fails the delivery
 * (a failed outbox item raises the dashboard's `outbox.failed` notice). At least once: the event's
 * `id` is the same on every attempt and resend, so the receiver can drop a repeat.
 */
@Injectable()
export class OutgoingWebhookDeliveries implements OnModuleInit, OutboxHandler<DeliveryDue> {
  readonly topic = OUTGOING_WEBHOOK_TOPIC;
  /** Time ends a delivery, not a count (a count high enough that 3 days always come first). */
  readonly maxAttempts = 1_000_000;
  private readonly logger = new Logger('OutgoingWebhooks');

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly webhooks: OutgoingWebhooksService,
    private readonly worker: OutboxWorker,
    private readonly clock: Clock,
  ) {}

  onModuleInit(): void {
    this.worker.register(this);
  }

  async handle(item: OutboxDelivery<DeliveryDue>): Promise<void> {
    const delivery = await this.webhooks.findDelivery(item.payload.delivery_id);
    // Deleted with its endpoint, or already finished (a repeat after a lost claim).
    if (!delivery || delivery.status !== 'pending') return;
    const endpoint = await this.webhooks.findEndpoint(delivery.endpointId);
    const event = await this.webhooks.findEvent(delivery.eventId);
    if (!endpoint || !event) return;
    const now = this.clock.now();
    if (endpoint.status !== 'enabled') {
      Object.assign(delivery, { status: 'failed', error: 'the endpoint is disabled', lastAttemptAt: now });
      await this.webhooks.saveAttempt(delivery);
      return;
    }
    const body = JSON.stringify(eventBody(event));
    const signature = signatureHeader(body, this.webhooks.signingSecrets(endpoint, now), Math.floor(now.getTime() / 1000));
    const outcome = await sendEvent(endpoint.url, body, { [SIGNATURE_HEADER]: signature }, { allowPrivate: this.config.outgoingWebhooksAllowPrivate });
    const succeeded = outcome.statusCode !== null && outcome.statusCode >= 200 && outcome.statusCode < 300;
    delivery.attempts += 1;
    delivery.firstAttemptAt ??= now;
    delivery.lastAttemptAt = now;
    delivery.statusCode = outcome.statusCode;
    delivery.durationMs = outcome.durationMs;
    delivery.responseExcerpt = outcome.excerpt;
    delivery.error = succeeded ? null : (outcome.error ?? `answered ${outcome.statusCode}`).slice(0, 255);
    const reason = `delivery ${delivery.id} to endpoint ${endpoint.id}: ${delivery.error}`;
    if (succeeded) delivery.status = 'succeeded';
    else if (this.lastAttempt(delivery.firstAttemptAt, item.attempt)) delivery.status = 'failed';
    await this.webhooks.saveAttempt(delivery);
    if (succeeded) return;
    if (delivery.status === 'failed') {
      this.logger.warn({ delivery_id: delivery.id, endpoint_id: endpoint.id, event_id: event.id, attempts: delivery.attempts }, 'outgoing webhook delivery given up after 3 days');
      throw new PermanentOutboxError(`${reason} (gave up 3 days after the first attempt)`);
    }
    throw new Error(reason);
  }

  /** True when the wait before the next attempt would end past the 3-day window. */
  private lastAttempt(firstAttemptAt: Date, attempt: number): boolean {
    const { retryBaseSeconds, retryMaxSeconds } = this.config.outbox;
    const next = this.clock.now().getTime() + retryDelayMs(attempt, retryBaseSeconds, retryMaxSeconds);
    return next > firstAttemptAt.getTime() + DELIVERY_WINDOW_MS;
  }
}
