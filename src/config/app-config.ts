import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { ConfigError, envBoolean, envEnum, envInteger, envOriginList, envString, envUrl } from './env-readers.js';

export const CHECKOUT_NAME = 'Checkout';
export const CHECKOUT_ALIAS = 'checkout';
export const CHECKOUT_PREFIX = 'checkout';
export const CHECKOUT_REST_API_PREFIX = CHECKOUT_PREFIX;
export const CHECKOUT_ADMIN_CAP = 'checkout_settings';
/** Cancelling a payer's subscription at the provider (granted to administrators by migration 1764116900000). */
export const CHECKOUT_CANCEL_SUBSCRIPTIONS_CAP = 'cancel_checkout_subscriptions';
/** Refunding payments (POST /administration/payments/{id}/refunds): administrators have it (migration 1764116530000). */
export const CHECKOUT_REFUND_CAP = 'refund_checkout_payments';
export const CHECKOUT_VERSION = '1.5.3';
export const CHECKOUT_POST_TYPE_PAYMENT_FORM = 'checkout_form';
export const REST_NAMESPACE = `${CHECKOUT_REST_API_PREFIX}/v1`;

export type CheckoutPlan = 'free' | 'pro';

export interface RateLimitRule {
  limit: number;
  /** window in milliseconds */
  ttl: number;
}

/**
 * Everything the core reads from its environment, validated once at boot. A gateway slice reads
 * its own variables itself (its config section, `@GatewaySlice({ config })`).
 */
export interface AppConfig {
  port: number;
  host: string;
  publicBaseUrl: string;
  /**
   * CORS_ORIGINS: other origins (normalised `scheme://host[:port]`) whose browser pages may call
   * admin routes. The service's own origin (PUBLIC_BASE_URL, and the Host a request was sent to)
   * is always allowed and is not listed here.
   */
  corsOrigins: string[];
  /**
   * EMBED_ORIGINS: the origins (normalised `scheme://host[:port]`) whose pages may frame the
   * hosted payment page (its `frame-ancestors`); empty (the default): no page may frame it.
   */
  embedOrigins: string[];
  restRoot: string;
  /** Undefined means the embedded SQLite file under dataDir. */
  databaseUrl?: string;
  dataDir: string;
  redisUrl?: string;
  /**
   * REDIS_KEY_PREFIX: every key this service writes to Redis starts with it (the client's
   * keyPrefix), so several services or installations can share one Redis.
   */
  redisKeyPrefix: string;
  /** Explicit secret from CHECKOUT_SECRET; when absent the key file under dataDir is used. */
  checkoutSecret?: string;
  /**
   * CHECKOUT_SECRET_PREVIOUS: the secret being rotated away from. Everything signed, hashed or
   * sealed under it is still accepted (and re-keyed or re-sealed under the current secret) until
   * it is removed (docs/operations.md, "Rotating CHECKOUT_SECRET").
   */
  checkoutSecretPrevious?: string;
  adminPassword?: string;
  plan: CheckoutPlan;
  smtpUrl?: string;
  trustProxy: boolean;
  tablePrefix: string;
  /** MIGRATION_LOCK_TIMEOUT_SECONDS: how long a boot waits for another instance's migrations. */
  migrationLockTimeoutSeconds: number;
  adminUrl: string;
  /** ADMIN_CONSOLE_DIR: the built admin console served at /admin/ (default `dist/console` of the project). */
  adminConsoleDir: string;
  logLevel: string;
  bodyLimitBytes: number;
  webhookBodyLimitBytes: number;
  /** Lifetime of a checkout token issued by payment/sync-details, in seconds. */
  checkoutTokenTtlSeconds: number;
  /**
   * Admin console sessions (POST /auth/session): SESSION_TTL_SECONDS is the longest a session lives
   * from its sign-in, SESSION_IDLE_TIMEOUT_SECONDS how long it survives without a request.
   */
  session: { ttlSeconds: number; idleTimeoutSeconds: number };
  /** Where tagging-area answers are also sent (form-encoded POST); unset = kept locally only. */
  featuresApiUrl?: string;
  /** How long one provider request may take before it counts as unanswered (milliseconds). */
  gatewayTimeoutMs: number;
  /** Seconds between reconciliation runs; 0 turns the background sweep off (the CLI still runs it). */
  reconcileIntervalSeconds: number;
  /** PAYMENT_EXPORT_MAX_ROWS: the most rows one CSV export of the payments writes (issue 36) */
  paymentExportMaxRows: number;
  /** The outbox worker (work due after a commit: payment emails, the tagging forward). */
  outbox: OutboxSettings;
  /**
   * OUTGOING_WEBHOOKS_ALLOW_PRIVATE: accept `http://` endpoint URLs and loopback or private
   * addresses (development and tests only; docs/outgoing-webhooks.md). Off by default.
   */
  outgoingWebhooksAllowPrivate: boolean;
  /**
   * METRICS_TOKEN: when set, `GET /metrics` needs `Authorization: Bearer <token>` (at least 16
   * characters); unset, it is open (docs/operations.md).
   */
  metricsToken?: string;
  /** What SIGTERM / SIGINT do (src/common/shutdown/, docs/scaling.md "Rolling deploys"). */
  shutdown: ShutdownSettings;
  rateLimits: {
    newPayment: RateLimitRule;
    publicPayment: RateLimitRule;
    failedLogin: RateLimitRule;
    /** The console's account routes that need no session (password reset, set-password links), per client. */
    accountRecovery: RateLimitRule;
    /** Gateway-B deliveries the provider refused to verify, per client (successes never count). */
    webhookVerifyFailures: RateLimitRule;
  };
}

