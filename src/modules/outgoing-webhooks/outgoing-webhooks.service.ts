import { randomBytes } from 'node:crypto';
import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { DataSource, type EntityManager, MoreThan, MoreThanOrEqual, type Repository } from 'typeorm';
import { Clock } from '../../common/clock/index.js';
import { CryptoService } from '../../common/crypto/index.js';
import { InvalidParamsError, NotFoundError } from '../../common/errors/index.js';
import { APP_CONFIG, type AppConfig } from '../../config/index.js';
import { Outbox } from '../outbox/index.js';
import { type PaymentEvent, PaymentEvents, PaymentQueriesService } from '../payments/index.js';
import { RefusedAddressError, resolveAllowed } from './address-policy.js';
import { ALL_EVENTS } from './event-types.js';
import { OutgoingEventEntity } from './outgoing-event.entity.js';
import { WebhookDeliveryEntity } from './webhook-delivery.entity.js';
import { WebhookEndpointEntity, type WebhookEndpointStatus } from './webhook-endpoint.entity.js';

/** The outbox topic of one event's delivery to one endpoint. */
export const OUTGOING_WEBHOOK_TOPIC = 'outgoing_webhook';
/** How long the secret before a rotation keeps signing. */
export const PREVIOUS_SECRET_HOURS = 24;
/** Events one "send events since" queues at most (the answer says when more matched). */
export const REPLAY_LIMIT = 1000;

export interface DeliveryDue {
  delivery_id: number;
}

export interface EndpointInput {
  url?: string;
  events?: string[];
  description?: string | null;
  status?: WebhookEndpointStatus;
}

/** The body a receiver gets and a poller reads. */
export interface OutgoingEventBody {
  id: number;
  type: string;
  /** Unix seconds */
  created: number;
  sequence: number;
  data: Record<string, unknown>;
}

/**
 * The merchant's webhook endpoints and the events told to them. A payment move is announced by
 * payments inside its transaction (PaymentEvents); this writes the event and, per subscribed
 * endpoint, a delivery row and its outbox item in that same transaction, so a committed move is
 * always told and a rolled-back one never. Each delivery is its own outbox item: a failing
 * endpoint retries on its own schedule and never holds up another's.
 */
@Injectable()
export class OutgoingWebhooksService implements OnModuleInit {
  constructor(
    @InjectRepository(WebhookEndpointEntity) private readonly endpoints: Repository<WebhookEndpointEntity>,
    @InjectRepository(OutgoingEventEntity) private readonly events: Repository<OutgoingEventEntity>,
    @InjectRepository(WebhookDeliveryEntity) private readonly deliveries: Repository<WebhookDeliveryEntity>,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly crypto: CryptoService,
    private readonly outbox: Outbox,
    private readonly paymentEvents: PaymentEvents,
    private readonly payments: PaymentQueriesService,
    private readonly clock: Clock,
    private readonly dataSource: DataSource,
  ) {}

  onModuleInit(): void {
    this.paymentEvents.listen((manager, event) => this.record(manager, event));
  }

  // --- endpoints -----------------------------------------------------------------------------------

  /** Creates an endpoint; the answer is the only time its secret is shown. */
  async create(input: Required<Pick<EndpointInput, 'url'>> & EndpointInput): Promise<{ endpoint: WebhookEndpointEntity; secret: string }> {
    await this.checkUrl(input.url);
    const secret = newSecret();
    const now = this.clock.now();
    const endpoint = this.endpoints.create({
      url: input.url,
      events: JSON.stringify(input.events ?? [ALL_EVENTS]),
      description: input.description ?? null,
      status: input.status ?? 'enabled',
      secretSealed: this.crypto.encrypt(secret),
      previousSecretSealed: null,
      previousSecretExpiresAt: null,
      createdAt: now,
      updatedAt: now,
    });
    // Lone statements here, never save(): the conflict retry (src/database/conflict-retry.ts) covers a
    // statement outside a transaction, not the transaction save() opens for itself.
    await this.endpoints.insert(endpoint);
    return { endpoint, secret };
  }

  list(): Promise<WebhookEndpointEntity[]> {
    return this.endpoints.find({ order: { id: 'ASC' } });
  }

  async get(id: number): Promise<WebhookEndpointEntity> {
    const endpoint = await this.endpoints.findOne({ where: { id } });
    if (!endpoint) throw new NotFoundError('Webhook endpoint');
    return endpoint;
  }

