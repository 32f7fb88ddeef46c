import { Inject, Injectable } from '@nestjs/common';
import { Clock } from '../../common/clock/index.js';
import { RedisConnection } from '../../common/redis/index.js';
import { APP_CONFIG, type AppConfig } from '../../config/index.js';
import { GATEWAY_MODES, GatewayRegistry, GatewayStateService } from '../gateways/index.js';
import { MailService } from '../mail/index.js';
import { PaymentQueriesService } from '../payments/index.js';
import type { DoctorCheck } from './doctor-check.js';

const DAY_MS = 24 * 3600_000;
const LOCAL_HOSTS = new Set(['localhost', '127.0.0.1', '::1', '[::1]', '0.0.0.0']);

/**
 * `npm run cli -- doctor` once the application has started (so the secret canary matched): the
 * world around the service — Redis and SMTP when configured, a public HTTPS base URL in live mode,
 * each connected gateway's credentials and webhook setup (asked of its adapter), and payments that
 * have waited for their provider for more than a day. Reads only; never prints a secret.
 */
@Injectable()
export class DoctorService {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly registry: GatewayRegistry,
    private readonly state: GatewayStateService,
    private readonly redis: RedisConnection,
    private readonly mail: MailService,
    private readonly payments: PaymentQueriesService,
    private readonly clock: Clock,
  ) {}

  async run(): Promise<DoctorCheck[]> {
    const checks: DoctorCheck[] = [
      { name: 'secret canary', status: 'ok', message: 'CHECKOUT_SECRET (or data/secret.key) opens the stored secrets' },
      ...this.rotationCheck(),
      ...(await this.redisCheck()),
      await this.smtpCheck(),
      await this.publicUrlCheck(),
      ...(await this.gatewayChecks()),
      await this.waitingPaymentsCheck(),
    ];
    return checks;
  }

  /** A rotation left half done keeps the previous secret alive: say so while CHECKOUT_SECRET_PREVIOUS is set. */
  private rotationCheck(): DoctorCheck[] {
    if (!this.config.checkoutSecretPrevious) return [];
    return [
      {
        name: 'secret rotation',
        status: 'warn',
        message: 'CHECKOUT_SECRET_PREVIOUS is set: a rotation is under way and the previous secret is still accepted',
        fix: 'run `npm run cli -- rotate-secret`, deal with what it lists, then remove CHECKOUT_SECRET_PREVIOUS (docs/operations.md)',
      },
    ];
  }

  private async redisCheck(): Promise<DoctorCheck[]> {
    if (!this.config.redisUrl) return [];
    const answers = await this.redis.ping().catch(() => false);
    return [
      answers
        ? { name: 'redis', status: 'ok', message: 'REDIS_URL answers; rate limits are shared by every instance' }
        : { name: 'redis', status: 'fail', message: 'REDIS_URL does not answer: rate-limited and admin routes answer 503', fix: 'start Redis or correct REDIS_URL' },
    ];
  }

  private async smtpCheck(): Promise<DoctorCheck> {
    if (!this.config.smtpUrl) {
      return { name: 'smtp', status: 'warn', message: `SMTP_URL is not set: payment emails are written to ${this.mail.outboxDir}`, fix: 'set SMTP_URL (smtp:// or smtps://) to send them' };
    }
    try {
      await this.mail.verifySmtp();
      return { name: 'smtp', status: 'ok', message: 'the SMTP server accepts the connection and login' };
    } catch {
      return { name: 'smtp', status: 'fail', message: 'the SMTP server refused the connection or the login', fix: 'check SMTP_URL (host, port, credentials, TLS)' };
    }
  }

  /** Providers deliver webhooks and browsers return to PUBLIC_BASE_URL: in live mode it must be public HTTPS. */
  private async publicUrlCheck(): Promise<DoctorCheck> {
    const url = new URL(this.config.publicBaseUrl);
    const local = LOCAL_HOSTS.has(url.hostname) || url.hostname.endsWith('.localhost');
    const modes = await Promise.all(this.registry.all().map((adapter) => this.state.getMode(adapter.id)));
    const fine = url.protocol === 'https:' && !local;
    if (modes.includes('live')) {
      return fine
        ? { name: 'public base url', status: 'ok', message: `${url.origin} is a public https origin` }
        : { name: 'public base url', status: 'fail', message: `a gateway is in live mode but PUBLIC_BASE_URL is ${url.origin}: webhooks and returns cannot reach it`, fix: 'set PUBLIC_BASE_URL to the public https origin of this service' };
    }
    return fine
      ? { name: 'public base url', status: 'ok', message: `${url.origin} is a public https origin` }
      : { name: 'public base url', status: 'warn', message: `${url.origin} is fine for test mode only`, fix: 'set PUBLIC_BASE_URL to the public https origin before going live' };
  }

  private async gatewayChecks(): Promise<DoctorCheck[]> {
    const checks: DoctorCheck[] = [];
    for (const adapter of this.registry.all()) {
      for (const mode of GATEWAY_MODES) {
        if (!(await adapter.isConnected(mode))) continue;
        const found = adapter.diagnose ? await adapter.diagnose(mode) : [];
        checks.push(...found.map((entry) => ({ name: entry.check, status: entry.status, message: entry.message, fix: entry.fix })));
        if (found.length === 0) checks.push({ name: `${adapter.id} ${mode}`, status: 'ok', message: 'connected' });
      }
    }
    if (checks.length === 0) checks.push({ name: 'gateways', status: 'warn', message: 'no gateway is connected: nobody can pay yet', fix: 'connect gateway A (GET /payment-gateway/connect) or save gateway B settings' });
    return checks;
  }

  private async waitingPaymentsCheck(): Promise<DoctorCheck> {
    const stuck = await this.payments.findWaiting({ olderThan: new Date(this.clock.now().getTime() - DAY_MS), since: new Date(0), limit: 20 });
    if (stuck.length === 0) return { name: 'waiting payments', status: 'ok', message: 'no payment has waited for its provider for more than a day' };
    const ids = stuck.map((payment) => payment.id).join(', ');
    return {
      name: 'waiting payments',
      status: 'fail',
      message: `${stuck.length === 20 ? '20 or more' : stuck.length} payment(s) have waited for their provider for more than a day (ids ${ids})`,
      fix: 'npm run cli -- reconcile --since 30d, then read each payment\'s log',
    };
  }
}
