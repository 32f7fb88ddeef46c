import { RedisConnection } from '../../common/redis/index.js';
import { loadConfig } from '../../config/index.js';
import { FailedLoginLimiter, MAX_TRACKED_CLIENTS } from './failed-login-limiter.js';

describe('FailedLoginLimiter in memory', () => {
  afterEach(() => jest.restoreAllMocks());
  const limiter = () => {
    const config = loadConfig({ RATE_LIMIT_FAILED_LOGIN: '3', RATE_LIMIT_FAILED_LOGIN_WINDOW_SECONDS: '60' });
    return new FailedLoginLimiter(config, new RedisConnection(config));
  };

  it('forgets clients whose window ended, not only when the same client comes back', async () => {
    let now = 1_000_000;
    jest.spyOn(Date, 'now').mockImplementation(() => now);
    const subject = limiter();
    for (let i = 0; i < 100; i += 1) await subject.recordFailure(`198.51.100.${i}`);
    expect(subject.trackedClients).toBe(100);
    now += 60_000;
    await subject.recordFailure('203.0.113.1');
    expect(subject.trackedClients).toBe(1);
  });

  it('holds at most MAX_TRACKED_CLIENTS clients however many fail', async () => {
    const subject = limiter();
    for (let i = 0; i < MAX_TRACKED_CLIENTS + 2_000; i += 1) await subject.recordFailure(`client-${i}`);
    expect(subject.trackedClients).toBe(MAX_TRACKED_CLIENTS);
  });

  it('still blocks a client at the limit while others come and go', async () => {
    const subject = limiter();
    for (let i = 0; i < 3; i += 1) await subject.recordFailure('203.0.113.9');
    for (let i = 0; i < 1_000; i += 1) await subject.recordFailure(`client-${i}`);
    expect(await subject.acquire('203.0.113.9')).toBeGreaterThan(0);
  });
});