export interface OutboxSettings {
  /** OUTBOX_POLL_SECONDS: how often each instance looks for due items (retries, lapsed claims); new items are started at once. */
  pollSeconds: number;
  /** OUTBOX_MAX_ATTEMPTS: attempts before an item is marked failed. */
  maxAttempts: number;
  /** OUTBOX_RETRY_BASE_SECONDS: the wait after the first failed attempt, doubled after each further one. */
  retryBaseSeconds: number;
  /** OUTBOX_RETRY_MAX_SECONDS: the longest wait between two attempts. */
  retryMaxSeconds: number;
  /** OUTBOX_LEASE_SECONDS: how long a claim lasts unless its worker renews it (a killed worker's items are taken again after it). */
  leaseSeconds: number;
}

export interface ShutdownSettings {
  /** SHUTDOWN_TIMEOUT_SECONDS: the process has exited this long after the signal, whatever is still running. */
  timeoutSeconds: number;
  /**
   * SHUTDOWN_DRAIN_SECONDS: after SIGTERM, how long the instance keeps accepting connections while
   * /readyz answers 503 (for the load balancer to notice), before it closes its listener.
   */
  drainSeconds: number;
}

export const APP_CONFIG = Symbol('APP_CONFIG');

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

/**
 * Builds the typed configuration from an environment map. Throws ConfigError naming the first
 * bad variable (never its value, which may be a secret).
 */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): AppConfig {
  const port = envInteger(env, 'PORT', 3000, { min: 0, max: 65535 });
  const host = envString(env, 'HOST', '0.0.0.0');
  const restRoot = envString(env, 'REST_ROOT', 'wp-json');
  if (!/^[a-z0-9][a-z0-9_-]*(\/[a-z0-9][a-z0-9_-]*)*$/i.test(restRoot)) {
    throw new ConfigError('REST_ROOT', 'must be one or more path segments without leading or trailing slash');
  }
  const checkoutSecret = env.CHECKOUT_SECRET;
  if (checkoutSecret !== undefined && Buffer.byteLength(checkoutSecret) < 32) {
    throw new ConfigError('CHECKOUT_SECRET', 'must be at least 32 bytes long');
  }
  const checkoutSecretPrevious = env.CHECKOUT_SECRET_PREVIOUS || undefined;
  if (checkoutSecretPrevious !== undefined) {
    if (Buffer.byteLength(checkoutSecretPrevious) < 32) throw new ConfigError('CHECKOUT_SECRET_PREVIOUS', 'must be at least 32 bytes long');
    // With the key file as the current secret the comparison waits for the file (CryptoService).
    if (checkoutSecretPrevious === checkoutSecret) throw new ConfigError('CHECKOUT_SECRET_PREVIOUS', 'must differ from CHECKOUT_SECRET');
  }
  const databaseUrl = env.DATABASE_URL || undefined;
  if (databaseUrl && !/^(mysql|mariadb):\/\//.test(databaseUrl) && !/^sqlite:/.test(databaseUrl)) {
    throw new ConfigError('DATABASE_URL', 'must be a mysql://, mariadb:// or sqlite: URL');
  }
  const redisUrl = env.REDIS_URL || undefined;
  if (redisUrl) {
    envUrl({ REDIS_URL: redisUrl }, 'REDIS_URL', '', ['redis:', 'rediss:']);
    // ioredis would read a keyPrefix from the URL's query and then silently lose it to REDIS_KEY_PREFIX.
    if (new URL(redisUrl).searchParams.has('keyPrefix')) throw new ConfigError('REDIS_URL', 'must not carry a keyPrefix; set REDIS_KEY_PREFIX instead');
  }
  const smtpUrl = env.SMTP_URL || undefined;
  if (smtpUrl) envUrl({ SMTP_URL: smtpUrl }, 'SMTP_URL', '', ['smtp:', 'smtps:']);
  const adminPassword = env.CHECKOUT_ADMIN_PASSWORD || undefined;
  if (adminPassword !== undefined && adminPassword.replace(/\s/g, '').length < 16) {
    throw new ConfigError('CHECKOUT_ADMIN_PASSWORD', 'must be at least 16 characters long');
  }

  const shutdownTimeoutSeconds = envInteger(env, 'SHUTDOWN_TIMEOUT_SECONDS', 25, { min: 1, max: 3600 });
  const shutdownDrainSeconds = envInteger(env, 'SHUTDOWN_DRAIN_SECONDS', 5, { min: 0, max: 3600 });
  // The drain is part of the timeout, and in-flight requests need some of it after the listener closes.
  if (shutdownDrainSeconds >= shutdownTimeoutSeconds) throw new ConfigError('SHUTDOWN_DRAIN_SECONDS', 'must be less than SHUTDOWN_TIMEOUT_SECONDS');

  const publicBaseUrl = envUrl(env, 'PUBLIC_BASE_URL', `http://localhost:${port}`, ['http:', 'https:']).replace(/\/$/, '');

  return {
    port,
    host,
    publicBaseUrl,
    corsOrigins: envOriginList(env, 'CORS_ORIGINS'),
    embedOrigins: envOriginList(env, 'EMBED_ORIGINS'),
    restRoot,
    databaseUrl,
    dataDir: envString(env, 'DATA_DIR', './data'),
    redisUrl,
    redisKeyPrefix: envMatch({ REDIS_KEY_PREFIX: envString(env, 'REDIS_KEY_PREFIX', 'checkout:') }, 'REDIS_KEY_PREFIX', 'checkout:', /^[\x21-\x7e]{1,64}$/, 'printable ASCII without spaces, at most 64 characters'),
    checkoutSecret,
    checkoutSecretPrevious,
    adminPassword,
    plan: envEnum(env, 'CHECKOUT_PLAN', ['free', 'pro'] as const, 'free'),
    smtpUrl,
    trustProxy: envBoolean(env, 'TRUST_PROXY', false),
    tablePrefix: envMatch(env, 'TABLE_PREFIX', 'wp_', /^[a-z0-9_]{0,20}$/i, 'letters, digits and underscores only (at most 20)'),
    migrationLockTimeoutSeconds: envInteger(env, 'MIGRATION_LOCK_TIMEOUT_SECONDS', 300, { min: 1, max: 86400 }),
    adminUrl: envString(env, 'ADMIN_URL', '/admin/'),
    adminConsoleDir: envString(env, 'ADMIN_CONSOLE_DIR', defaultConsoleDirectory()),
    logLevel: envEnum(env, 'LOG_LEVEL', LOG_LEVELS, 'info'),
    bodyLimitBytes: envInteger(env, 'BODY_LIMIT_BYTES', 64 * 1024, { min: 1024, max: 10 * 1024 * 1024 }),
    webhookBodyLimitBytes: envInteger(env, 'WEBHOOK_BODY_LIMIT_BYTES', 512 * 1024, { min: 1024, max: 10 * 1024 * 1024 }),
    checkoutTokenTtlSeconds: envInteger(env, 'CHECKOUT_TOKEN_TTL_SECONDS', 3600, { min: 60, max: 86400 }),
    session: {
      ttlSeconds: envInteger(env, 'SESSION_TTL_SECONDS', 8 * 3600, { min: 300, max: 30 * 86400 }),
      idleTimeoutSeconds: envInteger(env, 'SESSION_IDLE_TIMEOUT_SECONDS', 1800, { min: 60, max: 30 * 86400 }),
    },
    featuresApiUrl: env.FEATURES_API_URL ? envUrl(env, 'FEATURES_API_URL', '', ['http:', 'https:']) : undefined,
    gatewayTimeoutMs: envInteger(env, 'GATEWAY_TIMEOUT_MS', 8000, { min: 100, max: 120_000 }),
    reconcileIntervalSeconds: envInteger(env, 'RECONCILE_INTERVAL_SECONDS', 300, { min: 0, max: 86_400 }),
    paymentExportMaxRows: envInteger(env, 'PAYMENT_EXPORT_MAX_ROWS', 1_000_000, { min: 1, max: 100_000_000 }),
    outbox: {
      pollSeconds: envInteger(env, 'OUTBOX_POLL_SECONDS', 10, { min: 1, max: 3600 }),
      maxAttempts: envInteger(env, 'OUTBOX_MAX_ATTEMPTS', 8, { min: 1, max: 100 }),
      retryBaseSeconds: envInteger(env, 'OUTBOX_RETRY_BASE_SECONDS', 30, { min: 1, max: 86_400 }),
      retryMaxSeconds: envInteger(env, 'OUTBOX_RETRY_MAX_SECONDS', 3600, { min: 1, max: 7 * 86_400 }),
      leaseSeconds: envInteger(env, 'OUTBOX_LEASE_SECONDS', 60, { min: 2, max: 3600 }),
    },
    outgoingWebhooksAllowPrivate: envBoolean(env, 'OUTGOING_WEBHOOKS_ALLOW_PRIVATE', false),
    shutdown: { timeoutSeconds: shutdownTimeoutSeconds, drainSeconds: shutdownDrainSeconds },
    metricsToken: metricsTokenOf(env),
    rateLimits: {
      newPayment: {
        limit: envInteger(env, 'RATE_LIMIT_NEW_PAYMENT', 10, { min: 1 }),
        ttl: envInteger(env, 'RATE_LIMIT_NEW_PAYMENT_WINDOW_SECONDS', 600, { min: 1 }) * 1000,
      },
      publicPayment: {
        limit: envInteger(env, 'RATE_LIMIT_PUBLIC_PAYMENT', 60, { min: 1 }),
        ttl: envInteger(env, 'RATE_LIMIT_PUBLIC_PAYMENT_WINDOW_SECONDS', 60, { min: 1 }) * 1000,
      },
      failedLogin: {
        limit: envInteger(env, 'RATE_LIMIT_FAILED_LOGIN', 10, { min: 1 }),
        ttl: envInteger(env, 'RATE_LIMIT_FAILED_LOGIN_WINDOW_SECONDS', 900, { min: 1 }) * 1000,
      },
      accountRecovery: {
        limit: envInteger(env, 'RATE_LIMIT_ACCOUNT_RECOVERY', 10, { min: 1 }),
        ttl: envInteger(env, 'RATE_LIMIT_ACCOUNT_RECOVERY_WINDOW_SECONDS', 900, { min: 1 }) * 1000,
      },
      webhookVerifyFailures: {
        limit: envInteger(env, 'RATE_LIMIT_WEBHOOK_VERIFY_FAILURES', 10, { min: 1 }),
        ttl: envInteger(env, 'RATE_LIMIT_WEBHOOK_VERIFY_FAILURES_WINDOW_SECONDS', 600, { min: 1 }) * 1000,
      },
    },
  };
}

/** Where `npm run build` puts the console: `dist/console/` of the project (found from this file, in `src/` or `dist/src/`). */
function defaultConsoleDirectory(from: string = __dirname): string {
  let dir = from;
  while (!existsSync(join(dir, 'package.json'))) {
    const parent = dirname(dir);
    if (parent === dir) return resolve('dist', 'console');
    dir = parent;
  }
  return join(dir, 'dist', 'console');
}

function envMatch(env: NodeJS.ProcessEnv, name: string, fallback: string, pattern: RegExp, rule: string): string {
  const value = env[name] ?? fallback;
  if (!pattern.test(value)) throw new ConfigError(name, `must be ${rule}`);
  return value;
}

/** METRICS_TOKEN: unset or empty is no token; a set one must be long and plain enough for a header. */
function metricsTokenOf(env: NodeJS.ProcessEnv): string | undefined {
  const token = env.METRICS_TOKEN;
  if (!token) return undefined;
  if (!/^[\x21-\x7e]{16,256}$/.test(token)) throw new ConfigError('METRICS_TOKEN', 'must be 16 to 256 visible ASCII characters (no spaces)');
  return token;
}
