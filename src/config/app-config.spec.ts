import { ConfigError, loadConfig } from './index.js';

describe('loadConfig', () => {
  it('has working defaults', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({ port: 3000, restRoot: 'wp-json', plan: 'free', tablePrefix: 'wp_', trustProxy: false, databaseUrl: undefined });
    expect(config.rateLimits.newPayment).toEqual({ limit: 10, ttl: 600_000 });
    expect(config.rateLimits.publicPayment).toEqual({ limit: 60, ttl: 60_000 });
    expect(config.rateLimits.failedLogin).toEqual({ limit: 10, ttl: 900_000 });
    expect(config.rateLimits.webhookVerifyFailures).toEqual({ limit: 10, ttl: 600_000 });
    expect(config.corsOrigins).toEqual([]);
    expect(config.redisKeyPrefix).toBe('checkout:');
    expect(config.migrationLockTimeoutSeconds).toBe(300);
    // The gateway-A connect round trip lands in the admin console the service serves.
    expect(config.adminUrl).toBe('/admin/');
    expect(loadConfig({ ADMIN_URL: 'https://admin.example/checkout' }).adminUrl).toBe('https://admin.example/checkout');
    expect(config.session).toEqual({ ttlSeconds: 28_800, idleTimeoutSeconds: 1800 });
  });

  it('reads the outbox settings (poll, attempts, backoff, lease) with their defaults and bounds', () => {
    expect(loadConfig({}).outbox).toEqual({ pollSeconds: 10, maxAttempts: 8, retryBaseSeconds: 30, retryMaxSeconds: 3600, leaseSeconds: 60 });
    expect(
      loadConfig({ OUTBOX_POLL_SECONDS: '1', OUTBOX_MAX_ATTEMPTS: '3', OUTBOX_RETRY_BASE_SECONDS: '5', OUTBOX_RETRY_MAX_SECONDS: '60', OUTBOX_LEASE_SECONDS: '2' }).outbox,
    ).toEqual({ pollSeconds: 1, maxAttempts: 3, retryBaseSeconds: 5, retryMaxSeconds: 60, leaseSeconds: 2 });
    for (const [name, value] of [['OUTBOX_POLL_SECONDS', '0'], ['OUTBOX_MAX_ATTEMPTS', '0'], ['OUTBOX_MAX_ATTEMPTS', '101'], ['OUTBOX_LEASE_SECONDS', '1'], ['OUTBOX_RETRY_BASE_SECONDS', '-1']]) {
      expect(() => loadConfig({ [name]: value })).toThrow(new RegExp(name));
    }
  });

  it('reads PAYMENT_EXPORT_MAX_ROWS, the CSV export\'s row cap (default 1,000,000; a whole number from 1)', () => {
    expect(loadConfig({}).paymentExportMaxRows).toBe(1_000_000);
    expect(loadConfig({ PAYMENT_EXPORT_MAX_ROWS: '50000' }).paymentExportMaxRows).toBe(50_000);
    for (const value of ['0', '-1', '1.5', 'many', '100000001']) expect(() => loadConfig({ PAYMENT_EXPORT_MAX_ROWS: value })).toThrow(/PAYMENT_EXPORT_MAX_ROWS/);
  });

  it('reads the shutdown timeout and drain (defaults 25 s and 5 s; the drain shorter than the timeout)', () => {
    expect(loadConfig({}).shutdown).toEqual({ timeoutSeconds: 25, drainSeconds: 5 });
    expect(loadConfig({ SHUTDOWN_TIMEOUT_SECONDS: '3', SHUTDOWN_DRAIN_SECONDS: '0' }).shutdown).toEqual({ timeoutSeconds: 3, drainSeconds: 0 });
    expect(() => loadConfig({ SHUTDOWN_TIMEOUT_SECONDS: '0' })).toThrow(/SHUTDOWN_TIMEOUT_SECONDS/);
    expect(() => loadConfig({ SHUTDOWN_TIMEOUT_SECONDS: '5' })).toThrow(/SHUTDOWN_DRAIN_SECONDS must be less than SHUTDOWN_TIMEOUT_SECONDS/);
    expect(() => loadConfig({ SHUTDOWN_DRAIN_SECONDS: '1.5' })).toThrow(/SHUTDOWN_DRAIN_SECONDS/);
  });

  it('holds no gateway slice\'s variables (each slice reads its own: CHECKOUT_PROXY_URL, GATEWAY_*) and no connect key', () => {
    const values = JSON.stringify(loadConfig({ GATEWAY_A_JS_URL: 'https://js.example.test/v3/', GATEWAY_A_SECRET_KEY: 'sk_test_notInConfig' }));
    expect(values).not.toContain('js.example.test');
    expect(values).not.toContain('sk_test_notInConfig');
    expect(() => loadConfig({ CHECKOUT_PROXY_URL: 'not a url', GATEWAY_A_JS_URL: 'not a url', GATEWAY_B_WEBHOOK_TOLERANCE_SECONDS: '5' })).not.toThrow();
  });

  it('reads REDIS_KEY_PREFIX (printable, no spaces, at most 64 characters; empty is the default)', () => {
    expect(loadConfig({ REDIS_KEY_PREFIX: 'shop-2:{eu}:' }).redisKeyPrefix).toBe('shop-2:{eu}:');
    expect(loadConfig({ REDIS_KEY_PREFIX: 'p'.repeat(64) }).redisKeyPrefix).toBe('p'.repeat(64));
    expect(loadConfig({ REDIS_KEY_PREFIX: '' }).redisKeyPrefix).toBe('checkout:');
  });

  it('reads CORS_ORIGINS as exact origins, normalised the way browsers send Origin', () => {
    expect(loadConfig({ CORS_ORIGINS: 'https://Admin.Example.com, http://localhost:5173,https://admin.example.com:443/' }).corsOrigins).toEqual([
      'https://admin.example.com',
      'http://localhost:5173',
    ]);
    expect(loadConfig({ CORS_ORIGINS: ' ' }).corsOrigins).toEqual([]);
  });

  it('reads EMBED_ORIGINS as exact origins; none by default (the hosted page is framed by no page)', () => {
    expect(loadConfig({}).embedOrigins).toEqual([]);
    expect(loadConfig({ EMBED_ORIGINS: 'https://Shop.Example.com, http://127.0.0.1:8080,https://shop.example.com:443/' }).embedOrigins).toEqual([
      'https://shop.example.com',
      'http://127.0.0.1:8080',
    ]);
  });

  it.each([
    ['PORT', 'eighty'],
    ['CHECKOUT_PLAN', 'gold'],
    ['DATABASE_URL', 'postgres://x'],
    ['TRUST_PROXY', 'perhaps'],
    ['TABLE_PREFIX', 'wp-;drop'],
    ['REST_ROOT', '/wp-json/'],
    ['LOG_LEVEL', 'loud'],
    ['RATE_LIMIT_NEW_PAYMENT', '0'],
    ['CORS_ORIGINS', 'null'],
    ['CORS_ORIGINS', '*'],
    ['CORS_ORIGINS', 'https://admin.example.com/app'],
    ['CORS_ORIGINS', 'https://admin.example.com,ftp://files.example.com'],
    ['CORS_ORIGINS', 'https://user:pw@admin.example.com'],
    ['CORS_ORIGINS', 'admin.example.com'],
    ['EMBED_ORIGINS', '*'],
    ['EMBED_ORIGINS', 'https://*.example.com'],
    ['EMBED_ORIGINS', 'https://shop.example.com/page'],
    ['EMBED_ORIGINS', "'self'"],
    ['REDIS_KEY_PREFIX', 'two words:'],
    ['REDIS_KEY_PREFIX', 'tab\there:'],
    ['REDIS_KEY_PREFIX', 'ünïcode:'],
    ['REDIS_KEY_PREFIX', 'x'.repeat(65)],
    ['REDIS_URL', 'redis://127.0.0.1:6379/0?keyPrefix=other:'],
    ['MIGRATION_LOCK_TIMEOUT_SECONDS', 'soon'],
    ['RATE_LIMIT_WEBHOOK_VERIFY_FAILURES', '0'],
    ['SESSION_TTL_SECONDS', '60'],
    ['SESSION_IDLE_TIMEOUT_SECONDS', 'forever'],
  ])('refuses a bad %s, naming the variable but not its value', (name, value) => {
    let error: unknown;
    try {
      loadConfig({ [name]: value });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).message).toContain(name);
    expect((error as ConfigError).message).not.toContain(value);
  });

  it('checks CHECKOUT_SECRET_PREVIOUS like the secret and refuses the current secret as the previous one, printing neither', () => {
    const current = 'the-new-checkout-secret-of-at-least-32-bytes';
    const previous = 'the-old-checkout-secret-of-at-least-32-bytes';
    expect(loadConfig({ CHECKOUT_SECRET: current, CHECKOUT_SECRET_PREVIOUS: previous }).checkoutSecretPrevious).toBe(previous);
    expect(loadConfig({ CHECKOUT_SECRET: current, CHECKOUT_SECRET_PREVIOUS: '' }).checkoutSecretPrevious).toBeUndefined();
    expect(() => loadConfig({ CHECKOUT_SECRET: current, CHECKOUT_SECRET_PREVIOUS: 'short-previous' })).toThrow(/CHECKOUT_SECRET_PREVIOUS must be at least 32 bytes/);
    expect(() => loadConfig({ CHECKOUT_SECRET: current, CHECKOUT_SECRET_PREVIOUS: current })).toThrow(/CHECKOUT_SECRET_PREVIOUS must differ from CHECKOUT_SECRET/);
    expect(() => loadConfig({ CHECKOUT_SECRET: current, CHECKOUT_SECRET_PREVIOUS: current })).not.toThrow(new RegExp(current));
    expect(() => loadConfig({ CHECKOUT_SECRET: current, CHECKOUT_SECRET_PREVIOUS: 'short-previous' })).not.toThrow(/short-previous/);
  });

  it('refuses a short CHECKOUT_SECRET without printing it', () => {
    expect(() => loadConfig({ CHECKOUT_SECRET: 'too-short-secret' })).toThrow(/CHECKOUT_SECRET must be at least 32 bytes/);
    expect(() => loadConfig({ CHECKOUT_SECRET: 'too-short-secret' })).not.toThrow(/too-short-secret/);
  });

  it('takes METRICS_TOKEN only when long and plain enough for a bearer header', () => {
    expect(loadConfig({}).metricsToken).toBeUndefined();
    expect(loadConfig({ METRICS_TOKEN: '' }).metricsToken).toBeUndefined();
    expect(loadConfig({ METRICS_TOKEN: 'a'.repeat(16) }).metricsToken).toBe('a'.repeat(16));
    expect(() => loadConfig({ METRICS_TOKEN: 'short' })).toThrow(/METRICS_TOKEN/);
    expect(() => loadConfig({ METRICS_TOKEN: 'has a space in it, 24 chars' })).toThrow(ConfigError);
  });
});