  async update(id: number, input: EndpointInput): Promise<WebhookEndpointEntity> {
    const endpoint = await this.get(id);
    if (input.url !== undefined) await this.checkUrl(input.url);
    if (input.url !== undefined) endpoint.url = input.url;
    if (input.events !== undefined) endpoint.events = JSON.stringify(input.events);
    if (input.description !== undefined) endpoint.description = input.description;
    if (input.status !== undefined) endpoint.status = input.status;
    endpoint.updatedAt = this.clock.now();
    const { url, events, description, status, updatedAt } = endpoint;
    await this.endpoints.update({ id }, { url, events, description, status, updatedAt });
    return endpoint;
  }

  /** Deletes an endpoint and its delivery log; its pending deliveries are dropped by the worker. */
  async remove(id: number): Promise<WebhookEndpointEntity> {
    const endpoint = await this.get(id);
    await this.dataSource.transaction(async (manager) => {
      await manager.delete(WebhookDeliveryEntity, { endpointId: id });
      await manager.delete(WebhookEndpointEntity, { id });
    });
    return endpoint;
  }

  /** A new secret; the current one becomes the previous, which keeps signing for 24 hours. */
  async rotateSecret(id: number): Promise<{ endpoint: WebhookEndpointEntity; secret: string }> {
    const endpoint = await this.get(id);
    const secret = newSecret();
    const now = this.clock.now();
    endpoint.previousSecretSealed = endpoint.secretSealed;
    endpoint.previousSecretExpiresAt = new Date(now.getTime() + PREVIOUS_SECRET_HOURS * 3600_000);
    endpoint.secretSealed = this.crypto.encrypt(secret);
    endpoint.updatedAt = now;
    const { previousSecretSealed, previousSecretExpiresAt, secretSealed, updatedAt } = endpoint;
    await this.endpoints.update({ id }, { previousSecretSealed, previousSecretExpiresAt, secretSealed, updatedAt });
    return { endpoint, secret };
  }

  /** The secrets that sign now, the current one first. */
  signingSecrets(endpoint: WebhookEndpointEntity, now: Date): string[] {
    const secrets = [this.crypto.decrypt(endpoint.secretSealed)];
    if (endpoint.previousSecretSealed && endpoint.previousSecretExpiresAt && endpoint.previousSecretExpiresAt > now) secrets.push(this.crypto.decrypt(endpoint.previousSecretSealed));
    return secrets;
  }

