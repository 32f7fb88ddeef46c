import { Injectable, Logger, type OnApplicationBootstrap, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { Clock } from '../../../common/clock/index.js';
import { ShutdownState } from '../../../common/shutdown/index.js';
import { CHECKOUT_VERSION } from '../../../config/index.js';
import { GATEWAY_MODES, type GatewayMode } from '../../gateways/index.js';
import { UpgradeRegistry } from '../../plugin/index.js';
import { OptionsService } from '../../settings/index.js';
import { TaskLeaseRepository } from '../../tasks/index.js';
import { type GatewayAWebhookEndpoint, parseWebhookEndpoint } from '../client/gateway-a-answers.js';
import { GatewayAClientFactory } from '../client/gateway-a-client.factory.js';
import { describeGatewayFailure, gatewayStatusOf } from '../client/gateway-a-errors.js';
import { InstallationScope } from '../client/installation-scope.js';
import { gatewayAOption } from '../gateway-a-options.js';
import { GatewayAContractService } from './gateway-a-contract.service.js';
import { GATEWAY_A_WEBHOOK_EVENTS, isContractEventSet } from './webhook-contract.js';

export const WEBHOOK_UPGRADE_TASK = 'gateway_a_webhook_update_1_5_3';
export const WEBHOOK_UPGRADE_RELEASE = '1.5.3';
export const UPGRADE_MAX_ATTEMPTS = 5;
export const UPGRADE_BACKOFF_BASE_MS = 30_000;
export const UPGRADE_BACKOFF_MAX_MS = 15 * 60_000;
/** Longer than one attempt can take (two modes, a few calls of at most 20 s each). */
export const UPGRADE_LEASE_TTL_MS = 5 * 60_000;

/**
 * What happened to one mode's endpoint. Everything but `error` is final: a later attempt skips
 * that mode.
 */
export type UpgradeModeOutcome =
  | 'updated'
  | 'already_current'
  | 'skipped_manual'
  | 'skipped_unmanaged'
  | 'not_configured'
  | 'endpoint_missing'
  | 'verification_failed'
  | 'error';

export type UpgradeStatus = 'scheduled' | 'running' | 'retrying' | 'completed' | 'failed';

/** Stored in options (gatewayAOption.webhookUpgrade) for the dashboard. */
export interface WebhookUpgradeProgress {
  task: typeof WEBHOOK_UPGRADE_TASK;
  status: UpgradeStatus;
  attempts: number;
  max_attempts: number;
  /** When the next attempt may run (ISO 8601), null while running or when finished. */
  next_attempt_at: string | null;
  last_error: string | null;
  modes: Partial<Record<GatewayMode, UpgradeModeOutcome>>;
  scheduled_at: string;
  started_at: string | null;
  finished_at: string | null;
}

/** Result of one call of `runDue` (for tests and logs). */
export type UpgradeRunResult = 'idle' | 'not_due' | 'busy' | UpgradeStatus;

/** A failure whose reason is already safe to store. */
class RetryableUpgradeError extends Error {}

const PENDING: ReadonlySet<UpgradeStatus> = new Set(['scheduled', 'running', 'retrying']);

export function upgradeBackoffMs(attempt: number): number {
  return Math.min(UPGRADE_BACKOFF_BASE_MS * 2 ** (attempt - 1), UPGRADE_BACKOFF_MAX_MS);
}

/**
 * Upgrade 1.5.2 → 1.5.3 (docs/decisions.md §7): the endpoints 1.5.2 created get the 1.5.3 event list,
 * in place. Only `enabled_events` is sent: the API version, the secret and the endpoint itself
 * stay. Manual or foreign endpoints are never touched. The task is bounded (attempts with
 * exponential backoff), survives restarts (its progress lives in options) and runs on one
 * instance at a time (a database lease).
 */
@Injectable()
export class GatewayAWebhookUpgradeTask implements OnModuleInit, OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(GatewayAWebhookUpgradeTask.name);
  /** This instance's identity in the lease table. */
  readonly owner = `${hostname().slice(0, 40)}:${process.pid}:${randomUUID().slice(0, 8)}`;
  private timer?: NodeJS.Timeout;
  private running: Promise<UpgradeRunResult> | null = null;
  private stopped = false;

  constructor(
    private readonly options: OptionsService,
    private readonly clients: GatewayAClientFactory,
    private readonly contract: GatewayAContractService,
    private readonly leases: TaskLeaseRepository,
    private readonly clock: Clock,
    private readonly upgrades: UpgradeRegistry,
    private readonly scope: InstallationScope,
    shutdown: ShutdownState,
  ) {
    // From the signal on no attempt starts (a due one resumes at the next boot, here or elsewhere);
    // one in flight is waited for in onModuleDestroy.
    shutdown.onShutdown(() => this.stop());
  }

  onModuleInit(): void {
    this.upgrades.register({
      version: WEBHOOK_UPGRADE_RELEASE,
      name: 'gateway A webhook endpoints get the 1.5.3 event list in place',
      run: () => this.schedule(),
    });
  }

  /** A task left pending by a stopped instance resumes at boot. */
  async onApplicationBootstrap(): Promise<void> {
    const progress = await this.progress();
    if (progress && PENDING.has(progress.status)) this.kick(0);
  }

  async onModuleDestroy(): Promise<void> {
    this.stop();
    await this.running?.catch(() => undefined);
  }

  private stop(): void {
    this.stopped = true;
    clearTimeout(this.timer);
  }

  async progress(): Promise<WebhookUpgradeProgress | null> {
    return this.options.get<WebhookUpgradeProgress | null>(gatewayAOption.webhookUpgrade(), null);
  }

  /** Records the task as due now and starts it in the background (the upgrade route returns at once). */
  async schedule(): Promise<void> {
    const now = this.clock.now().toISOString();
    await this.save({
      task: WEBHOOK_UPGRADE_TASK,
      status: 'scheduled',
      attempts: 0,
      max_attempts: UPGRADE_MAX_ATTEMPTS,
      next_attempt_at: now,
      last_error: null,
      modes: {},
      scheduled_at: now,
      started_at: null,
      finished_at: null,
    });
    this.kick(0);
  }

  /** Runs one attempt if one is due and this instance wins the lease; joins a run in progress. */
  runDue(): Promise<UpgradeRunResult> {
    this.running ??= this.attempt().finally(() => {
      this.running = null;
    });
    return this.running;
  }

  /** Resolves when this instance has no attempt in flight. */
  async idle(): Promise<void> {
    while (this.running) await this.running.catch(() => undefined);
  }

  private kick(delayMs: number): void {
    if (this.stopped) return;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.runDue().catch((error: unknown) => this.logger.error({ err: error }, 'webhook upgrade attempt crashed'));
    }, Math.max(0, delayMs));
    this.timer.unref();
  }

  private async attempt(): Promise<UpgradeRunResult> {
    const progress = await this.progress();
    if (!progress || !PENDING.has(progress.status)) return 'idle';
    const wait = this.msUntilDue(progress);
    if (wait > 0) {
      this.kick(wait);
      return 'not_due';
    }
    if (!(await this.leases.tryAcquire(WEBHOOK_UPGRADE_TASK, this.owner, this.clock.now(), UPGRADE_LEASE_TTL_MS))) {
      this.kick(UPGRADE_LEASE_TTL_MS);
      return 'busy';
    }
    try {
      // Re-read under the lease: another instance may have run this attempt in the meantime.
      const current = await this.progress();
      if (!current || !PENDING.has(current.status) || this.msUntilDue(current) > 0) return 'idle';
      return await this.runAttempt(current);
    } finally {
      await this.leases.release(WEBHOOK_UPGRADE_TASK, this.owner);
    }
  }

  private msUntilDue(progress: WebhookUpgradeProgress): number {
    if (progress.status === 'running' || progress.next_attempt_at === null) return 0;
    return Date.parse(progress.next_attempt_at) - this.clock.now().getTime();
  }

  private async runAttempt(current: WebhookUpgradeProgress): Promise<UpgradeStatus> {
    const attempt = current.attempts + 1;
    const startedAt = this.clock.now().toISOString();
    await this.save({ ...current, status: 'running', attempts: attempt, next_attempt_at: null, started_at: current.started_at ?? startedAt });

    const modes = { ...current.modes };
    const errors: string[] = [];
    for (const mode of GATEWAY_MODES) {
      if (modes[mode] && modes[mode] !== 'error') continue;
      try {
        modes[mode] = await this.upgradeMode(mode);
      } catch (error) {
        modes[mode] = 'error';
        errors.push(`${mode}: ${error instanceof RetryableUpgradeError ? error.message : describeGatewayFailure(error)}`);
      }
    }

    const base = { ...current, attempts: attempt, modes, started_at: current.started_at ?? startedAt };
    if (errors.length === 0) {
      await this.save({ ...base, status: 'completed', next_attempt_at: null, last_error: null, finished_at: this.clock.now().toISOString() });
      this.logger.log({ modes }, 'gateway A webhook upgrade completed');
      return 'completed';
    }
    const lastError = errors.join('; ');
    if (attempt >= current.max_attempts) {
      await this.save({ ...base, status: 'failed', next_attempt_at: null, last_error: lastError, finished_at: this.clock.now().toISOString() });
      this.logger.error({ modes, attempts: attempt, reason: lastError }, 'gateway A webhook upgrade gave up');
      return 'failed';
    }
    const delay = upgradeBackoffMs(attempt);
    await this.save({ ...base, status: 'retrying', next_attempt_at: new Date(this.clock.now().getTime() + delay).toISOString(), last_error: lastError });
    this.logger.warn({ attempt, delay_ms: delay, reason: lastError }, 'gateway A webhook upgrade will retry');
    this.kick(delay);
    return 'retrying';
  }

  /** One mode: the endpoint 1.5.2 created, updated in place with events only. Throws to retry. */
  private async upgradeMode(mode: GatewayMode): Promise<UpgradeModeOutcome> {
    const record = await this.contract.getRecord(mode);
    if (!record) return 'not_configured';
    if (record.management !== 'automatic') return 'skipped_manual';
    if (!record.endpoint_id) return 'not_configured';
    if (record.status === 'verified' && record.events_version === CHECKOUT_VERSION) return 'already_current';
    const account = await this.clients.findForMode(mode, { maxNetworkRetries: 0 });
    if (!account) return 'not_configured';

    // A malformed answer is thrown like a 5xx: this mode is retried later, its record untouched.
    let endpoint: GatewayAWebhookEndpoint;
    try {
      endpoint = parseWebhookEndpoint(await account.client.webhookEndpoints.retrieve(record.endpoint_id), 'webhookEndpoints.retrieve', { id: record.endpoint_id });
    } catch (error) {
      if (gatewayStatusOf(error) !== 404) throw error;
      await this.contract.saveRecord(mode, { ...record, status: 'failed', verified_at: null, last_error: 'endpoint not found at the gateway' });
      return 'endpoint_missing';
    }
    // Only what this plugin created carries its marker; anything else is the merchant's.
    if (endpoint.metadata.checkout_managed !== 'true') return 'skipped_unmanaged';

    let outcome: UpgradeModeOutcome = 'already_current';
    if (!isContractEventSet(endpoint.enabled_events)) {
      const updated = await account.client.webhookEndpoints.update(
        endpoint.id,
        { enabled_events: [...GATEWAY_A_WEBHOOK_EVENTS] },
        { idempotencyKey: this.scope.keys.webhookUpgrade(WEBHOOK_UPGRADE_RELEASE, endpoint.id) },
      );
      parseWebhookEndpoint(updated, 'webhookEndpoints.update', { id: endpoint.id });
      outcome = 'updated';
    }
    const check = await this.contract.checkEndpoint(account.client, endpoint.id, mode);
    if (!check.ok && check.retryable) throw new RetryableUpgradeError(check.reason);
    if (!check.ok) {
      await this.contract.saveRecord(mode, { ...record, status: 'failed', verified_at: null, last_error: check.reason });
      return 'verification_failed';
    }
    await this.contract.saveRecord(mode, {
      ...record,
      account_id: record.account_id ?? account.accountId,
      status: 'verified',
      events_version: CHECKOUT_VERSION,
      verified_at: this.clock.now().toISOString(),
      last_error: null,
    });
    return outcome;
  }

  private async save(progress: WebhookUpgradeProgress): Promise<void> {
    await this.options.set(gatewayAOption.webhookUpgrade(), progress);
  }
}
