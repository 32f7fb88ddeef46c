import type { RedisConnection } from '../redis/index.js';
import { RedisUnavailableError } from '../redis/index.js';
import { FailureCounter } from './failure-counter.js';

describe('FailureCounter', () => {
  let now: number;
  const clock = () => now;
  beforeEach(() => {
    now = 1_000_000;
  });

  const withoutRedis = { configured: false } as unknown as RedisConnection;

  it('counts in memory without Redis: under the limit 0, at it the seconds left in the window, then a new window', async () => {
    const counter = new FailureCounter('verify', 3, 60_000, withoutRedis, clock);
    await counter.record('a');
    await counter.record('a');
    expect(await counter.retryAfterSeconds('a')).toBe(0);
    await counter.record('a');
    expect(await counter.retryAfterSeconds('a')).toBe(60);
    expect(await counter.retryAfterSeconds('b')).toBe(0);
    now += 45_500;
    expect(await counter.retryAfterSeconds('a')).toBe(15);
    now += 14_500;
    expect(await counter.retryAfterSeconds('a')).toBe(0);
  });

  it('falls back to memory while Redis cannot answer, instead of refusing', async () => {
    const run = jest.fn(() => Promise.reject(new RedisUnavailableError()));
    const down = { configured: true, run } as unknown as RedisConnection;
    const counter = new FailureCounter('verify', 2, 60_000, down, clock);
    expect(await counter.retryAfterSeconds('a')).toBe(0);
    await counter.record('a');
    await counter.record('a');
    expect(await counter.retryAfterSeconds('a')).toBe(60);
    expect(run).toHaveBeenCalled();
  });

  it('lets any other Redis failure through (a bug, not an outage)', async () => {
    const broken = { configured: true, run: () => Promise.reject(new Error('WRONGTYPE')) } as unknown as RedisConnection;
    await expect(new FailureCounter('verify', 2, 60_000, broken, clock).record('a')).rejects.toThrow('WRONGTYPE');
  });
});