  /** Refuses (400 naming `url`) a URL that is not https or whose host is or resolves to an internal address. */
  private async checkUrl(url: string): Promise<void> {
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      throw new InvalidParamsError({ url: 'url must be an absolute URL' });
    }
    const allowPrivate = this.config.outgoingWebhooksAllowPrivate;
    if (parsed.protocol !== 'https:' && !(allowPrivate && parsed.protocol === 'http:')) throw new InvalidParamsError({ url: 'url must be an https URL' });
    if (parsed.username || parsed.password) throw new InvalidParamsError({ url: 'url must not carry credentials' });
    try {
      await resolveAllowed(parsed.hostname, allowPrivate);
    } catch (error) {
      if (error instanceof RefusedAddressError) throw new InvalidParamsError({ url: `url refused: ${error.message}` });
      throw error;
    }
  }

  // --- events and deliveries -----------------------------------------------------------------------

  /** Inside the mover's transaction: the event, and one delivery per subscribed enabled endpoint. */
  private async record(manager: EntityManager, event: PaymentEvent): Promise<void> {
    const last = await manager.createQueryBuilder(OutgoingEventEntity, 'e').select('MAX(e.sequence)', 'max').where('e.payment_id = :id', { id: event.payment.id }).getRawOne<{ max: number | string | null }>();
    const sequence = Number(last?.max ?? 0) + 1;
    const data = { payment: await this.payments.adminSnapshot(manager, event.payment.id), ...(event.data ?? {}) };
    const stored = await manager.save(
      manager.create(OutgoingEventEntity, { type: event.type, paymentId: event.payment.id, sequence, data: JSON.stringify(data), createdAt: this.clock.now() }),
    );
    const endpoints = await manager.find(WebhookEndpointEntity, { where: { status: 'enabled' }, order: { id: 'ASC' } });
    for (const endpoint of endpoints) {
      if (subscribes(endpoint, stored.type)) await this.queue(manager, endpoint.id, stored);
    }
  }

  /** A delivery row and its outbox item, through `manager`. */
  private async queue(manager: EntityManager, endpointId: number, event: OutgoingEventEntity): Promise<WebhookDeliveryEntity> {
    const delivery = await manager.save(
      manager.create(WebhookDeliveryEntity, { endpointId, eventId: event.id, eventType: event.type, status: 'pending', attempts: 0, createdAt: this.clock.now() }),
    );
    await this.outbox.add(manager, { topic: OUTGOING_WEBHOOK_TOPIC, key: `delivery-${delivery.id}`, payload: { delivery_id: delivery.id } satisfies DeliveryDue });
    return delivery;
  }

  /** Sends one delivery's event again, as a new delivery (same event id). */
  async resend(endpointId: number, deliveryId: number): Promise<WebhookDeliveryEntity> {
    await this.get(endpointId);
    const original = await this.deliveries.findOne({ where: { id: deliveryId, endpointId } });
    if (!original) throw new NotFoundError('Webhook delivery');
    const event = await this.events.findOne({ where: { id: original.eventId } });
    if (!event) throw new NotFoundError('Outgoing event');
    return this.dataSource.transaction((manager) => this.queue(manager, endpointId, event));
  }

  /** Queues the endpoint's events created at or after `since` (oldest first, at most REPLAY_LIMIT). */
  async replaySince(endpointId: number, since: Date): Promise<{ queued: number; truncated: boolean }> {
    const endpoint = await this.get(endpointId);
    const events = await this.events.find({ where: { createdAt: MoreThanOrEqual(since) }, order: { id: 'ASC' }, take: REPLAY_LIMIT + 1 });
    const chosen = events.slice(0, REPLAY_LIMIT).filter((event) => subscribes(endpoint, event.type));
    await this.dataSource.transaction(async (manager) => {
      for (const event of chosen) await this.queue(manager, endpoint.id, event);
    });
    return { queued: chosen.length, truncated: events.length > REPLAY_LIMIT };
  }

  /** An endpoint's deliveries, newest first. */
  async deliveryPage(endpointId: number, offset: number, limit: number): Promise<{ deliveries: WebhookDeliveryEntity[]; total: number }> {
    await this.get(endpointId);
    const [deliveries, total] = await this.deliveries.findAndCount({ where: { endpointId }, order: { id: 'DESC' }, skip: offset, take: limit });
    return { deliveries, total };
  }

  /** Events after `sinceId`, oldest first (for receivers that poll). */
  async eventsAfter(sinceId: number, limit: number): Promise<OutgoingEventBody[]> {
    const rows = await this.events.find({ where: { id: MoreThan(sinceId) }, order: { id: 'ASC' }, take: limit });
    return rows.map(eventBody);
  }

  findDelivery(id: number): Promise<WebhookDeliveryEntity | null> {
    return this.deliveries.findOne({ where: { id } });
  }

  findEvent(id: number): Promise<OutgoingEventEntity | null> {
    return this.events.findOne({ where: { id } });
  }

  findEndpoint(id: number): Promise<WebhookEndpointEntity | null> {
    return this.endpoints.findOne({ where: { id } });
  }

  /** Stores what an attempt changed on a delivery (DeliveryHandler). */
  async saveAttempt(delivery: WebhookDeliveryEntity): Promise<void> {
    const { status, attempts, firstAttemptAt, lastAttemptAt, statusCode, durationMs, responseExcerpt, error } = delivery;
    await this.deliveries.update({ id: delivery.id }, { status, attempts, firstAttemptAt, lastAttemptAt, statusCode, durationMs, responseExcerpt, error });
  }
}

export function eventBody(row: OutgoingEventEntity): OutgoingEventBody {
  return { id: row.id, type: row.type, created: Math.floor(row.createdAt.getTime() / 1000), sequence: row.sequence, data: JSON.parse(row.data) as Record<string, unknown> };
}

export function endpointEvents(endpoint: WebhookEndpointEntity): string[] {
  return JSON.parse(endpoint.events) as string[];
}

function subscribes(endpoint: WebhookEndpointEntity, type: string): boolean {
  const events = endpointEvents(endpoint);
  return events.includes(ALL_EVENTS) || events.includes(type);
}

/** `whsec_` and 32 random bytes (the form gateway A's signing secrets have, so receivers recognise it). */
function newSecret(): string {
  return `whsec_${randomBytes(32).toString('base64url')}`;
}
